//! `request-content-type`: a request body sent with a media type the binding does not use.

use crate::finding::{Finding, Severity};
use crate::input::source::Label;
use crate::protocol::classify::{Binding, ExchangeView};
use crate::rules::{Hooks, Rule, RuleId};

pub struct RequestContentType;

impl Rule for RequestContentType {
    fn id(&self) -> RuleId {
        RuleId::RequestContentType
    }

    fn hooks(&self) -> Hooks {
        Hooks::EXCHANGE
    }

    fn check_exchange(&self, view: &ExchangeView<'_, '_>, out: &mut Vec<Finding>) {
        let Some(request) = &view.request else {
            return;
        };
        let has_body = request
            .message
            .body
            .bytes()
            .is_some_and(|b| !b.iter().all(u8::is_ascii_whitespace));
        if !has_body {
            return;
        }
        let essence = request
            .media_type
            .as_ref()
            .map_or("", |m| m.essence.as_str());
        let (accepted, expected, severity, section): (&[&str], _, _, _) = match view.binding {
            Binding::JsonRpc => (
                &["application/json"],
                "`application/json`",
                Severity::Warning,
                "§9.1",
            ),
            Binding::HttpJson => (
                &["application/a2a+json", "application/json"],
                "`application/a2a+json` or `application/json`",
                Severity::Info,
                "§11.1",
            ),
            _ => return,
        };
        if accepted.contains(&essence) {
            return;
        }
        let label = request.media_type.as_ref().map_or_else(
            || request.start_line_label("no Content-Type"),
            |m| Label::at(m.span, format!("expected {expected}")),
        );
        let found = if essence.is_empty() {
            "no Content-Type".to_string()
        } else {
            format!("`{essence}`")
        };
        out.push(
            Finding::new(self.id(), label, format!("request body is sent with {found}; the binding uses {expected}"))
                .severity(severity)
                .help(format!("send {expected} (A2A {section}); servers may refuse other media types or misread the body")),
        );
    }
}
