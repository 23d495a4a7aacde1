//! `problem-json-error`: an error sent as RFC 9457 problem details, the v1.0.0-rc format.

use serde_json::Value;

use crate::finding::Finding;
use crate::protocol::classify::{ExchangeView, problem_members};
use crate::rules::{Hooks, Rule, RuleId};

pub struct ProblemJsonError;

impl Rule for ProblemJsonError {
    fn id(&self) -> RuleId {
        RuleId::ProblemJsonError
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
            (Some(media_type), _) => {
                crate::input::source::Label::at(media_type.span, "problem+json")
            }
            (None, Some(first)) => response.key_label(&format!("/{first}"), "RFC 9457 member"),
            (None, None) => return,
        };
        // A Status body under the problem+json label is right but for its media type,
        // which is all that is left of the release-candidate format.
        let status_body = response
            .json
            .value()
            .is_some_and(|b| b.get("error").is_some_and(Value::is_object));
        let what = match (members.is_empty(), status_body) {
            (true, true) => "is a google.rpc.Status labelled `application/problem+json`, the media type of the v1.0.0-rc format".to_string(),
            (true, false) => "is sent as `application/problem+json`, the v1.0.0-rc format".to_string(),
            (false, _) => format!("is an RFC 9457 problem document ({}), the v1.0.0-rc format", members.join(", ")),
        };
        out.push(
            Finding::new(self.id(), label, format!("HTTP {status} error {what}"))
                .help(
                    "A2A 1.0 errors are google.rpc.Status bodies with an ErrorInfo (§11.6, PR #1600). The §6.4 and §6.5 \
                     samples of the spec still show problem+json; PRs #1641 and #1689 are open to replace them",
                ),
        );
    }
}
