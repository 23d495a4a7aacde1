//! `error-info-reason`: an ErrorInfo reason that is not UPPER_SNAKE_CASE, or not a known
//! reason in the A2A domain; suggests the nearest known one.

use crate::finding::Finding;
use crate::finding::suggest::nearest_reason;
use crate::protocol::classify::{ErrorView, ExchangeView};
use crate::protocol::table::table;
use crate::rules::{Hooks, Rule, RuleId};

pub struct ErrorInfoReason;

impl Rule for ErrorInfoReason {
    fn id(&self) -> RuleId {
        RuleId::ErrorInfoReason
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
        for info in error.infos() {
            let Some(reason) = info.reason else {
                out.push(
                    Finding::new(
                        self.id(),
                        error.opening_label(&info.pointer.to_string(), "no `reason`"),
                        "ErrorInfo has no `reason`",
                    )
                    .help("the reason names the error, for example \"TASK_NOT_FOUND\" (A2A §11.6)"),
                );
                continue;
            };
            let in_a2a_domain = info.domain == Some(table().domain.as_str());
            let problem = if !is_upper_snake(reason) {
                "is not UPPER_SNAKE_CASE ([A-Z][A-Z0-9_]+[A-Z0-9], at most 63 characters)"
            } else if in_a2a_domain
                && table().by_reason(reason).is_none()
                && !table().known_reasons().any(|r| r == reason)
            {
                "is not a reason A2A defines"
            } else {
                continue;
            };
            let suggestion = nearest_reason(reason);
            let label_text = suggestion.map_or_else(
                || "unknown reason".to_string(),
                |s| format!("did you mean \"{s}\"?"),
            );
            let help = match suggestion {
                Some(s) => format!("use \"{s}\"; reasons are the error name in UPPER_SNAKE_CASE without `Error` (A2A §10.6, §11.6)"),
                None => "reasons are the error name in UPPER_SNAKE_CASE without `Error`, such as TASK_NOT_FOUND (A2A §10.6, §11.6)".into(),
            };
            out.push(
                Finding::new(
                    self.id(),
                    error.label(&format!("{}/reason", info.pointer), label_text),
                    format!("ErrorInfo.reason \"{reason}\" {problem}"),
                )
                .help(help),
            );
        }
    }
}

/// AIP-193's reason format: `[A-Z][A-Z0-9_]+[A-Z0-9]`, at most 63 characters.
fn is_upper_snake(reason: &str) -> bool {
    let bytes = reason.as_bytes();
    bytes.len() >= 3
        && bytes.len() <= 63
        && bytes[0].is_ascii_uppercase()
        && bytes
            .iter()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || *b == b'_')
        && bytes[bytes.len() - 1] != b'_'
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn upper_snake_case() {
        assert!(is_upper_snake("TASK_NOT_FOUND"));
        assert!(is_upper_snake("E42"));
        assert!(!is_upper_snake("TaskNotFound"));
        assert!(!is_upper_snake("TASK_"));
        assert!(!is_upper_snake("_TASK"));
        assert!(!is_upper_snake(&"A".repeat(64)));
    }
}
