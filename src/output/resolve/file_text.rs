//! Resolving in a text: the `.http` capture file, or the text view of a wire exchange.
//! Labels become line-and-column locations there, close ones share a window, and a label
//! in a decoded body is shown in that body.

use crate::finding::Finding;
use crate::input::capture::{Exchange, Side};
use crate::input::source::{Label, Target};
use crate::input::source::{LineIndex, Span};
use crate::output::resolve::snippet::{Snippet, SourceText};
use crate::output::resolve::{Location, SAME_WINDOW_LINES, mask_text};

/// The capture file being resolved (or the text view of a wire exchange).
pub(super) struct FileText<'a> {
    pub(super) path: &'a str,
    pub(super) bytes: &'a [u8],
    pub(super) index: &'a LineIndex,
}

impl FileText<'_> {
    /// The locations of a finding's labels in this text and, with `windows`, the windows
    /// that show them.
    pub(super) fn place(
        &self,
        finding: &Finding,
        exchange: Option<&Exchange<'_>>,
        windows: bool,
    ) -> (Location, Vec<Location>, Vec<Snippet>) {
        let location = self.location(&finding.primary, exchange);
        let related = (finding.related.iter())
            .map(|l| self.location(l, exchange))
            .collect();
        if !windows {
            return (location, related, Vec::new());
        }
        let labels: Vec<(&Label, bool)> = std::iter::once((&finding.primary, true))
            .chain(finding.related.iter().map(|l| (l, false)))
            .collect();
        let snippets = (self.group(&labels, exchange).iter())
            .map(|group| self.snippet(group, exchange))
            .collect();
        (location, related, snippets)
    }

    pub(super) fn location(&self, label: &Label, exchange: Option<&Exchange<'_>>) -> Location {
        let (span, body) = match label.target {
            Target::File => (label.span, None),
            Target::DecodedBody { side, .. } => {
                let raw = message_body(exchange, side).map_or(Span::default(), |b| b.raw);
                (raw, Some(body_name(label.target)))
            }
        };
        let span = Span::new(
            span.start.min(self.bytes.len()),
            span.end.min(self.bytes.len()),
        );
        let (start, end) = self.index.span_line_cols(self.bytes, span);
        Location {
            span,
            start,
            end,
            body,
            text: mask_text(&label.text),
            frame: None,
        }
    }

    /// Splits labels into groups that share one window: same source, close together.
    fn group<'f>(
        &self,
        labels: &[(&'f Label, bool)],
        exchange: Option<&Exchange<'_>>,
    ) -> Vec<Vec<(&'f Label, bool)>> {
        let line_of = |label: &Label| match label.target {
            Target::File => self.index.line_of(label.span.start),
            Target::DecodedBody { side, .. } => {
                let bytes = decoded_bytes(exchange, side);
                memchr::memchr_iter(b'\n', &bytes[..label.span.start.min(bytes.len())]).count()
            }
        };
        let mut groups: Vec<Vec<(&Label, bool)>> = Vec::new();
        for &(label, primary) in labels {
            let line = line_of(label);
            let near = groups.iter_mut().find(|group| {
                group.iter().all(|(other, _)| {
                    other.target == label.target
                        && line_of(other).abs_diff(line) <= SAME_WINDOW_LINES
                })
            });
            match near {
                Some(group) => group.push((label, primary)),
                None => groups.push(vec![(label, primary)]),
            }
        }
        groups
    }

    fn snippet(&self, group: &[(&Label, bool)], exchange: Option<&Exchange<'_>>) -> Snippet {
        let spans: Vec<(Span, &str, bool)> = group
            .iter()
            .map(|(l, p)| (l.span, l.text.as_str(), *p))
            .collect();
        match group[0].0.target {
            Target::File => SourceText {
                name: self.path.to_string(),
                bytes: self.bytes,
                index: self.index,
                hidden: &[],
            }
            .snippet(&spans),
            target @ Target::DecodedBody { side, .. } => {
                let bytes = decoded_bytes(exchange, side);
                SourceText {
                    name: format!("{}{}", self.path, body_name(target)),
                    bytes,
                    index: &LineIndex::new(bytes),
                    hidden: &[],
                }
                .snippet(&spans)
            }
        }
    }
}

fn message_body<'e>(
    exchange: Option<&'e Exchange<'_>>,
    side: Side,
) -> Option<&'e crate::input::capture::Body<'e>> {
    exchange.and_then(|e| e.message(side)).map(|m| &m.body)
}

fn decoded_bytes<'e>(exchange: Option<&'e Exchange<'_>>, side: Side) -> &'e [u8] {
    message_body(exchange, side)
        .and_then(|b| b.bytes())
        .unwrap_or_default()
}

/// The name a decoded body is shown under, after the file path.
fn body_name(target: Target) -> String {
    match target {
        Target::DecodedBody { exchange, side } => {
            format!("#exchanges[{exchange}].{}.body", side.name())
        }
        Target::File => String::new(),
    }
}
