//! `invalid-request-code`: an invalid JSON-RPC Request answered with a code other than -32600.

use crate::finding::Finding;
use crate::protocol::classify::{Binding, ErrorView, ExchangeView, InvalidRequest};
use crate::rules::{Hooks, Rule, RuleId};

pub struct InvalidRequestCode;

impl Rule for InvalidRequestCode {
    fn id(&self) -> RuleId {
        RuleId::InvalidRequestCode
    }

    fn hooks(&self) -> Hooks {
        Hooks::ERRORS
    }

    fn check_errors(
        &self,
        view: &ExchangeView<'_, '_>,
        errors: &[ErrorView<'_>],
        out: &mut Vec<Finding>,
    ) {
        let (Binding::JsonRpc, Some(rpc), Some(request)) =
            (view.binding, view.rpc(), &view.request)
        else {
            return;
        };
        let Some(error) = errors.iter().find(|e| !e.in_stream()) else {
            return;
        };
        // A batch answered with one error object (not an array of responses) was refused
        // as a whole; refusing it is the server's right, but the code is -32600.
        let refused_batch =
            (rpc.batch && !error.in_stream()).then_some(InvalidRequest::RefusedBatch);
        let Some(invalid) = rpc.invalid.or(refused_batch) else {
            return;
        };
        let Some(code) = error.code().filter(|&c| c != -32600) else {
            return;
        };
        let request_label = match invalid {
            InvalidRequest::NoJsonrpcMember
            | InvalidRequest::NotAnObject
            | InvalidRequest::RefusedBatch => request.opening_label("", invalid.describe()),
            InvalidRequest::JsonrpcNot2_0 => request.label("/jsonrpc", invalid.describe()),
            InvalidRequest::NoMethod => request.opening_label("", invalid.describe()),
            InvalidRequest::MethodNotAString => request.label("/method", invalid.describe()),
            InvalidRequest::IdOfWrongType => request.label("/id", invalid.describe()),
        };
        out.push(
            Finding::new(
                self.id(),
                error.label("/error/code", "expected -32600"),
                format!("{} but the error code is {code}; expected -32600 (Invalid Request)", capitalised(invalid.describe())),
            )
            .related(request_label)
            .help("JSON-RPC 2.0 §5.1: a body that is JSON but not a valid Request object is answered with -32600; -32602 is for bad params of a valid request"),
        );
    }
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}
