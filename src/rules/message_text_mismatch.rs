//! `message-text-mismatch`: an error message that reads as a different A2A error than its
//! code or reason says.

use crate::protocol::classify::{ErrorForm, ErrorView, ExchangeView};
use crate::protocol::table::{A2aError, Known, table};
use crate::rules::finding::Finding;
use crate::rules::{Rule, RuleId};

pub struct MessageTextMismatch;

impl Rule for MessageTextMismatch {
    fn id(&self) -> RuleId {
        RuleId::MessageTextMismatch
    }

    fn check_error(
        &self,
        _view: &ExchangeView<'_, '_>,
        error: &ErrorView<'_>,
        out: &mut Vec<Finding>,
    ) {
        let Some(message) = error.message() else {
            return;
        };
        // What the code and every ErrorInfo reason name; the text may match any of them
        // (a code and reason that disagree are `reason-code-mismatch`).
        let by_code = error
            .code()
            .filter(|_| error.form == ErrorForm::JsonRpc)
            .and_then(|c| table().by_code(c));
        let by_reason = error
            .infos()
            .into_iter()
            .filter_map(|i| i.reason.and_then(|r| table().by_reason(r)));
        let named: Vec<Known> = by_code.into_iter().chain(by_reason).collect();
        let Some(&first) = named.first() else {
            return;
        };
        let text = message.to_lowercase();
        let reads_as_named = named
            .iter()
            .any(|k| matches!(k, Known::A2a(e) if reads_as(e, &text)));
        let Some(other) = table().a2a.iter().find(|e| reads_as(e, &text)) else {
            return;
        };
        if reads_as_named || named.iter().any(|k| k.jsonrpc() == other.jsonrpc) {
            return;
        }
        out.push(
            Finding::new(
                self.id(),
                error.label("/error/message", format!("reads as {}", other.name)),
                format!("error message \"{message}\" reads as {} but the error is {}", other.name, first.name()),
            )
            .help("make the text describe the error the code and reason name; people read it, and naive clients match on it"),
        );
    }
}

fn reads_as(error: &A2aError, text: &str) -> bool {
    error
        .texts
        .iter()
        .any(|phrase| text.contains(phrase.as_str()))
}
