//! Cuts a small window of lines around labelled spans, so reporters never hold or render
//! a whole capture. Long lines are clipped, credentials masked and control bytes
//! neutralised; label spans are translated into the window's own offsets.

use std::ops::Range;

use crate::input::source::{LineIndex, Span};
use crate::output::resolve::mask::masked_ranges;

/// Lines of context shown before and after the labelled lines.
const CONTEXT_LINES: usize = 2;
/// A label spanning more lines than this is cut short.
const MAX_LABEL_LINES: usize = 6;
/// Lines longer than this many bytes are clipped around the label.
const MAX_LINE_BYTES: usize = 160;
/// How far before a label a clipped line starts.
const LEAD_BYTES: usize = 48;

/// A window of lines from one source with labels in window coordinates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snippet {
    /// What the window is shown as: the file path, or the name of a decoded body.
    pub name: String,
    /// 0-based number of the window's first line in its source.
    pub first_line: usize,
    /// 1-based line and column of the first label, for the window's heading.
    pub line: usize,
    pub column: usize,
    pub text: String,
    pub labels: Vec<SnippetLabel>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SnippetLabel {
    pub range: Range<usize>,
    pub text: String,
    pub primary: bool,
}

/// One source's bytes with what is needed to cut windows from it.
pub struct SourceText<'a> {
    pub name: String,
    pub bytes: &'a [u8],
    pub index: &'a LineIndex,
    /// Bytes shown as `*` wherever they are, beside the values of credential header
    /// lines: the credential values of a HAR file.
    pub hidden: &'a [Span],
}

/// A line of the window: which source bytes it shows and where they start in the text.
struct Piece {
    shown: Range<usize>,
    /// Bytes never shown: the value of a credential header on this line, and any
    /// hidden bytes on it.
    masked: Vec<Range<usize>>,
    text_start: usize,
    prefix_len: usize,
}

impl SourceText<'_> {
    /// Builds a window holding every `(span, text, primary)` label; the first one names
    /// the heading position.
    pub fn snippet(&self, labels: &[(Span, &str, bool)]) -> Snippet {
        let clamped: Vec<Span> = labels.iter().map(|(span, ..)| self.clamp(*span)).collect();
        let first_line = clamped
            .iter()
            .map(|s| self.index.line_of(s.start))
            .min()
            .unwrap_or(0)
            .saturating_sub(CONTEXT_LINES);
        let last_line = clamped
            .iter()
            .map(|s| self.index.line_of(s.end.max(s.start + 1) - 1))
            .max()
            .unwrap_or(0)
            .saturating_add(CONTEXT_LINES)
            .min(self.last_line())
            .max(first_line);

        // Credentials are found over the whole window (and a few lines before it), so a
        // member whose value sits on the next line is masked too.
        let scan_start = self
            .index
            .line_range(self.bytes, first_line.saturating_sub(3))
            .start;
        let scan_end = self.index.line_range(self.bytes, last_line).end;
        let window_secrets: Vec<Range<usize>> =
            crate::input::secrets::find_in_text(&self.bytes[scan_start..scan_end])
                .into_iter()
                .map(|r| scan_start + r.start..scan_start + r.end)
                .collect();

        let mut text = String::new();
        let mut pieces = Vec::new();
        for line in first_line..=last_line {
            if line > first_line {
                text.push('\n');
            }
            let range = self.index.line_range(self.bytes, line);
            let focus = clamped
                .iter()
                .find(|s| range.contains(&s.start))
                .map_or(range.start, |s| s.start);
            let shown = self.clip(range.clone(), focus);
            let mut masked: Vec<Range<usize>> = masked_ranges(&self.bytes[range.clone()])
                .into_iter()
                .map(|r| range.start + r.start..range.start + r.end)
                .collect();
            masked.extend(
                window_secrets
                    .iter()
                    .filter(|h| h.start < range.end && h.end > range.start)
                    .map(|h| h.start.max(range.start)..h.end.min(range.end)),
            );
            masked.extend(
                self.hidden
                    .iter()
                    .filter(|h| h.start < range.end && h.end > range.start)
                    .map(|h| h.start.max(range.start)..h.end.min(range.end)),
            );
            let prefix = if shown.start > range.start { "…" } else { "" };
            let text_start = text.len();
            text.push_str(prefix);
            text.push_str(&self.display(shown.clone(), &masked));
            if shown.end < range.end {
                text.push('…');
            }
            pieces.push(Piece {
                shown,
                masked,
                text_start,
                prefix_len: prefix.len(),
            });
        }

        let translate = |offset: usize| {
            let line = self.index.line_of(offset).clamp(first_line, last_line);
            let piece = &pieces[line - first_line];
            let inside = offset.clamp(piece.shown.start, piece.shown.end);
            let inside = self.char_start(inside).max(piece.shown.start);
            piece.text_start
                + piece.prefix_len
                + self.display(piece.shown.start..inside, &piece.masked).len()
        };
        let labels = labels
            .iter()
            .zip(&clamped)
            .map(|((_, label, primary), span)| {
                let start = translate(span.start);
                SnippetLabel {
                    range: start..translate(span.end).max(start),
                    text: super::mask_text(label),
                    primary: *primary,
                }
            })
            .collect();
        let position = self
            .index
            .line_col(self.bytes, clamped.first().map_or(0, |s| s.start));
        Snippet {
            name: self.name.clone(),
            first_line,
            line: position.line,
            column: position.column,
            text,
            labels,
        }
    }

    /// The last line worth showing: the empty line after a final line end is not.
    fn last_line(&self) -> usize {
        let last = self.index.line_count() - 1;
        if last > 0 && self.bytes.ends_with(b"\n") {
            last - 1
        } else {
            last
        }
    }

    /// Keeps a span inside the source and shortens spans that run over many lines.
    fn clamp(&self, span: Span) -> Span {
        let len = self.bytes.len();
        let start = span.start.min(len);
        let mut end = span.end.clamp(start, len);
        let first = self.index.line_of(start);
        if self.index.line_of(end) > first + MAX_LABEL_LINES {
            end = self
                .index
                .line_range(self.bytes, first + MAX_LABEL_LINES)
                .end;
        }
        Span::new(start, end)
    }

    /// The part of a long line worth showing: from a little before `focus`.
    fn clip(&self, line: Range<usize>, focus: usize) -> Range<usize> {
        if line.len() <= MAX_LINE_BYTES {
            return line;
        }
        let start = self.char_start(focus.saturating_sub(LEAD_BYTES).max(line.start));
        let end = self.char_start((start + MAX_LINE_BYTES).min(line.end));
        start..end
    }

    /// `offset` moved back to the start of the UTF-8 sequence it falls in.
    fn char_start(&self, mut offset: usize) -> usize {
        let mut steps = 0;
        while offset > 0
            && offset < self.bytes.len()
            && steps < 3
            && (self.bytes[offset] & 0xC0) == 0x80
        {
            offset -= 1;
            steps += 1;
        }
        offset
    }

    /// Source bytes as display text: masked bytes become `*`, control characters and
    /// invalid UTF-8 become U+FFFD, so nothing in a capture can drive the terminal.
    fn display(&self, range: Range<usize>, masked: &[Range<usize>]) -> String {
        let mut out = String::with_capacity(range.len());
        let mut at = range.start;
        while at < range.end {
            if masked.iter().any(|m| m.contains(&at)) {
                out.push('*');
                at += 1;
                continue;
            }
            // Printable ASCII (and tab) is shown as it is: what the general case below
            // does with it, without decoding.
            let byte = self.bytes[at];
            if (0x20..0x7f).contains(&byte) || byte == b'\t' {
                out.push(char::from(byte));
                at += 1;
                continue;
            }
            let width = utf8_width(byte).min(range.end - at);
            match std::str::from_utf8(&self.bytes[at..at + width])
                .ok()
                .and_then(|s| s.chars().next())
            {
                Some(c) if !c.is_control() || c == '\t' => {
                    out.push(c);
                    at += width;
                }
                _ => {
                    out.push('\u{FFFD}');
                    at += 1;
                }
            }
        }
        out
    }
}

fn utf8_width(first: u8) -> usize {
    match first {
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF7 => 4,
        _ => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn source<'a>(bytes: &'a [u8], index: &'a LineIndex) -> SourceText<'a> {
        SourceText {
            name: "x.http".into(),
            bytes,
            index,
            hidden: &[],
        }
    }

    #[test]
    fn window_holds_context_lines_and_translated_labels() {
        let bytes = b"l1\nl2\nl3\nTARGET here\nl5\nl6\nl7\n";
        let index = LineIndex::new(bytes);
        let at = bytes.windows(6).position(|w| w == b"TARGET").unwrap();
        let snippet = source(bytes, &index).snippet(&[(Span::new(at, at + 6), "here", true)]);
        assert_eq!(snippet.text, "l2\nl3\nTARGET here\nl5\nl6");
        assert_eq!(snippet.first_line, 1);
        assert_eq!((snippet.line, snippet.column), (4, 1));
        assert_eq!(&snippet.text[snippet.labels[0].range.clone()], "TARGET");
    }

    #[test]
    fn long_lines_are_clipped_around_the_label() {
        let mut bytes = vec![b'a'; 5000];
        bytes[3000..3003].copy_from_slice(b"XYZ");
        let index = LineIndex::new(&bytes);
        let snippet = source(&bytes, &index).snippet(&[(Span::new(3000, 3003), "", true)]);
        assert!(snippet.text.len() < MAX_LINE_BYTES + 10);
        assert!(snippet.text.starts_with('…') && snippet.text.ends_with('…'));
        assert_eq!(&snippet.text[snippet.labels[0].range.clone()], "XYZ");
        assert_eq!(snippet.column, 3001);
    }

    #[test]
    fn masks_credentials_and_neutralises_control_bytes() {
        let bytes = b"Authorization: Bearer abc\n\x1b[31mred \xc3\xa9\xff\n";
        let index = LineIndex::new(bytes);
        let snippet = source(bytes, &index).snippet(&[(Span::new(0, 13), "", true)]);
        assert_eq!(
            snippet.text,
            "Authorization: **********\n\u{FFFD}[31mred é\u{FFFD}"
        );
    }

    #[test]
    fn hidden_bytes_are_masked_wherever_they_are() {
        let bytes = br#"{"name": "Authorization", "value": "Bearer abc"}, {"value": "x"}"#;
        let index = LineIndex::new(bytes);
        let secret = bytes.windows(10).position(|w| w == b"Bearer abc").unwrap();
        let text = SourceText {
            hidden: &[Span::new(secret, secret + 10)],
            ..source(bytes, &index)
        };
        let x = bytes.len() - 3;
        let snippet = text.snippet(&[(Span::new(x, x + 1), "", true)]);
        assert_eq!(
            snippet.text,
            r#"{"name": "Authorization", "value": "**********"}, {"value": "x"}"#
        );
        assert_eq!(&snippet.text[snippet.labels[0].range.clone()], "x");
    }

    #[test]
    fn spans_past_the_end_are_clamped() {
        let bytes = b"short";
        let index = LineIndex::new(bytes);
        let snippet = source(bytes, &index).snippet(&[(Span::new(3, 99), "", true)]);
        assert_eq!(&snippet.text[snippet.labels[0].range.clone()], "rt");
    }
}
