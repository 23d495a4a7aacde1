//! `message-text-mismatch`: an error message that reads as a different A2A error than its
//! code or reason says.

use crate::finding::Finding;
use crate::protocol::classify::{ErrorForm, ErrorView, ExchangeView};
use crate::protocol::table::{Known, table};
use crate::rules::{Hooks, Rule, RuleId};

pub struct MessageTextMismatch;

impl Rule for MessageTextMismatch {
    fn id(&self) -> RuleId {
        RuleId::MessageTextMismatch
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
            .filter_map(|i| i.reason.and_then(|r| table().by_reason(r)));
        let named: Vec<Known> = by_code.into_iter().chain(by_reason).collect();
        let Some(&first) = named.first() else {
            return;
        };
        // The phrases are lower-case ASCII and matched ignoring ASCII case, so only a
        // message beyond ASCII (whose lower case may differ in more than ASCII letters)
        // is lowered first.
        let text = match message.is_ascii() {
            true => std::borrow::Cow::Borrowed(message),
            false => std::borrow::Cow::Owned(message.to_lowercase()),
        };
        let read = read_as(&text);
        let reads_as_named = named.iter().any(|k| {
            matches!(k, Known::A2a(e) if read.iter().any(|&i| std::ptr::eq(&table().a2a[i], *e)))
        });
        let Some(&first_read) = read.first() else {
            return;
        };
        let other = &table().a2a[first_read];
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

/// Every phrase of the table's errors in one automaton, with the error each belongs to:
/// the rule runs on every error answer, and one pass over its text replaces a substring
/// search per phrase of every error.
static PHRASES: std::sync::LazyLock<(aho_corasick::AhoCorasick, Vec<usize>)> =
    std::sync::LazyLock::new(|| {
        let errors = &table().a2a;
        let phrases = errors.iter().flat_map(|e| &e.texts);
        let owners = (errors.iter().enumerate())
            .flat_map(|(i, e)| e.texts.iter().map(move |_| i))
            .collect();
        let automaton = aho_corasick::AhoCorasick::builder()
            .ascii_case_insensitive(true)
            .build(phrases)
            .expect("the error table's phrases build");
        (automaton, owners)
    });

/// The errors of the table `text` reads as (holds one of their phrases), as indices in
/// ascending order. One pass of the automaton answers both which error the text reads
/// as first and whether it reads as one the code or reason names.
fn read_as(text: &str) -> Vec<usize> {
    let (automaton, owners) = &*PHRASES;
    let mut read: Vec<usize> = (automaton.find_overlapping_iter(text))
        .map(|found| owners[found.pattern().as_usize()])
        .collect();
    read.sort_unstable();
    read.dedup();
    read
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::table::A2aError;

    fn reads_as(error: &A2aError, text: &str) -> bool {
        error
            .texts
            .iter()
            .any(|phrase| text.contains(phrase.as_str()))
    }

    /// The automaton finds what a search phrase by phrase, error by error, finds.
    #[test]
    fn reads_as_the_errors_holding_a_phrase() {
        let errors = &table().a2a;
        let mut texts: Vec<String> = errors.iter().flat_map(|e| e.texts.clone()).collect();
        texts.extend(
            [
                "",
                "no phrase here",
                "the task was not found, and it is not cancelable",
            ]
            .map(String::from),
        );
        texts.push(texts.join(" / "));
        for text in &texts {
            let by_phrase: Vec<usize> = (0..errors.len())
                .filter(|&i| reads_as(&errors[i], text))
                .collect();
            assert_eq!(read_as(text), by_phrase, "{text}");
            // Matching ignores ASCII case, as matching the lowered text would.
            assert_eq!(read_as(&text.to_uppercase()), by_phrase, "{text}");
        }
        // ...which holds only while every phrase is lower-case ASCII.
        for phrase in errors.iter().flat_map(|e| &e.texts) {
            assert!(
                phrase.is_ascii() && *phrase == phrase.to_lowercase(),
                "{phrase}"
            );
        }
    }
}
