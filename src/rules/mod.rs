//! The third pipeline stage: rules read the capture and its views and report findings.
//! Each rule is a stateless unit in its own file; `id.rs` lists them all once.

mod body_not_json;
mod capture_syntax;
mod content_length_mismatch;
mod id;
mod undecodable_body;
mod unpaired_message;

pub use id::{Group, RuleId};

use crate::capture::ReadProblem;
use crate::classify::ExchangeView;
use crate::finding::Finding;

/// A check. Rules are stateless and shared across threads; a rule reports findings of
/// its own id only. Override whichever hook fits: the problems the reader met in the
/// bytes, or one exchange at a time.
pub trait Rule: Sync {
    fn id(&self) -> RuleId;

    fn check_problems(&self, _problems: &[ReadProblem], _out: &mut Vec<Finding>) {}

    fn check_exchange(&self, _view: &ExchangeView<'_, '_>, _out: &mut Vec<Finding>) {}
}

/// Every rule's implementation, in catalogue order.
pub fn all() -> &'static [&'static dyn Rule] {
    &[
        &capture_syntax::CaptureSyntax,
        &content_length_mismatch::ContentLengthMismatch,
        &unpaired_message::UnpairedMessage,
        &body_not_json::BodyNotJson,
        &undecodable_body::UndecodableBody,
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_id_has_exactly_one_implementation() {
        let implemented: Vec<RuleId> = all().iter().map(|rule| rule.id()).collect();
        assert_eq!(implemented, RuleId::ALL);
    }
}
