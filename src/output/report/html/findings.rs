//! A file's findings in the HTML report: each diagnostic's heading, message, capture
//! windows with their labels (the windows `resolve` cut, as the human format shows them)
//! and help.

use std::fmt::Write as _;
use std::ops::Range;

use crate::output::report::html::escape::{attr, prose, push_text, text, token};
use crate::output::resolve::{Diagnostic, Location, Snippet};

/// A file with more findings than this shows them collapsed.
pub const OPEN_FINDINGS: usize = 20;

/// The anchor of finding `number` (1-based) of file `file`.
pub fn anchor(file: usize, number: usize) -> String {
    format!("f-{file}-{number}")
}

/// The anchor of exchange `index` of file `file` in the explorer.
pub fn exchange_anchor(file: usize, index: usize) -> String {
    format!("x-{file}-{index}")
}

/// The findings of file `file`, numbered from `first`, collapsed past [`OPEN_FINDINGS`].
pub fn push_findings(out: &mut String, file: usize, first: usize, diagnostics: &[Diagnostic]) {
    if diagnostics.is_empty() {
        out.push_str("<p class=\"clean\">No findings.</p>\n");
        return;
    }
    let open = if diagnostics.len() <= OPEN_FINDINGS {
        " open"
    } else {
        ""
    };
    let _ = writeln!(
        out,
        "<details class=\"findings\"{open}><summary>{} finding{}{}</summary>",
        diagnostics.len(),
        if diagnostics.len() == 1 { "" } else { "s" },
        if open.is_empty() { " (collapsed)" } else { "" }
    );
    for (i, diagnostic) in diagnostics.iter().enumerate() {
        push_finding(out, file, first + i, diagnostic);
    }
    out.push_str("</details>\n");
}

fn push_finding(out: &mut String, file: usize, number: usize, d: &Diagnostic) {
    let severity = d.severity.as_str();
    let slug = d.rule.slug();
    let _ = writeln!(
        out,
        "<article class=\"finding sev-{severity}\" id=\"{}\" data-rule=\"{slug}\" \
         data-severity=\"{severity}\">",
        anchor(file, number)
    );
    let _ = writeln!(
        out,
        "<h4><span class=\"n\">{number}</span> <span class=\"sev\">{severity}</span> \
         <a class=\"rule\" href=\"#{}\">{slug}</a> <span class=\"msg\">{}</span></h4>",
        rule_anchor(slug),
        prose(&d.message),
    );
    let mut parts: Vec<String> = place(&d.primary).map(|p| text(&p)).into_iter().collect();
    if let Some(exchange) = d.exchange {
        parts.push(format!(
            "<a href=\"#{}\">exchange #{exchange}</a>",
            exchange_anchor(file, exchange)
        ));
    }
    if let Some(member) = &d.member {
        parts.push(format!("<code>{}</code>", text(member)));
    }
    if !parts.is_empty() {
        let _ = writeln!(out, "<p class=\"where\">{}</p>", parts.join(" · "));
    }
    for (i, snippet) in d.snippets.iter().enumerate() {
        push_window(out, snippet, i > 0);
    }
    out.push_str("<p class=\"help\">");
    if let Some(help) = &d.help {
        let _ = write!(out, "help: {}<br>", prose(help));
    }
    let _ = writeln!(
        out,
        "see <code>a2alint explain {slug}</code></p>\n</article>"
    );
}

/// Where a label is on the wire: its frames, connection and stream (elsewhere the
/// window's caption says where it is).
pub fn place(location: &Location) -> Option<String> {
    let frame = location.frame.as_ref()?;
    let mut place = match frame.last_frame == frame.frame {
        true => format!("frame {}", frame.frame),
        false => format!("frames {}–{}", frame.frame, frame.last_frame),
    };
    if let Some(peers) = &frame.peers {
        let _ = write!(place, ", {peers}");
    }
    if let Some(stream) = frame.stream {
        let _ = write!(place, ", stream {stream}");
    }
    Some(place)
}

/// A window as the human format draws it: the window's name and position, its lines
/// numbered as in the capture, labelled spans marked and each label's note under its line.
pub fn push_window(out: &mut String, snippet: &Snippet, related: bool) {
    let name = format!("{}:{}:{}", snippet.name, snippet.line, snippet.column);
    let class = if related { "win related" } else { "win" };
    let _ = write!(
        out,
        "<figure class=\"{class}\"><figcaption>{}</figcaption><pre>",
        text(&name)
    );
    let lines = line_ranges(&snippet.text);
    let width = (snippet.first_line + lines.len()).to_string().len();
    for (k, line) in lines.iter().enumerate() {
        let number = snippet.first_line + k + 1;
        let _ = write!(out, "<span class=\"ln\">{number:>width$}</span> ");
        push_marked_line(out, &snippet.text, line.clone(), snippet);
        out.push('\n');
        for label in &snippet.labels {
            let note_at = match label.range.is_empty() {
                true => label.range.start,
                false => label.range.end - 1,
            };
            if !(line.start <= note_at && note_at <= line.end) || label.text.is_empty() {
                continue;
            }
            let from = label.range.start.clamp(line.start, line.end);
            let column = snippet.text[line.start..floor(&snippet.text, from)]
                .chars()
                .count();
            let kind = if label.primary {
                "note primary"
            } else {
                "note"
            };
            let _ = writeln!(
                out,
                "<span class=\"ln\">{:width$}</span> <span class=\"{kind}\">{:column$}╰── {}</span>",
                "",
                "",
                text(&label.text)
            );
        }
    }
    out.push_str("</pre></figure>\n");
}

/// One line of a window with the labelled parts of it marked.
fn push_marked_line(out: &mut String, whole: &str, line: Range<usize>, snippet: &Snippet) {
    let mut cuts = vec![line.start, line.end];
    for label in &snippet.labels {
        for at in [label.range.start, label.range.end] {
            if line.start < at && at < line.end {
                cuts.push(floor(whole, at));
            }
        }
    }
    cuts.sort_unstable();
    cuts.dedup();
    for pair in cuts.windows(2) {
        let piece = &whole[pair[0]..pair[1]];
        let label = (snippet.labels.iter())
            .filter(|l| l.range.start <= pair[0] && pair[1] <= l.range.end)
            .max_by_key(|l| l.primary);
        match label {
            Some(label) => {
                let class = if label.primary { "lab primary" } else { "lab" };
                let _ = write!(
                    out,
                    "<mark class=\"{class}\" title=\"{}\">",
                    attr(&label.text)
                );
                push_text(out, piece);
                out.push_str("</mark>");
            }
            None => push_text(out, piece),
        }
    }
}

/// Byte ranges of each line of `s`, without its line break.
fn line_ranges(s: &str) -> Vec<Range<usize>> {
    let mut ranges = Vec::new();
    let mut start = 0;
    for line in s.split('\n') {
        ranges.push(start..start + line.len());
        start += line.len() + 1;
    }
    ranges
}

/// `at`, moved back onto a character boundary of `s`.
fn floor(s: &str, mut at: usize) -> usize {
    at = at.min(s.len());
    while !s.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// The id of a rule's entry in the rule reference.
pub fn rule_anchor(slug: &str) -> String {
    format!("rule-{}", token(slug))
}
