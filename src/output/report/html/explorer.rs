//! The HTML report's exchange explorer: each exchange of a file as `inspect` reads it
//! (binding, operation, status, A2A error, what to do next) with its request and response
//! as text, the spans its findings point at marked inline.

use std::fmt::Write as _;

use crate::output::report::html::escape::{prose, text};
use crate::output::report::html::findings::{anchor, exchange_anchor, push_window};
use crate::output::report::html::tally::Tally;
use crate::output::report::html::text::{Mark, push_region};
use crate::output::resolve::Diagnostic;
use crate::protocol::inspect::{self, Advice, Visited};
use crate::protocol::profile::Profile;

/// One file's capture, as the explorer needs it.
pub struct FileCapture<'a> {
    pub file: usize,
    pub path: &'a str,
    pub bytes: &'a [u8],
    pub profile: Profile,
    pub diagnostics: &'a [Diagnostic],
}

/// The explorer of one file: a collapsed panel per exchange. Rows and errors go to
/// `tally` for the matrix and the side-by-side view.
pub fn push_explorer(out: &mut String, capture: &FileCapture<'_>, tally: &mut Tally) {
    let mut rows = Vec::new();
    let mut panels = String::new();
    let mut anchored = std::collections::HashSet::new();
    inspect::visit_source(capture.path, capture.bytes, capture.profile, &mut |v| {
        let first = anchored.insert(v.index);
        push_exchange(&mut panels, capture, &v, first);
        tally.example(&v, &exchange_anchor(capture.file, v.index));
        rows.push(v.row);
    });
    tally.rows(&rows);
    let _ = writeln!(
        out,
        "<details class=\"explorer\"><summary>Exchanges ({})</summary>",
        rows.len()
    );
    if rows.is_empty() {
        out.push_str("<p class=\"clean\">No exchange was read from this file.</p>\n");
    } else {
        out.push_str(
            "<div class=\"xhead\" aria-hidden=\"true\"><span class=\"place\">LINE</span>\
             <span class=\"binding\">BINDING</span><span class=\"op\">OPERATION</span>\
             <span class=\"status\">STATUS</span><span class=\"error\">ERROR</span></div>\n",
        );
    }
    out.push_str(&panels);
    out.push_str("</details>\n");
}

fn push_exchange(out: &mut String, capture: &FileCapture<'_>, v: &Visited<'_>, first: bool) {
    let row = &v.row;
    // In a `.http` file a finding about no exchange in particular (a Content-Length, a
    // framing problem) still belongs to the exchange whose bytes it points at.
    let inside = |d: &Diagnostic| {
        let at = d.primary.span;
        v.text_is_file
            && d.primary.body.is_none()
            && [v.request, v.response]
                .iter()
                .flatten()
                .any(|m| m.start <= at.start && at.end <= m.end)
    };
    let own: Vec<(usize, &Diagnostic)> = (capture.diagnostics.iter().enumerate())
        .filter(|(_, d)| d.exchange == Some(v.index) || (d.exchange.is_none() && inside(d)))
        .map(|(i, d)| (i + 1, d))
        .collect();
    let id = match first {
        true => format!(" id=\"{}\"", exchange_anchor(capture.file, v.index)),
        false => String::new(),
    };
    let _ = write!(
        out,
        "<details class=\"exchange\"{id} data-findings=\"{}\"><summary>\
         <span class=\"place\">{}</span><span class=\"binding\">{}</span>\
         <span class=\"op\">{}</span><span class=\"status\">{}</span>\
         <span class=\"error\">{}</span>",
        own.len(),
        text(&inspect::place_cell(row)),
        text(row.binding),
        text(row.operation.unwrap_or("-")),
        text(&inspect::status_cell(row)),
        text(inspect::error_cell(row)),
    );
    if let Some(worst) = own.iter().map(|(_, d)| d.severity).min_by_key(|s| rank(*s)) {
        let _ = write!(
            out,
            " <span class=\"count sev-{}\">{} finding{}</span>",
            worst.as_str(),
            own.len(),
            if own.len() == 1 { "" } else { "s" }
        );
    }
    out.push_str("</summary>\n");
    if row.advice != Advice::Proceed {
        let advice = match row.binding {
            "gRPC" => row.advice.describe_for_grpc(),
            _ => row.advice.describe(),
        };
        let _ = writeln!(
            out,
            "<p class=\"advice\">→ {}{}</p>",
            text(advice),
            text(&inspect::delay_note(row))
        );
    }
    let marks = marks(capture, v, &own);
    for (name, span) in [("Request", v.request), ("Response", v.response)] {
        let _ = write!(out, "<h5>{name}</h5>");
        match span {
            Some(span) => {
                out.push_str("<pre class=\"msg\">");
                push_region(out, v.text, span.range(), &marks);
                out.push_str("</pre>\n");
            }
            None => out.push_str("<p class=\"clean\">none in the capture</p>\n"),
        }
    }
    if !own.is_empty() {
        out.push_str("<ul class=\"xfindings\">\n");
        for (number, d) in &own {
            let _ = write!(
                out,
                "<li class=\"sev-{}\"><a href=\"#{}\">{number}</a> <span class=\"sev\">{}</span> \
                 {} <span class=\"msg\">{}</span>",
                d.severity.as_str(),
                anchor(capture.file, *number),
                d.severity.as_str(),
                d.rule.slug(),
                prose(&d.message)
            );
            // Spans in a HAR file or on frames are not in this text: show the window.
            if let Some(snippet) = d.snippets.first().filter(|_| !v.text_is_file) {
                push_window(out, snippet, false);
            }
            out.push_str("</li>\n");
        }
        out.push_str("</ul>\n");
    }
    out.push_str("</details>\n");
}

/// The labels of the exchange's findings that point into its text: in a `.http` file,
/// labels outside decoded bodies (their spans are the file's, and so the text's).
fn marks(capture: &FileCapture<'_>, v: &Visited<'_>, own: &[(usize, &Diagnostic)]) -> Vec<Mark> {
    if !v.text_is_file {
        return Vec::new();
    }
    let mut marks = Vec::new();
    for (number, d) in own {
        for location in std::iter::once(&d.primary).chain(&d.related) {
            if location.body.is_some() || location.frame.is_some() {
                continue;
            }
            let note = match location.text.is_empty() {
                true => d.message.as_str(),
                false => location.text.as_str(),
            };
            marks.push(Mark {
                range: location.span.range(),
                severity: d.severity,
                anchor: anchor(capture.file, *number),
                number: *number,
                title: format!("{}: {note}", d.rule.slug()),
            });
        }
    }
    marks
}

fn rank(severity: crate::finding::Severity) -> u8 {
    match severity {
        crate::finding::Severity::Error => 0,
        crate::finding::Severity::Warning => 1,
        crate::finding::Severity::Info => 2,
    }
}
