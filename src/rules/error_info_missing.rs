//! `error-info-missing`: an A2A error with no `google.rpc.ErrorInfo` detail.

use crate::finding::{Finding, Severity};
use crate::protocol::classify::{ErrorForm, ErrorView, ExchangeView};
use crate::rules::{Hooks, Rule, RuleId};

pub struct ErrorInfoMissing;

impl Rule for ErrorInfoMissing {
    fn id(&self) -> RuleId {
        RuleId::ErrorInfoMissing
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
        if !error.is_a2a_error() || error.infos().next().is_some() || error.details_unreadable() {
            return;
        }
        let member = error.details_member;
        let label = if error.error.contains_key(member) {
            error.key_label(&format!("/error/{member}"), "no ErrorInfo here")
        } else if error.form == ErrorForm::Grpc {
            error.label("/error/details", "no ErrorInfo in the status")
        } else {
            error.key_label("/error", format!("no `{member}` with an ErrorInfo"))
        };
        // ErrorInfo is a MUST over HTTP+JSON in every 1.0 text; over JSON-RPC spec v1.0.1
        // relaxed it to SHOULD (PR #1627), v1.0.0 and the test kit keep the MUST.
        let severity = match (error.form, view.profile.uses_v1_0_0_table()) {
            (ErrorForm::JsonRpc, false) => Severity::Warning,
            _ => Severity::Error,
        };
        let reason = error.a2a_error().map_or("<REASON>", |e| e.reason.as_str());
        let named = error
            .a2a_error()
            .map_or_else(|| "A2A error".to_string(), |e| e.name.clone());
        let place = error.details_place();
        let (to, sections) = match error.form {
            ErrorForm::Grpc => (
                "the google.rpc.Status in `grpc-status-details-bin`",
                "A2A §10.6",
            ),
            _ => (place, "A2A §9.5, §11.6"),
        };
        out.push(
            Finding::new(
                self.id(),
                label,
                format!(
                    "{named} carries no google.rpc.ErrorInfo in {place}: seven A2A errors share HTTP 400 \
                     and six share FAILED_PRECONDITION, so the reason is the only thing that tells them apart"
                ),
            )
            .severity(severity)
            .help(format!(
                "add {{\"@type\": \"type.googleapis.com/google.rpc.ErrorInfo\", \"reason\": \"{reason}\", \
                 \"domain\": \"a2a-protocol.org\"}} to {to} ({sections})"
            )),
        );
    }
}
