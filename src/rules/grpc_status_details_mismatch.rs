//! `grpc-status-details-mismatch`: the `google.rpc.Status` in `grpc-status-details-bin`
//! says another code or message than the `grpc-status` and `grpc-message` beside it.

use serde_json::{Map, Value};

use crate::finding::Finding;
use crate::input::capture::Header;
use crate::input::source::Label;
use crate::protocol::classify::{ExchangeView, MessageView};
use crate::rules::{Hooks, Rule, RuleId};

pub struct GrpcStatusDetailsMismatch;

const HELP: &str = "send the same code and message twice: the Status in `grpc-status-details-bin` must \
                    repeat `grpc-status` and the unescaped `grpc-message` (A2A §10.6 puts the error in \
                    that Status); grpcio-status's `rpc_status.from_call` raises on either difference and \
                    grpc-java's `StatusProto` rejects a code that differs";

impl Rule for GrpcStatusDetailsMismatch {
    fn id(&self) -> RuleId {
        RuleId::GrpcStatusDetailsMismatch
    }

    fn hooks(&self) -> Hooks {
        Hooks::EXCHANGE
    }

    fn check_exchange(&self, view: &ExchangeView<'_, '_>, out: &mut Vec<Finding>) {
        let Some(response) = view.grpc_response() else {
            return;
        };
        let Some(grpc) = &response.grpc_status else {
            return;
        };
        // A Status that did not decode is `undecodable-body`'s.
        let Some(details) = grpc.details_json.value().and_then(Value::as_object) else {
            return;
        };
        let doc = response.status_doc();
        let at = |member: &str, text: String| match details.contains_key(member) {
            true => doc.label(&format!("/{member}"), text),
            false => doc.opening_label("", text),
        };
        let sent = grpc.message_text.as_deref();
        let found = compare(grpc.code, sent, details);
        if let Some((status, code)) = found.code {
            out.push(
                Finding::new(
                    self.id(),
                    at("code", format!("code {}", named(code))),
                    format!(
                        "the Status in grpc-status-details-bin has code {} but grpc-status is {}",
                        named(code),
                        named(status)
                    ),
                )
                .related(field(response, grpc.status, "grpc-status"))
                .help(HELP),
            );
        }
        if let Some((sent, text)) = found.message {
            let related = match grpc.message {
                Some(header) => field(response, header, "grpc-message"),
                None => field(response, grpc.status, "no grpc-message"),
            };
            out.push(
                Finding::new(
                    self.id(),
                    at("message", "Status message".into()),
                    format!(
                        "the Status in grpc-status-details-bin has message {} but grpc-message is {}",
                        quoted(text),
                        quoted(sent)
                    ),
                )
                .related(related)
                .help(HELP),
            );
        }
    }
}

/// Where a Status disagrees with the status fields.
#[derive(Debug, Default, PartialEq, Eq)]
struct Disagreement<'v> {
    /// `(grpc-status, Status code)`.
    code: Option<(i64, i64)>,
    /// `(grpc-message unescaped, Status message)`.
    message: Option<(&'v str, &'v str)>,
}

/// Compares the decoded Status with `grpc-status` (`None` when it is no number, which
/// `grpc-status-mismatch` reports) and the unescaped `grpc-message`. Proto3 JSON leaves
/// out a zero code and an empty message, and an absent `grpc-message` is an empty one.
fn compare<'v>(
    status: Option<i64>,
    sent: Option<&'v str>,
    details: &'v Map<String, Value>,
) -> Disagreement<'v> {
    let code = details.get("code").and_then(Value::as_i64).unwrap_or(0);
    let text = details.get("message").and_then(Value::as_str).unwrap_or("");
    let sent = sent.unwrap_or("");
    Disagreement {
        code: status.filter(|&s| s != code).map(|s| (s, code)),
        message: (sent != text).then_some((sent, text)),
    }
}

/// A status code with its name: `5 (NOT_FOUND)`.
fn named(code: i64) -> String {
    match crate::input::proto::code_name(code) {
        Some(name) => format!("{code} ({name})"),
        None => code.to_string(),
    }
}

fn quoted(text: &str) -> String {
    match text {
        "" => "empty".into(),
        text => format!("{text:?}"),
    }
}

/// A label on a status field: a trailer, or a header of a Trailers-Only response.
fn field(response: &MessageView<'_, '_>, header: &Header<'_>, text: &str) -> Label {
    let place = match (response.message.trailers.iter()).any(|t| std::ptr::eq(t, header)) {
        true => "trailer",
        false => "header",
    };
    Label::at(header.value_span, text).member(format!(
        "response/{place}/{}",
        header.name.to_ascii_lowercase()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn map(value: Value) -> Map<String, Value> {
        value.as_object().unwrap().clone()
    }

    #[test]
    fn a_status_that_repeats_the_fields_agrees() {
        let details = map(json!({"code": 5, "message": "Task not found"}));
        assert_eq!(
            compare(Some(5), Some("Task not found"), &details),
            Disagreement::default()
        );
    }

    #[test]
    fn proto3_defaults_stand_for_a_left_out_code_and_message() {
        // `grpc-status: 0` with no `grpc-message` is what an empty Status encodes.
        assert_eq!(
            compare(Some(0), None, &map(json!({}))),
            Disagreement::default()
        );
        let empty = map(json!({}));
        let found = compare(Some(5), Some("gone"), &empty);
        assert_eq!(found.code, Some((5, 0)));
        assert_eq!(found.message, Some(("gone", "")));
    }

    #[test]
    fn each_difference_is_told_apart() {
        let details = map(json!({"code": 13, "message": "Task missing"}));
        let found = compare(Some(5), Some("Task not found"), &details);
        assert_eq!(found.code, Some((5, 13)));
        assert_eq!(found.message, Some(("Task not found", "Task missing")));
        // A grpc-status that is no number is not compared.
        assert_eq!(
            compare(None, Some("Task missing"), &details),
            Disagreement::default()
        );
    }
}
