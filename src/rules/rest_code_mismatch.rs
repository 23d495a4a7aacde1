//! `rest-code-mismatch`: an HTTP+JSON `error.code` that differs from the status line.

use crate::finding::Finding;
use crate::protocol::classify::{ErrorForm, ErrorView, ExchangeView};
use crate::rules::{Hooks, Rule, RuleId};

pub struct RestCodeMismatch;

impl Rule for RestCodeMismatch {
    fn id(&self) -> RuleId {
        RuleId::RestCodeMismatch
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
        let Some(code) = error.code().filter(|&c| c != i64::from(error.http_status)) else {
            return;
        };
        let note = if code < 0 { " (a JSON-RPC code)" } else { "" };
        out.push(
            Finding::new(
                self.id(),
                error.label("/error/code", format!("expected {}", error.http_status)),
                format!(
                    "error.code is {code}{note} but the HTTP status is {}",
                    error.http_status
                ),
            )
            .related(response.start_line_label("status line"))
            .help("in the HTTP+JSON binding `error.code` repeats the HTTP status (A2A §11.6)"),
        );
    }
}
