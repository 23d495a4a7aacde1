//! Byte spans into a capture, the line index that turns them into line and column, and
//! labels: a span with a note, which is how findings point into a capture.

use std::ops::Range;

use crate::input::capture::{Content, Side};

/// A half-open byte range `start..end` into one source.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Self {
        debug_assert!(start <= end, "span {start}..{end} is reversed");
        Span { start, end }
    }

    /// The span of `part`, a sub-slice of `whole`, measured from the start of `whole`.
    pub fn of_subslice(whole: &[u8], part: &[u8]) -> Self {
        let start = part.as_ptr() as usize - whole.as_ptr() as usize;
        Span::new(start, start + part.len())
    }

    pub fn len(self) -> usize {
        self.end - self.start
    }

    pub fn is_empty(self) -> bool {
        self.start == self.end
    }

    /// This span moved `by` bytes to the right.
    pub fn shift(self, by: usize) -> Self {
        Span::new(self.start + by, self.end + by)
    }

    pub fn range(self) -> Range<usize> {
        self.start..self.end
    }
}

/// A 1-based line and column; the column counts Unicode scalar values, as SARIF's
/// `unicodeCodePoints` column kind does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct LineCol {
    pub line: usize,
    pub column: usize,
}

/// Offsets of every line start of one source. Built only for sources that have findings,
/// so clean traffic never pays for it.
#[derive(Debug)]
pub struct LineIndex {
    starts: Vec<usize>,
    len: usize,
}

impl LineIndex {
    pub fn new(text: &[u8]) -> Self {
        let mut starts = Vec::with_capacity(text.len() / 40 + 1);
        starts.push(0);
        // A block's line feeds at once: capture lines are short (a header every few dozen
        // bytes), and a search from one line feed to the next stopped at each of them.
        super::byte_masks::scan(text, 0, [b'\n'], |at, [mut feeds]| {
            while feeds != 0 {
                starts.push(at + feeds.trailing_zeros() as usize + 1);
                feeds &= feeds - 1;
            }
            std::ops::ControlFlow::<()>::Continue(())
        });
        LineIndex {
            starts,
            len: text.len(),
        }
    }

    /// 0-based line number of the line holding `offset`.
    pub fn line_of(&self, offset: usize) -> usize {
        let offset = offset.min(self.len);
        match self.starts.binary_search(&offset) {
            Ok(line) => line,
            Err(next) => next - 1,
        }
    }

    /// Byte range of 0-based `line`, without its line terminator.
    pub fn line_range(&self, text: &[u8], line: usize) -> Range<usize> {
        let start = self.starts[line];
        let mut end = self.starts.get(line + 1).map_or(self.len, |next| next - 1);
        if end > start && text.get(end - 1) == Some(&b'\r') {
            end -= 1;
        }
        start..end
    }

    pub fn line_count(&self) -> usize {
        self.starts.len()
    }

    pub fn line_col(&self, text: &[u8], offset: usize) -> LineCol {
        let offset = offset.min(self.len);
        let line = self.line_of(offset);
        let start = self.starts[line];
        LineCol {
            line: line + 1,
            column: char_count(&text[start..offset]) + 1,
        }
    }

    /// [`LineIndex::line_col`] of both ends of `span`: an end on the start's line is
    /// counted on from the start rather than from the line's beginning again (JSON bodies
    /// are often one long line).
    pub fn span_line_cols(&self, text: &[u8], span: Span) -> (LineCol, LineCol) {
        let start = self.line_col(text, span.start);
        let (from, to) = (span.start.min(self.len), span.end.min(self.len));
        if to < from || self.line_of(to) + 1 != start.line {
            return (start, self.line_col(text, span.end));
        }
        let end = LineCol {
            line: start.line,
            column: start.column + char_count(&text[from..to]),
        };
        (start, end)
    }
}

/// Number of Unicode scalar values in `bytes`, counting each invalid byte as one.
pub fn char_count(bytes: &[u8]) -> usize {
    // Most text counted is ASCII, which is told a word at a time.
    if bytes.is_ascii() {
        return bytes.len();
    }
    bytes.iter().filter(|&&b| (b & 0xC0) != 0x80).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_counts_characters_not_bytes() {
        let text = "ab\r\nçé x\nlast".as_bytes();
        let index = LineIndex::new(text);
        assert_eq!(index.line_count(), 3);
        assert_eq!(index.line_col(text, 0), LineCol { line: 1, column: 1 });
        let x = text.iter().position(|&b| b == b'x').unwrap();
        assert_eq!(index.line_col(text, x), LineCol { line: 2, column: 4 });
        assert_eq!(index.line_range(text, 0), 0..2);
        assert_eq!(&text[index.line_range(text, 2)], b"last");
        assert_eq!(index.line_col(text, 999), LineCol { line: 3, column: 5 });
        for (start, end) in [(0, 2), (4, x), (x, 999), (1, 5), (0, 0), (5, 3)] {
            let span = Span { start, end };
            let both = (index.line_col(text, start), index.line_col(text, end));
            assert_eq!(index.span_line_cols(text, span), both, "{start}..{end}");
        }
    }

    /// Line feeds on and around the edges of the 64-byte blocks the index steps by.
    #[test]
    fn every_line_start_is_found_across_blocks() {
        for len in [0, 1, 63, 64, 65, 127, 128, 129, 200] {
            for every in [1, 2, 7, 63, 64, 65] {
                let text: Vec<u8> = (0..len)
                    .map(|i| if (i + 1) % every == 0 { b'\n' } else { b'x' })
                    .collect();
                let expected: Vec<usize> = std::iter::once(0)
                    .chain(
                        text.iter()
                            .enumerate()
                            .filter(|(_, b)| **b == b'\n')
                            .map(|(i, _)| i + 1),
                    )
                    .collect();
                assert_eq!(
                    LineIndex::new(&text).starts,
                    expected,
                    "{len} bytes, every {every}"
                );
            }
        }
    }
}

/// Which bytes a label points into.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// The capture file itself.
    File,
    /// The decoded body of one message, for bodies whose decoded bytes are not in the
    /// file (content codings); reports show them as a source of their own.
    DecodedBody { exchange: usize, side: Side },
}

/// A span with a short note about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    pub target: Target,
    pub span: Span,
    pub text: String,
    /// What the label points at, in words that survive edits to the capture: the JSON
    /// member (`response/error/code`), a header, a start line. Part of the fingerprint.
    pub member: Option<String>,
}

impl Label {
    /// A label on capture bytes.
    pub fn at(span: Span, text: impl Into<String>) -> Self {
        Label {
            target: Target::File,
            span,
            text: text.into(),
            member: None,
        }
    }

    /// The same label, naming what it points at (see [`Label::member`]).
    pub fn member(mut self, member: impl Into<String>) -> Self {
        self.member = Some(member.into());
        self
    }

    /// The same place with another text.
    pub fn retext(mut self, text: impl Into<String>) -> Self {
        self.text = text.into();
        self
    }

    /// A label on `span` of a message's decoded body; it points at the capture bytes when
    /// the body can be mapped back to them, and at the decoded body otherwise.
    pub fn in_body(
        exchange: usize,
        side: Side,
        content: &Content<'_>,
        span: Span,
        text: impl Into<String>,
    ) -> Self {
        let text = text.into();
        match content.capture_span(span) {
            Some(span) => Label::at(span, text),
            None => Label {
                target: Target::DecodedBody { exchange, side },
                span,
                text,
                member: None,
            },
        }
    }
}
