//! `jsonrpc-standard-message`: a standard JSON-RPC code with a message other than its
//! standard text (A2A §9.5).

use crate::finding::Finding;
use crate::protocol::classify::{ErrorForm, ErrorView, ExchangeView};
use crate::protocol::table::table;
use crate::rules::{Hooks, Rule, RuleId};

pub struct JsonrpcStandardMessage;

impl Rule for JsonrpcStandardMessage {
    fn id(&self) -> RuleId {
        RuleId::JsonrpcStandardMessage
    }

    fn hooks(&self) -> Hooks {
        Hooks::ERROR
    }

    fn check_error(
        &self,
        view: &ExchangeView<'_, '_>,
        error: &ErrorView<'_>,
        out: &mut Vec<Finding>,
    ) {
        // For a request that is not a valid JSON-RPC Request answered with another code than
        // -32600, the code itself is wrong (`invalid-request-code`); advising that code's
        // text would mislead. A -32600 answer's text is judged as usual.
        if view.is_invalid_rpc_request() && error.code() != Some(-32600) {
            return;
        }
        if error.form != ErrorForm::JsonRpc {
            return;
        }
        let (Some(code), Some(message)) = (error.code(), error.message()) else {
            return;
        };
        let Some(standard) = table().standard.iter().find(|s| s.jsonrpc == code) else {
            return;
        };
        // JSON-RPC 2.0's own wording ("Invalid params") is as standard as A2A's.
        if is_standard_text(message, &standard.message)
            || is_standard_text(message, &standard.jsonrpc_message)
        {
            return;
        }
        out.push(
            Finding::new(
                self.id(),
                error.label("/error/message", format!("standard: \"{}\"", standard.message)),
                format!("error {code} has message \"{message}\"; A2A §9.5 gives \"{}\"", standard.message),
            )
            .help(format!(
                "use \"{}\", optionally followed by \": <detail>\"; put specifics in a google.rpc.BadRequest or ErrorInfo",
                standard.message
            )),
        );
    }
}

/// The standard text, in any letter case, alone, with a full stop, or followed by
/// `: detail`.
fn is_standard_text(message: &str, standard: &str) -> bool {
    let message = message.trim().trim_end_matches('.');
    let Some(head) = message.get(..standard.len()) else {
        return false;
    };
    head.eq_ignore_ascii_case(standard) && {
        let rest = &message[standard.len()..];
        rest.is_empty() || rest.starts_with(':')
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_the_text_with_a_detail() {
        assert!(is_standard_text("Invalid parameters", "Invalid parameters"));
        assert!(is_standard_text(
            "invalid parameters: message.parts is empty",
            "Invalid parameters"
        ));
        assert!(!is_standard_text("Invalid params", "Invalid parameters"));
        assert!(!is_standard_text(
            "Invalid parametersX",
            "Invalid parameters"
        ));
        assert!(!is_standard_text("É", "Invalid parameters"));
        assert!(is_standard_text(
            "Invalid JSON payload.",
            "Invalid JSON payload"
        ));
    }
}
