//! `error-content-type`: an HTTP+JSON error whose media type is not what the profile asks.

use crate::finding::{Finding, Severity};
use crate::input::source::Label;
use crate::protocol::classify::{ErrorForm, ErrorView, ExchangeView};
use crate::protocol::profile::Profile;
use crate::rules::{Hooks, Rule, RuleId};

pub struct ErrorContentType;

impl Rule for ErrorContentType {
    fn id(&self) -> RuleId {
        RuleId::ErrorContentType
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
        let Some(response) = &view.response else {
            return;
        };
        if error.form != ErrorForm::Status || error.in_stream() {
            return;
        }
        let essence = response
            .media_type
            .as_ref()
            .map_or("", |m| m.essence.as_str());
        // problem+json is `problem-json-error`'s finding.
        if essence == "application/problem+json" {
            return;
        }
        let (fires, expected, severity) = match view.profile {
            // v1.0.1 §11.1: application/a2a+json SHOULD be used (PR #1753).
            Profile::Spec => (
                essence != "application/a2a+json",
                "`application/a2a+json` (spec v1.0.1 §11.1)",
                Severity::Info,
            ),
            // v1.0.0 §11.1 said application/json; both types are defensible there.
            Profile::Spec100 => return,
            // The test kit compares by substring and so rejects application/a2a+json.
            Profile::Tck => (
                !essence.contains("application/json"),
                "a type containing `application/json` (a2a-tck)",
                Severity::Warning,
            ),
        };
        if !fires {
            return;
        }
        let label = response.media_type.as_ref().map_or_else(
            || response.start_line_label("no Content-Type"),
            |m| Label::at(m.span, "error media type"),
        );
        let found = if essence.is_empty() {
            "no media type".to_string()
        } else {
            format!("`{essence}`")
        };
        out.push(
            Finding::new(self.id(), label, format!("HTTP+JSON error is sent as {found}; the {} profile expects {expected}", view.profile.name()))
                .severity(severity)
                .help(
                    "interop trade-off: spec v1.0.1 prefers application/a2a+json, but some clients (a2a-go, a C# client) \
                     only parse error bodies typed application/json; pick the profile that matches your peers",
                ),
        );
    }
}
