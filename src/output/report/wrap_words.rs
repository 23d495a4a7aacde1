//! The word separator the human format wraps text with: textwrap's Unicode line breaking,
//! remembered per distinct line.
//!
//! miette wraps every message, help and label with Unicode line-break rules, and finding
//! those break opportunities was a third of a human-format run. The same lines come back
//! finding after finding (help texts, labels, `see a2alint explain ...`), so the places
//! where a line splits into words are worked out once and the words cut again from them:
//! the words, and so the output, are the ones textwrap's own separator gives.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use textwrap::WordSeparator;
use textwrap::core::Word;

/// Distinct lines remembered; past this the memory is dropped and starts again, so a run
/// with ever new messages keeps a bounded table.
const KEPT_LINES: usize = 4096;

/// [`WordSeparator::UnicodeBreakProperties`], remembered.
pub(super) const SEPARATOR: WordSeparator = WordSeparator::Custom(find_words);

thread_local! {
    /// For each line seen: where each of its words starts, in order.
    static STARTS: RefCell<HashMap<String, Rc<[usize]>>> = RefCell::new(HashMap::new());
}

fn find_words(line: &str) -> Box<dyn Iterator<Item = Word<'_>> + '_> {
    let known = STARTS.with_borrow(|starts| starts.get(line).cloned());
    let starts = known.unwrap_or_else(|| {
        let starts = word_starts(line);
        STARTS.with_borrow_mut(|known| {
            if known.len() >= KEPT_LINES {
                known.clear();
            }
            known.insert(line.to_string(), starts.clone());
        });
        starts
    });
    Box::new((0..starts.len()).map(move |i| {
        let end = starts.get(i + 1).copied().unwrap_or(line.len());
        Word::from(&line[starts[i]..end])
    }))
}

/// Where textwrap's Unicode separator starts each word of `line`. Its words are pieces of
/// the line, one after another, each from where the last ended.
fn word_starts(line: &str) -> Rc<[usize]> {
    let base = line.as_ptr() as usize;
    (WordSeparator::UnicodeBreakProperties.find_words(line))
        .map(|word| word.word.as_ptr() as usize - base)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_textwraps_own() {
        for line in [
            "",
            "one",
            "  leading and trailing  ",
            "a2alint explain error-info-missing: see `a2alint explain x` (RFC 9457 §3.1)",
            "https://example.com/a/b?c=d e-f g/h \"quoted\" and ünïcödé 漢字かな — dash",
            "\u{1b}[31mred\u{1b}[0m text",
        ] {
            let ours: Vec<Word<'_>> = find_words(line).collect();
            let again: Vec<Word<'_>> = find_words(line).collect();
            let theirs: Vec<Word<'_>> = WordSeparator::UnicodeBreakProperties
                .find_words(line)
                .collect();
            assert_eq!(ours, theirs, "{line:?}");
            assert_eq!(again, theirs, "{line:?}");
        }
    }
}
