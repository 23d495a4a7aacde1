//! `http-status-mismatch`: an HTTP+JSON A2A error whose HTTP status is not the profile's
//! status for its reason (A2A §5.4).

use crate::finding::Finding;
use crate::protocol::classify::{ErrorForm, ErrorView, ExchangeView};
use crate::rules::{Hooks, Rule, RuleId};

pub struct HttpStatusMismatch;

impl Rule for HttpStatusMismatch {
    fn id(&self) -> RuleId {
        RuleId::HttpStatusMismatch
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
        if error.form != ErrorForm::Status {
            return;
        }
        let Some((info, a2a)) = error.a2a_reason() else {
            return;
        };
        let profile = view.profile;
        let expected = a2a.http(profile);
        let actual = error.http_status;
        if actual == expected {
            return;
        }
        let other = profile.other_table_note(actual, a2a.other_http(profile), expected, "mapping");
        out.push(
            Finding::new(
                self.id(),
                // In a stream the status line says 200; the event's `error.code` stands for it.
                if error.in_stream() {
                    error.label("/error/code", format!("expected {expected}"))
                } else {
                    response.start_line_label(format!("expected {expected}"))
                },
                format!("{} is sent with HTTP {actual}, expected {expected} under {}{other}", a2a.reason, profile.table_name()),
            )
            .related(error.label(&format!("{}/reason", info.pointer), "the reason"))
            .help(format!(
                "A2A §5.4 maps {} to HTTP {expected}; `--profile` selects the table (spec = v1.0.1, spec-1.0.0, tck)",
                a2a.name
            )),
        );
    }
}
