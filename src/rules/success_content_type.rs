//! `success-content-type`: a successful JSON-RPC or HTTP+JSON answer whose media type is
//! not the one its binding and the profile ask for (A2A §9.1, §11.1, streams §9.4.2,
//! §11.7).

use crate::finding::{Finding, Severity};
use crate::input::source::Label;
use crate::protocol::classify::{Binding, ExchangeView, Operation};
use crate::protocol::profile::Profile;
use crate::rules::{Hooks, Rule, RuleId};

pub struct SuccessContentType;

/// What a successful answer's media type must be, how it is named, and how grave a
/// miss is.
struct Expected {
    fits: fn(&str) -> bool,
    named: &'static str,
    severity: Severity,
    reference: &'static str,
}

impl Rule for SuccessContentType {
    fn id(&self) -> RuleId {
        RuleId::SuccessContentType
    }

    fn hooks(&self) -> Hooks {
        Hooks::EXCHANGE
    }

    fn check_exchange(&self, view: &ExchangeView<'_, '_>, out: &mut Vec<Finding>) {
        let (Some(response), Some(operation)) = (&view.response, view.operation) else {
            return;
        };
        let has_body = (response.message.body.bytes()).is_some_and(|b| !b.trim_ascii().is_empty());
        if !view.succeeded() || !has_body {
            return;
        }
        let Some(expected) = expected(view.binding, operation, view.profile) else {
            return;
        };
        let essence = (response.media_type.as_ref()).map_or("", |m| m.essence.as_str());
        if (expected.fits)(essence) {
            return;
        }
        let label = response.media_type.as_ref().map_or_else(
            || response.start_line_label("no Content-Type"),
            |m| Label::at(m.span, format!("expected {}", expected.named)),
        );
        let found = match essence {
            "" => "no media type".to_string(),
            essence => format!("`{essence}`"),
        };
        let message = format!(
            "successful {} answer to {} is sent as {found}; the {} profile expects {}",
            view.binding.name(),
            operation.method_name(),
            view.profile.name(),
            expected.named
        );
        out.push(
            Finding::new(self.id(), label, message)
                .severity(expected.severity)
                .help(format!(
                    "send {} ({}); a client picks its decoder by the media type and may \
                     reject or misread the answer",
                    expected.named, expected.reference
                )),
        );
    }
}

/// The media type each binding's successful answers use under `profile`. Streams are
/// `text/event-stream` everywhere; JSON-RPC is `application/json`; HTTP+JSON SHOULD be
/// `application/a2a+json` since v1.0.1 (v1.0.0 said `application/json`, so `spec-1.0.0`
/// accepts both), while the test kit checks for the substring `application/json`.
fn expected(binding: Binding, operation: Operation, profile: Profile) -> Option<Expected> {
    let streaming = operation.is_streaming();
    let kit_json = |essence: &str| essence.contains("application/json");
    let expected = match (binding, streaming, profile) {
        (Binding::JsonRpc | Binding::HttpJson, true, _) => Expected {
            fits: |e| e == "text/event-stream",
            named: "`text/event-stream`",
            severity: Severity::Warning,
            reference: "A2A §9.4.2, §11.7",
        },
        (Binding::JsonRpc, false, Profile::Tck) | (Binding::HttpJson, false, Profile::Tck) => {
            Expected {
                fits: kit_json,
                named: "a type containing `application/json` (a2a-tck)",
                severity: Severity::Warning,
                reference: "a2a-tck JSONRPC-FMT-002, HTTP_JSON-SVC-001",
            }
        }
        (Binding::JsonRpc, false, _) => Expected {
            fits: |e| e == "application/json",
            named: "`application/json`",
            severity: Severity::Warning,
            reference: "A2A §9.1",
        },
        (Binding::HttpJson, false, Profile::Spec) => Expected {
            fits: |e| e == "application/a2a+json",
            named: "`application/a2a+json` (spec v1.0.1 §11.1)",
            severity: Severity::Info,
            reference: "A2A v1.0.1 §11.1 SHOULD",
        },
        (Binding::HttpJson, false, Profile::Spec100) => Expected {
            fits: |e| e == "application/a2a+json" || e == "application/json",
            named: "`application/json` or `application/a2a+json`",
            severity: Severity::Info,
            reference: "A2A v1.0.0 §11.1",
        },
        _ => return None,
    };
    Some(expected)
}
