//! `problem-json-error`: an error sent as RFC 9457 problem details, the v1.0.0-rc format.

use crate::classify::{ExchangeView, problem_members};
use crate::finding::Finding;
use crate::rules::{Rule, RuleId};

pub struct ProblemJsonError;

impl Rule for ProblemJsonError {
    fn id(&self) -> RuleId {
        RuleId::ProblemJsonError
    }

    fn check_exchange(&self, view: &ExchangeView<'_, '_>, out: &mut Vec<Finding>) {
        let (true, Some(status), Some(response)) =
            (view.is_a2a_operation(), view.error_status(), &view.response)
        else {
            return;
        };
        let media_type = response
            .media_type
            .as_ref()
            .filter(|m| m.essence == "application/problem+json");
        let members = response
            .json
            .value()
            .map(problem_members)
            .unwrap_or_default();
        let label = match (media_type, members.first()) {
            (Some(media_type), _) => crate::finding::Label::at(media_type.span, "problem+json"),
            (None, Some(first)) => response.key_label(&format!("/{first}"), "RFC 9457 member"),
            (None, None) => return,
        };
        let what = if members.is_empty() {
            "is sent as `application/problem+json`".to_string()
        } else {
            format!("is an RFC 9457 problem document ({})", members.join(", "))
        };
        out.push(
            Finding::new(self.id(), label, format!("HTTP {status} error {what}, the v1.0.0-rc format"))
                .help(
                    "A2A 1.0 errors are google.rpc.Status bodies with an ErrorInfo (§11.6, PR #1600). The §6.4 and §6.5 \
                     samples of the spec still show problem+json; PRs #1641 and #1689 are open to replace them",
                ),
        );
    }
}
