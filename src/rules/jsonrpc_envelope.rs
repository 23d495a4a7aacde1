//! `jsonrpc-envelope`: a JSON-RPC response that is not a valid JSON-RPC 2.0 response object.

use serde_json::Value;

use crate::finding::Finding;
use crate::input::source::Label;
use crate::protocol::classify::{
    Binding, ExchangeView, MessageView, RequestId, kind_of, looks_like_response,
};
use crate::rules::{Hooks, Rule, RuleId};

pub struct JsonrpcEnvelope;

const HELP: &str = "a JSON-RPC 2.0 response is {\"jsonrpc\": \"2.0\", \"id\": <request id>, and exactly one of \
                    \"result\" or \"error\": {\"code\": <integer>, \"message\": <string>, \"data\": [...]}}";

impl Rule for JsonrpcEnvelope {
    fn id(&self) -> RuleId {
        RuleId::JsonrpcEnvelope
    }

    fn hooks(&self) -> Hooks {
        Hooks::EXCHANGE
    }

    fn check_exchange(&self, view: &ExchangeView<'_, '_>, out: &mut Vec<Finding>) {
        let (Binding::JsonRpc, Some(response)) = (view.binding, &view.response) else {
            return;
        };
        let Some(body) = response.json.value() else {
            return;
        };
        // A batch answer is an array (a batch refused as a whole is one object, held to
        // the envelope); a body that is no JSON-RPC response at all (an auth layer's
        // `{"detail": ...}`) is not held to the envelope.
        if body.is_array() || !looks_like_response(body) {
            return;
        }
        let Some(object) = body.as_object() else {
            return;
        };
        // A missing `id` where the request's could be read is `jsonrpc-id-mismatch`'s.
        let id_readable = view
            .rpc()
            .is_some_and(|rpc| matches!(rpc.id, RequestId::Readable(_)));
        for (label, message) in problems(response, object, id_readable) {
            out.push(self.finding(label, message));
        }
    }
}

impl JsonrpcEnvelope {
    fn finding(&self, label: Label, message: String) -> Finding {
        Finding::new(self.id(), label, message).help(HELP)
    }
}

/// Every way the response object breaks JSON-RPC 2.0 §5 / §5.1.
fn problems(
    response: &MessageView<'_, '_>,
    object: &serde_json::Map<String, Value>,
    id_readable: bool,
) -> Vec<(Label, String)> {
    let mut found = Vec::new();
    match object.get("jsonrpc") {
        None => found.push((
            response.opening_label("", "no `jsonrpc` member"),
            "JSON-RPC response has no `jsonrpc` member".into(),
        )),
        Some(v) if v.as_str() != Some("2.0") => found.push((
            response.label("/jsonrpc", "expected \"2.0\""),
            format!("JSON-RPC response has `jsonrpc` {v}, expected \"2.0\""),
        )),
        Some(_) => {}
    }
    // `id` is REQUIRED in a response, `null` when the request's could not be read (JSON-RPC
    // 2.0 §5); a client matches answers to calls by it.
    if !object.contains_key("id") && !id_readable {
        found.push((
            response.opening_label("", "no `id` member"),
            "JSON-RPC response has no `id` member; it is required, `null` when the request's id \
             could not be read"
                .into(),
        ));
    }
    match (object.get("result"), object.get("error")) {
        (Some(_), Some(_)) => found.push((
            response.key_label("/error", "both `result` and `error`"),
            "JSON-RPC response has both `result` and `error`; exactly one is allowed".into(),
        )),
        (None, None) => found.push((
            response.opening_label("", "neither `result` nor `error`"),
            "JSON-RPC response has neither `result` nor `error`".into(),
        )),
        (None, Some(Value::Object(error))) => {
            match error.get("code") {
                None => found.push((
                    response.opening_label("/error", "no `code`"),
                    "JSON-RPC error has no `code`".into(),
                )),
                Some(code) if code.as_i64().is_none() => found.push((
                    response.label("/error/code", "not an integer"),
                    format!("JSON-RPC `error.code` is {code}, expected an integer"),
                )),
                Some(_) => {}
            }
            match error.get("message") {
                None => found.push((
                    response.opening_label("/error", "no `message`"),
                    "JSON-RPC error has no `message`".into(),
                )),
                Some(message) if !message.is_string() => found.push((
                    response.label("/error/message", "not a string"),
                    format!("JSON-RPC `error.message` is {message}, expected a string"),
                )),
                Some(_) => {}
            }
        }
        (None, Some(other)) => found.push((
            response.label("/error", "not an object"),
            format!(
                "JSON-RPC `error` is {}, expected an object with `code` and `message`",
                kind_of(other)
            ),
        )),
        (Some(_), None) => {}
    }
    found
}
