//! The entries of a HAR log found by their bytes, one after the other: each entry
//! object's span in the file, which placing findings needs (the HAR reader's JSON parser
//! gives no positions). Found by the reader of a log read ahead, which has time to spare,
//! and otherwise by the resolver as findings ask for them.

use crate::input::json_end::container_end;
use crate::input::json_span::{locate_key, locate_value};
use crate::input::source::Span;

/// Where a scan of `log.entries` is.
#[derive(Debug, Default)]
pub struct EntrySpans {
    started: bool,
    pos: usize,
    done: bool,
    /// Entries found (or stepped over) so far.
    found: usize,
}

impl EntrySpans {
    /// The span of the next entry in `har` (the whole file); `None` once there is none.
    /// `parsed`: the HAR reader parsed this entry, so it is valid JSON and its end is
    /// found quickly; past the entries it parsed, the scan checks what it steps over.
    pub fn next(&mut self, har: &[u8], parsed: bool) -> Option<Span> {
        if self.done {
            return None;
        }
        if !self.started {
            self.started = true;
            match entries_start(har) {
                Some(pos) => self.pos = pos,
                None => self.done = true,
            }
            return self.next(har, parsed);
        }
        let mut pos = skip_ws(har, self.pos);
        if self.found > 0 {
            if har.get(pos) != Some(&b',') {
                self.done = true;
                return None;
            }
            pos = skip_ws(har, pos + 1);
        }
        if har.get(pos) != Some(&b'{') {
            self.done = true;
            return None;
        }
        let end = match parsed {
            true => container_end(har, pos),
            false => locate_value(&har[pos..], "").map(|span| pos + span.end),
        };
        debug_assert!(
            !parsed || end == locate_value(&har[pos..], "").map(|span| pos + span.end),
            "a parsed entry's end found two ways"
        );
        let Some(end) = end else {
            self.done = true;
            return None;
        };
        self.found += 1;
        self.pos = end;
        Some(Span::new(pos, end))
    }

    /// The next entry is at `span`, as found by another scan of the same file: this one
    /// goes on after it.
    pub fn step_over(&mut self, span: Span) {
        self.started = true;
        self.found += 1;
        self.pos = span.end;
    }

    /// No entry is left to find.
    pub fn is_done(&self) -> bool {
        self.done
    }
}

/// Where the entries of `log.entries` start: just inside its `[`.
fn entries_start(har: &[u8]) -> Option<usize> {
    let skip = if har.starts_with(super::BOM) {
        super::BOM.len()
    } else {
        0
    };
    let json = &har[skip..];
    let key = locate_key(json, "/log/entries")?;
    let mut pos = skip_ws(json, key.end);
    if json.get(pos) != Some(&b':') {
        return None;
    }
    pos = skip_ws(json, pos + 1);
    (json.get(pos) == Some(&b'[')).then_some(skip + pos + 1)
}

/// The first byte at or after `pos` that is not JSON whitespace.
pub fn skip_ws(bytes: &[u8], mut pos: usize) -> usize {
    while bytes.get(pos).is_some_and(u8::is_ascii_whitespace) {
        pos += 1;
    }
    pos
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_each_entry_then_stops() {
        let har =
            b"\xEF\xBB\xBF{\"log\": {\"entries\": [ {\"a\": [1, {}]} ,{\"b\": \"}\"}], \"x\": 1}}";
        let text = |span: Span| String::from_utf8_lossy(&har[span.range()]).into_owned();
        for parsed in [true, false] {
            let mut spans = EntrySpans::default();
            assert_eq!(
                spans.next(har, parsed).map(text).as_deref(),
                Some("{\"a\": [1, {}]}")
            );
            assert_eq!(
                spans.next(har, parsed).map(text).as_deref(),
                Some("{\"b\": \"}\"}")
            );
            assert_eq!(spans.next(har, parsed), None);
            assert!(spans.is_done());
        }
        // Stepping over an entry found elsewhere goes on after it.
        let mut first = EntrySpans::default();
        let mut second = EntrySpans::default();
        second.step_over(first.next(har, true).unwrap());
        assert_eq!(second.next(har, true), first.next(har, true));
    }
}
