//! `--format human`: each finding rendered by miette's graphical handler from the small
//! window `resolve` cut, never from the whole capture.

use std::fmt;
use std::io::{self, Write};

use miette::{
    GraphicalReportHandler, GraphicalTheme, LabeledSpan, MietteError, MietteSpanContents,
    SourceCode, SourceSpan, SpanContents,
};

use crate::finding::Severity;
use crate::input::walk::Input;
use crate::output::FileReport;
use crate::output::report::{Reporter, Summary};
use crate::output::resolve::{Diagnostic, Snippet};

/// Output width; fixed so output does not depend on the terminal it was captured in.
const WIDTH: usize = 100;
/// Any non-zero value: windows already hold their context, see [`WindowSource`].
const CONTEXT_LINES: usize = 2;

/// Renders each finding as it comes; only the handler and a reused buffer are kept.
pub struct Human<'w> {
    handler: GraphicalReportHandler,
    text: String,
    out: &'w mut dyn Write,
}

impl<'w> Human<'w> {
    pub fn new(color: bool, out: &'w mut dyn Write) -> Self {
        let theme = if color {
            GraphicalTheme::unicode()
        } else {
            GraphicalTheme::unicode_nocolor()
        };
        let handler = GraphicalReportHandler::new_themed(theme)
            .with_links(false)
            .with_width(WIDTH)
            .without_primary_span_start()
            .with_context_lines(CONTEXT_LINES)
            .with_word_separator(super::wrap_words::SEPARATOR);
        Human {
            handler,
            text: String::new(),
            out,
        }
    }
}

impl Reporter for Human<'_> {
    fn file(&mut self, report: &FileReport, _source: Option<&Input>) -> io::Result<()> {
        for diagnostic in &report.diagnostics {
            self.text.clear();
            let rendered = Rendered::main(diagnostic);
            (self.handler)
                .render_report(&mut self.text, &rendered)
                .map_err(|_| io::Error::other("rendering a diagnostic failed"))?;
            self.out.write_all(self.text.as_bytes())?;
            writeln!(self.out)?;
        }
        Ok(())
    }

    fn finish(self: Box<Self>, _summary: &Summary) -> io::Result<()> {
        Ok(())
    }
}

/// A diagnostic, or one of its far-away related windows, as miette sees it.
struct Rendered<'a> {
    message: String,
    code: Option<&'a str>,
    severity: miette::Severity,
    help: Option<String>,
    source: WindowSource<'a>,
    related: Vec<Rendered<'a>>,
}

impl<'a> Rendered<'a> {
    fn main(d: &'a Diagnostic) -> Self {
        let docs = format!("see `a2alint explain {}`", d.rule);
        Rendered {
            message: d.message.clone(),
            code: Some(d.rule.slug()),
            severity: match d.severity {
                Severity::Error => miette::Severity::Error,
                Severity::Warning => miette::Severity::Warning,
                Severity::Info => miette::Severity::Advice,
            },
            help: Some(match &d.help {
                Some(help) => format!("{help}\n{docs}"),
                None => docs,
            }),
            source: WindowSource(&d.snippets[0]),
            related: d.snippets[1..]
                .iter()
                .map(|snippet| Rendered {
                    message: snippet.labels[0].text.clone(),
                    code: None,
                    severity: miette::Severity::Advice,
                    help: None,
                    source: WindowSource(snippet),
                    related: Vec::new(),
                })
                .collect(),
        }
    }
}

impl fmt::Debug for Rendered<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl fmt::Display for Rendered<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Rendered<'_> {}

impl miette::Diagnostic for Rendered<'_> {
    fn code<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        self.code.map(|c| Box::new(c) as Box<dyn fmt::Display>)
    }

    fn severity(&self) -> Option<miette::Severity> {
        Some(self.severity)
    }

    fn help<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(&self.source)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let labels = self.source.0.labels.iter().map(|label| {
            let span = SourceSpan::from(label.range.clone());
            let text = (!label.text.is_empty()).then(|| label.text.clone());
            if label.primary {
                LabeledSpan::new_primary_with_span(text, span)
            } else {
                LabeledSpan::new_with_span(text, span)
            }
        });
        Some(Box::new(labels))
    }

    fn related<'b>(&'b self) -> Option<Box<dyn Iterator<Item = &'b dyn miette::Diagnostic> + 'b>> {
        if self.related.is_empty() {
            return None;
        }
        Some(Box::new(
            self.related.iter().map(|r| r as &dyn miette::Diagnostic),
        ))
    }
}

/// A window as a miette source: offsets are window offsets, line numbers are the
/// capture's, and the name carries the real `path:line:col`.
struct WindowSource<'a>(&'a Snippet);

impl SourceCode for WindowSource<'_> {
    fn read_span<'b>(
        &'b self,
        span: &SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn SpanContents<'b> + 'b>, MietteError> {
        let snippet = self.0;
        // The window already holds the context worth showing; give all of it.
        let whole = SourceSpan::from(0..snippet.text.len());
        let span = if context_lines_before + context_lines_after == 0 {
            *span
        } else {
            whole
        };
        let name = format!("{}:{}:{}", snippet.name, snippet.line, snippet.column);
        if span == whole && !snippet.text.contains('\r') {
            // What miette's own reading of the whole window gives (its first line, column
            // 0, a line per `\n`), without walking the window byte by byte: miette asks
            // twice per window.
            return Ok(Box::new(MietteSpanContents::new_named(
                name,
                snippet.text.as_bytes(),
                whole,
                snippet.first_line,
                0,
                memchr::memchr_iter(b'\n', snippet.text.as_bytes()).count(),
            )));
        }
        let inner = snippet.text.as_str().read_span(&span, 0, 0)?;
        Ok(Box::new(MietteSpanContents::new_named(
            name,
            inner.data(),
            *inner.span(),
            inner.line() + snippet.first_line,
            inner.column(),
            inner.line_count(),
        )))
    }
}
