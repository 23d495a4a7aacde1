//! `error-body-not-json`: an error on an A2A operation whose body is not JSON (a framework's
//! HTML or text page), so no client can read a reason from it.

use crate::finding::Finding;
use crate::protocol::classify::{ExchangeView, JsonBody};
use crate::rules::{Hooks, Rule, RuleId};

pub struct ErrorBodyNotJson;

impl Rule for ErrorBodyNotJson {
    fn id(&self) -> RuleId {
        RuleId::ErrorBodyNotJson
    }

    fn hooks(&self) -> Hooks {
        Hooks::EXCHANGE
    }

    fn check_exchange(&self, view: &ExchangeView<'_, '_>, out: &mut Vec<Finding>) {
        let (true, Some(status), Some(response)) =
            (view.is_a2a_operation(), view.error_status(), &view.response)
        else {
            return;
        };
        let declared_json = response.media_type.as_ref().is_some_and(|m| m.is_json());
        // Invalid JSON under a JSON type is `body-not-json`; an undecodable body is
        // `undecodable-body`.
        if declared_json || !matches!(response.json, JsonBody::Absent) {
            return;
        }
        let Some(bytes) = response.message.body.bytes() else {
            return;
        };
        let empty = bytes.iter().all(u8::is_ascii_whitespace);
        // A 401 challenge without a body is the auth layer's business (`auth-challenge-missing`).
        if empty && status == 401 {
            return;
        }
        let operation = view
            .operation
            .map_or("an A2A request", |op| op.method_name());
        let (label, what) = match (&response.media_type, empty) {
            (_, true) => (
                response.start_line_label("no body"),
                "has no body".to_string(),
            ),
            (Some(media_type), false) => (
                crate::input::source::Label::at(media_type.span, "not JSON"),
                format!("is `{}`, not JSON", media_type.essence),
            ),
            (None, false) => (
                crate::input::source::Label::at(response.message.body.raw, "not JSON"),
                "is not JSON".to_string(),
            ),
        };
        out.push(
            Finding::new(self.id(), label, format!("HTTP {status} error to {operation} {what}: a client cannot read a reason"))
                .help(
                    "answer A2A operations with the binding's error body even for framework-level failures (unknown \
                     method, wrong HTTP method, bad media type): a JSON-RPC error or a google.rpc.Status (A2A §3.3.2)",
                ),
        );
    }
}
