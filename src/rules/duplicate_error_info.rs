//! `duplicate-error-info`: more than one ErrorInfo in one error.

use crate::finding::Finding;
use crate::protocol::classify::{ErrorView, ExchangeView};
use crate::rules::{Hooks, Rule, RuleId};

pub struct DuplicateErrorInfo;

impl Rule for DuplicateErrorInfo {
    fn id(&self) -> RuleId {
        RuleId::DuplicateErrorInfo
    }

    fn hooks(&self) -> Hooks {
        Hooks::ERROR
    }

    fn check_error(
        &self,
        _view: &ExchangeView<'_, '_>,
        error: &ErrorView<'_>,
        out: &mut Vec<Finding>,
    ) {
        // Most errors carry at most one: the rest are gathered only for a finding.
        if error.infos().nth(1).is_none() {
            return;
        }
        let infos: Vec<_> = error.infos().collect();
        let [first, second, ..] = infos.as_slice() else {
            return;
        };
        let reasons: Vec<&str> = infos.iter().map(|i| i.reason.unwrap_or("<none>")).collect();
        out.push(
            Finding::new(
                self.id(),
                error.label(&second.pointer.to_string(), "another ErrorInfo"),
                format!("error carries {} ErrorInfo details (reasons {})", infos.len(), reasons.join(", ")),
            )
            .related(error.label(&first.pointer.to_string(), "first ErrorInfo"))
            .help("send exactly one ErrorInfo (AIP-193): clients read the first one they find, and SDKs disagree on which that is"),
        );
    }
}
