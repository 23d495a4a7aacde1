//! How findings about a HAR file are shown: the line and column of a HAR offset (long
//! one-line HARs counted once), and the windows, cut from the HAR file or from a body
//! shown as a source of its own, with the labels that share them.

use std::collections::BTreeMap;

use crate::input::source::Label;
use crate::input::source::{LineCol, LineIndex, Span, char_count};
use crate::output::resolve::har_map::{HarMap, LONG_LINE_REACH, Place, body_name};
use crate::output::resolve::har_text::Lines;
use crate::output::resolve::snippet::{Snippet, SourceText};
use crate::output::resolve::{Location, SAME_WINDOW_LINES};

impl HarMap<'_> {
    pub(super) fn lines(&self) -> &Lines {
        self.lines.as_ref().expect("built in place()")
    }

    pub(super) fn location(&mut self, label: &Label, place: &Place) -> Location {
        let (span, body) = match place {
            Place::Har(span) => (*span, None),
            Place::Body {
                entry,
                side,
                member,
                ..
            } => (*member, Some(body_name(*entry, *side))),
        };
        let start = self.line_col(span.start);
        // A span on one line ends as many characters on as it holds.
        let within = self
            .har
            .get(span.range())
            .filter(|bytes| !bytes.contains(&b'\n'));
        let end = match within {
            Some(bytes) => LineCol {
                line: start.line,
                column: start.column + char_count(bytes),
            },
            None => self.line_col(span.end),
        };
        Location {
            span,
            start,
            end,
            body,
            text: crate::output::resolve::mask_text(&label.text),
            frame: None,
        }
    }

    /// Line and column of a HAR offset. Far into a long line (a HAR written on one
    /// line), the column is counted from the nearest offset already counted on it, so
    /// findings along the line never count it from its start again.
    pub(super) fn line_col(&mut self, offset: usize) -> LineCol {
        let har = self.har;
        let lines = self.lines.as_ref().expect("built in place()");
        let offset = offset.min(har.len());
        let line = lines.line_of(har, offset);
        let start = lines.line_start(har, offset);
        let column = if offset - start <= LONG_LINE_REACH {
            char_count(&har[start..offset]) + 1
        } else {
            if self.columns.0 != line || self.columns.1.is_empty() {
                self.columns = (line, BTreeMap::from([(start, 1)]));
            }
            let marks = &mut self.columns.1;
            let (&from, &column) = marks.range(..=offset).next_back().expect("the line start");
            let column = column + char_count(&har[from..offset]);
            marks.insert(offset, column);
            column
        };
        LineCol {
            line: line + 1,
            column,
        }
    }

    /// Labels that share a window: same source, lines close together. Gives indices
    /// into `labels`.
    pub(super) fn group(&self, labels: &[(&Label, Place)]) -> Vec<Vec<usize>> {
        let line_of = |place: &Place| match place {
            Place::Har(span) => self.lines().line_of(self.har, span.start),
            Place::Body { bytes, span, .. } => {
                let body = &self.entry_text[bytes.clone()];
                memchr::memchr_iter(b'\n', &body[..span.start.min(body.len())]).count()
            }
        };
        let mut groups: Vec<Vec<usize>> = Vec::new();
        for (i, (_, place)) in labels.iter().enumerate() {
            let line = line_of(place);
            let near = groups.iter_mut().find(|group| {
                group.iter().all(|&other| {
                    let other = &labels[other].1;
                    other.same_source(place) && line_of(other).abs_diff(line) <= SAME_WINDOW_LINES
                })
            });
            match near {
                Some(group) => group.push(i),
                None => groups.push(vec![i]),
            }
        }
        groups
    }

    pub(super) fn snippet(&mut self, labels: &[(&Label, Place)], group: &[usize]) -> Snippet {
        let span_of = |place: &Place| match place {
            Place::Har(span) => *span,
            Place::Body { span, .. } => *span,
        };
        let spans: Vec<(Span, &str, bool)> = group
            .iter()
            .map(|&i| (span_of(&labels[i].1), labels[i].0.text.as_str(), i == 0))
            .collect();
        match &labels[group[0]].1 {
            Place::Har(_) => self.har_snippet(&spans),
            Place::Body {
                entry, side, bytes, ..
            } => {
                let body = &self.entry_text[bytes.clone()];
                SourceText {
                    name: format!("{}{}", self.path, body_name(*entry, *side)),
                    bytes: body,
                    index: &LineIndex::new(body),
                    hidden: &[],
                }
                .snippet(&spans)
            }
        }
    }

    /// A window of the HAR file. It is cut from a slice around the labels, so that a
    /// long line (a HAR written on one line) is never counted or indexed whole.
    fn har_snippet(&mut self, spans: &[(Span, &str, bool)]) -> Snippet {
        let (har, lines) = (self.har, self.lines());
        let first = spans.iter().map(|(s, ..)| s.start).min().unwrap_or(0);
        let last = spans
            .iter()
            .map(|(s, ..)| s.end)
            .max()
            .unwrap_or(0)
            .max(first);
        // Three lines around the labels, at most a little of each long line.
        let mut start = lines.line_start(har, first);
        for _ in 0..3 {
            if start == 0 || first - start > LONG_LINE_REACH {
                break;
            }
            start = lines.line_start(har, start - 1);
        }
        start = start.max(first.saturating_sub(LONG_LINE_REACH));
        let limit = (last + LONG_LINE_REACH).min(har.len());
        let mut end = last;
        for _ in 0..4 {
            match memchr::memchr(b'\n', &har[end..limit]) {
                Some(nl) => end += nl + 1,
                None => {
                    end = limit;
                    break;
                }
            }
        }
        // Cut on character boundaries.
        while start < first && har[start] & 0xC0 == 0x80 {
            start += 1;
        }
        while end < har.len() && end > last && har[end] & 0xC0 == 0x80 {
            end -= 1;
        }
        let first_line = lines.line_of(har, start);
        let mut secrets = Vec::new();
        self.secrets_in(start..end, &mut secrets);
        let bytes = &har[start..end];
        let into = |s: Span| {
            let clamp = |at: usize| at.clamp(start, end) - start;
            Span::new(clamp(s.start), clamp(s.end))
        };
        let shifted: Vec<(Span, &str, bool)> = (spans.iter())
            .map(|&(span, text, primary)| (into(span), text, primary))
            .collect();
        let hidden: Vec<Span> = (secrets.iter())
            .filter(|s| s.start < end && s.end > start)
            .map(|&s| into(s))
            .collect();
        let mut snippet = SourceText {
            name: self.path.to_string(),
            bytes,
            index: &LineIndex::new(bytes),
            hidden: &hidden,
        }
        .snippet(&shifted);
        snippet.first_line += first_line;
        let heading = self.line_col(spans[0].0.start.min(har.len()));
        (snippet.line, snippet.column) = (heading.line, heading.column);
        snippet
    }
}
