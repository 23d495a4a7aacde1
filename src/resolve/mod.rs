//! Between rules and reporters: turns findings' byte spans into line and column, and cuts
//! the context windows reporters show, while the capture is still in memory. What comes
//! out holds no reference to the capture, so a run keeps one file's bytes per thread.

mod mask;
mod snippet;

pub use snippet::{Snippet, SnippetLabel};

use std::collections::HashMap;

use crate::capture::{Capture, Side};
use crate::finding::{Finding, Label, Severity, Target};
use crate::rules::RuleId;
use crate::source::{LineCol, LineIndex, Span};
use snippet::SourceText;

/// Labels further apart than this many lines get windows of their own.
const SAME_WINDOW_LINES: usize = 6;

/// A finding placed in its file, ready for any reporter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub rule: RuleId,
    pub severity: Severity,
    pub message: String,
    pub help: Option<String>,
    pub primary: Location,
    pub related: Vec<Location>,
    /// Windows to show: the first holds the primary label.
    pub snippets: Vec<Snippet>,
}

/// Where a label sits in the capture file. A label inside a decoded body (a decompressed
/// body, say) is placed at that body's bytes in the file and names the body source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    pub span: Span,
    pub start: LineCol,
    pub end: LineCol,
    /// For labels inside a decoded body: the name of that body, like
    /// `#exchanges[2].response.body`.
    pub body: Option<String>,
    pub text: String,
}

/// Resolves the findings of one capture file named `path`.
pub fn resolve(
    path: &str,
    bytes: &[u8],
    capture: &Capture<'_>,
    findings: Vec<Finding>,
) -> Vec<Diagnostic> {
    if findings.is_empty() {
        return Vec::new();
    }
    let mut resolver = Resolver {
        path,
        bytes,
        capture,
        file_index: LineIndex::new(bytes),
        masks: mask::credential_spans(capture),
        body_indexes: HashMap::new(),
    };
    let mut diagnostics: Vec<Diagnostic> =
        findings.iter().map(|f| resolver.diagnostic(f)).collect();
    diagnostics.sort_by(|a, b| {
        (a.primary.span.start, a.rule, &a.message).cmp(&(b.primary.span.start, b.rule, &b.message))
    });
    diagnostics
}

struct Resolver<'r, 's> {
    path: &'r str,
    bytes: &'s [u8],
    capture: &'r Capture<'s>,
    file_index: LineIndex,
    masks: Vec<Span>,
    body_indexes: HashMap<(usize, Side), LineIndex>,
}

impl Resolver<'_, '_> {
    fn diagnostic(&mut self, finding: &Finding) -> Diagnostic {
        let labels: Vec<(&Label, bool)> = std::iter::once((&finding.primary, true))
            .chain(finding.related.iter().map(|l| (l, false)))
            .collect();
        Diagnostic {
            rule: finding.rule,
            severity: finding.severity,
            message: finding.message.clone(),
            help: finding.help.clone(),
            primary: self.location(&finding.primary),
            related: finding.related.iter().map(|l| self.location(l)).collect(),
            snippets: self
                .group(&labels)
                .into_iter()
                .map(|g| self.snippet(&g))
                .collect(),
        }
    }

    fn location(&self, label: &Label) -> Location {
        let (span, body) = match label.target {
            Target::File => (label.span, None),
            Target::DecodedBody { exchange, side } => (
                self.body_span(exchange, side),
                Some(body_name(exchange, side)),
            ),
        };
        let span = Span::new(
            span.start.min(self.bytes.len()),
            span.end.min(self.bytes.len()),
        );
        Location {
            span,
            start: self.file_index.line_col(self.bytes, span.start),
            end: self.file_index.line_col(self.bytes, span.end),
            body,
            text: label.text.clone(),
        }
    }

    fn body_span(&self, exchange: usize, side: Side) -> Span {
        self.capture.exchanges[exchange]
            .message(side)
            .map_or(Span::default(), |m| m.body.raw)
    }

    fn body_bytes(&self, exchange: usize, side: Side) -> &[u8] {
        self.capture.exchanges[exchange]
            .message(side)
            .and_then(|m| m.body.bytes())
            .unwrap_or_default()
    }

    /// Splits labels into groups that share one window: same source, close together.
    fn group<'f>(&mut self, labels: &[(&'f Label, bool)]) -> Vec<Vec<(&'f Label, bool)>> {
        let mut groups: Vec<Vec<(&Label, bool)>> = Vec::new();
        for &(label, primary) in labels {
            let line = self.line_of(label);
            let near = groups.iter_mut().find(|group| {
                group.iter().all(|(other, _)| {
                    other.target == label.target
                        && self.line_of(other).abs_diff(line) <= SAME_WINDOW_LINES
                })
            });
            match near {
                Some(group) => group.push((label, primary)),
                None => groups.push(vec![(label, primary)]),
            }
        }
        groups
    }

    fn line_of(&mut self, label: &Label) -> usize {
        match label.target {
            Target::File => self.file_index.line_of(label.span.start),
            Target::DecodedBody { exchange, side } => {
                self.body_index(exchange, side).line_of(label.span.start)
            }
        }
    }

    fn body_index(&mut self, exchange: usize, side: Side) -> &LineIndex {
        let bytes = self.capture.exchanges[exchange]
            .message(side)
            .and_then(|m| m.body.bytes())
            .unwrap_or_default();
        self.body_indexes
            .entry((exchange, side))
            .or_insert_with(|| LineIndex::new(bytes))
    }

    fn snippet(&mut self, group: &[(&Label, bool)]) -> Snippet {
        let spans: Vec<(Span, &str, bool)> = group
            .iter()
            .map(|(l, p)| (l.span, l.text.as_str(), *p))
            .collect();
        match group[0].0.target {
            Target::File => SourceText {
                name: self.path.to_string(),
                bytes: self.bytes,
                index: &self.file_index,
                masks: &self.masks,
            }
            .snippet(&spans),
            Target::DecodedBody { exchange, side } => {
                self.body_index(exchange, side);
                SourceText {
                    name: format!("{}{}", self.path, body_name(exchange, side)),
                    bytes: self.body_bytes(exchange, side),
                    index: &self.body_indexes[&(exchange, side)],
                    masks: &[],
                }
                .snippet(&spans)
            }
        }
    }
}

/// The name a decoded body is shown under, after the file path.
fn body_name(exchange: usize, side: Side) -> String {
    format!("#exchanges[{exchange}].{}.body", side.name())
}
