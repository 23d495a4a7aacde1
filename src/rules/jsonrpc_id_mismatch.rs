//! `jsonrpc-id-mismatch`: the response `id` differs from the request `id`.

use crate::finding::Finding;
use crate::protocol::classify::{Binding, ExchangeView, RequestId, looks_like_response};
use crate::rules::{Hooks, Rule, RuleId};

pub struct JsonrpcIdMismatch;

impl Rule for JsonrpcIdMismatch {
    fn id(&self) -> RuleId {
        RuleId::JsonrpcIdMismatch
    }

    fn hooks(&self) -> Hooks {
        Hooks::EXCHANGE
    }

    fn check_exchange(&self, view: &ExchangeView<'_, '_>, out: &mut Vec<Finding>) {
        let (Binding::JsonRpc, Some(rpc), Some(request), Some(response)) =
            (view.binding, view.rpc(), &view.request, &view.response)
        else {
            return;
        };
        let RequestId::Readable(request_id) = rpc.id else {
            // A notification expects no answer; an unreadable id can only be answered null.
            return;
        };
        let Some(body) = response
            .json
            .value()
            .filter(|v| looks_like_response(v))
            .and_then(|v| v.as_object())
        else {
            return;
        };
        let response_id = body.get("id");
        if response_id == Some(request_id) {
            return;
        }
        // JSON-RPC 2.0 §5: null is right when the server could not read the request's id,
        // which includes a request that is not a valid Request object.
        if response_id.is_some_and(|id| id.is_null()) && rpc.invalid.is_some() {
            return;
        }
        let (label, message) = match response_id {
            Some(id) => (
                response.label("/id", format!("expected {request_id}")),
                format!("JSON-RPC response id is {id} but the request id is {request_id}"),
            ),
            None => (
                response.opening_label("", "no `id`"),
                format!("JSON-RPC response has no `id`; the request id is {request_id}"),
            ),
        };
        let help = if response_id.is_some_and(|id| id.is_null()) {
            "the request id was readable, so the response must repeat it; a client matching \
             responses by id drops an answer with id null"
        } else {
            "answer with the request's id; null is only for requests whose id could not be read \
             (parse error, invalid request)"
        };
        out.push(
            Finding::new(self.id(), label, message)
                .related(request.label("/id", "request id"))
                .help(help),
        );
    }
}
