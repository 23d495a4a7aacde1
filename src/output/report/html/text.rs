//! Capture text for the HTML explorer: a message's bytes with credentials masked, clipped
//! when huge, and the spans findings point at marked inline, escaped piece by piece.

use std::fmt::Write as _;
use std::ops::Range;

use crate::finding::Severity;
use crate::input::secrets;
use crate::output::report::html::escape;

/// A message longer than this is shown up to here, with a note of what was left out.
pub const MAX_SHOWN_BYTES: usize = 64 * 1024;

/// A span to mark in the text: which finding it belongs to.
#[derive(Clone, Debug)]
pub struct Mark {
    /// Byte range in the text the message was read from.
    pub range: Range<usize>,
    pub severity: Severity,
    /// The finding's anchor (`f-3-2`) and its number in the file, for the badge.
    pub anchor: String,
    pub number: usize,
    /// The rule and the label's note, for the tooltip.
    pub title: String,
}

/// Byte ranges of `region` (offsets within it) that hold credentials: the value of a
/// credential header line, credential JSON members and JWT-shaped strings, as every other
/// output masks them.
pub fn credential_ranges(region: &[u8]) -> Vec<Range<usize>> {
    let mut ranges = secrets::find_in_text(region);
    let mut start = 0;
    for line in region.split_inclusive(|&b| b == b'\n') {
        let content = line.strip_suffix(b"\n").unwrap_or(line);
        let content = content.strip_suffix(b"\r").unwrap_or(content);
        if let Some(value) = secrets::header_line_value(content) {
            ranges.push(start + value.start..start + value.end);
        }
        start += line.len();
    }
    ranges
}

/// A string from a capture (an error message, an ErrorInfo) with its credentials masked.
pub fn masked(s: &str) -> String {
    let mut bytes = s.as_bytes().to_vec();
    for range in credential_ranges(s.as_bytes()) {
        bytes[range].fill(b'*');
    }
    escape::lossy(&bytes).into_owned()
}

/// Appends `text[span]` to `out` as escaped HTML, credentials masked, `marks` (offsets in
/// `text`) wrapped in `<mark>` with a numbered link to their finding after each.
pub fn push_region(out: &mut String, text: &[u8], span: Range<usize>, marks: &[Mark]) {
    let span = span.start.min(text.len())..span.end.min(text.len());
    let shown_end = span.end.min(span.start + MAX_SHOWN_BYTES);
    let mut bytes = text[span.start..shown_end].to_vec();
    for range in credential_ranges(&text[span.clone()]) {
        let range = range.start.min(bytes.len())..range.end.min(bytes.len());
        bytes[range].fill(b'*');
    }
    let base = span.start;
    // Marks in the shown bytes' own offsets, moved onto character boundaries.
    let local: Vec<(Range<usize>, &Mark)> = marks
        .iter()
        .filter(|m| match m.range.is_empty() {
            true => (base..=shown_end).contains(&m.range.start),
            false => m.range.start < shown_end && m.range.end > base,
        })
        .map(|m| {
            let start = boundary(&bytes, m.range.start.max(base) - base);
            let end = boundary(&bytes, m.range.end.min(shown_end) - base).max(start);
            (start..end, m)
        })
        .collect();
    let mut cuts: Vec<usize> = vec![0, bytes.len()];
    cuts.extend(local.iter().flat_map(|(r, _)| [r.start, r.end]));
    cuts.sort_unstable();
    cuts.dedup();
    for pair in cuts.windows(2) {
        let (from, to) = (pair[0], pair[1]);
        badges(out, &local, from, true);
        let active: Vec<&Mark> = (local.iter())
            .filter(|(r, _)| r.start <= from && to <= r.end && r.start < r.end)
            .map(|(_, m)| *m)
            .collect();
        let piece = escape::lossy(&bytes[from..to]);
        match worst(&active) {
            Some(severity) => {
                let title: Vec<&str> = active.iter().map(|m| m.title.as_str()).collect();
                let _ = write!(
                    out,
                    "<mark class=\"sev-{}\" title=\"{}\">",
                    severity.as_str(),
                    escape::attr(&title.join("\n"))
                );
                escape::push_text(out, &piece);
                out.push_str("</mark>");
            }
            None => escape::push_text(out, &piece),
        }
        badges(out, &local, to, false);
    }
    if shown_end < span.end {
        let _ = write!(
            out,
            "\n<span class=\"clip\">… {} more bytes not shown</span>",
            span.end - shown_end
        );
    }
}

/// The badge of each mark ending at `at` (or, for an empty mark, starting there).
fn badges(out: &mut String, local: &[(Range<usize>, &Mark)], at: usize, empty: bool) {
    for (range, mark) in local {
        let here = match empty {
            true => range.is_empty() && range.start == at,
            false => !range.is_empty() && range.end == at,
        };
        if here {
            let _ = write!(
                out,
                "<a class=\"badge sev-{}\" href=\"#{}\" title=\"{}\">{}</a>",
                mark.severity.as_str(),
                escape::token(&mark.anchor),
                escape::attr(&mark.title),
                mark.number
            );
        }
    }
}

fn worst(marks: &[&Mark]) -> Option<Severity> {
    let rank = |s: Severity| match s {
        Severity::Error => 0,
        Severity::Warning => 1,
        Severity::Info => 2,
    };
    marks.iter().map(|m| m.severity).min_by_key(|s| rank(*s))
}

/// `at`, or the start of the next character when `at` is inside one.
fn boundary(bytes: &[u8], at: usize) -> usize {
    let mut at = at.min(bytes.len());
    while at < bytes.len() && (bytes[at] & 0xC0) == 0x80 {
        at += 1;
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mark(range: Range<usize>) -> Mark {
        Mark {
            range,
            severity: Severity::Warning,
            anchor: "f-0-1".into(),
            number: 1,
            title: "rule: \"note\"".into(),
        }
    }

    #[test]
    fn marks_wrap_their_span_and_link_to_the_finding() {
        let text = b"GET /a HTTP/1.1\nX: <b>\n";
        let mut out = String::new();
        push_region(&mut out, text, 0..text.len(), &[mark(19..22)]);
        assert_eq!(
            out,
            "GET /a HTTP/1.1\nX: <mark class=\"sev-warning\" title=\"rule: &quot;note&quot;\">\
             &lt;b&gt;</mark><a class=\"badge sev-warning\" href=\"#f-0-1\" \
             title=\"rule: &quot;note&quot;\">1</a>\n"
        );
    }

    #[test]
    fn credentials_are_masked() {
        let text = b"Authorization: Bearer abc.def\n\n{\"token\":\"s3cret-value\"}";
        let mut out = String::new();
        push_region(&mut out, text, 0..text.len(), &[]);
        assert!(!out.contains("abc.def"), "{out}");
        assert!(!out.contains("s3cret"), "{out}");
        assert!(out.contains("Authorization: *"), "{out}");
        assert!(out.contains("*\n\n{"), "the line break stays: {out}");
    }

    #[test]
    fn huge_messages_are_clipped() {
        let text = vec![b'a'; MAX_SHOWN_BYTES + 10];
        let mut out = String::new();
        push_region(&mut out, &text, 0..text.len(), &[]);
        assert!(out.ends_with("10 more bytes not shown</span>"));
    }

    #[test]
    fn marks_never_split_a_character() {
        let text = "é<".as_bytes();
        let mut out = String::new();
        push_region(&mut out, text, 0..text.len(), &[mark(1..3)]);
        assert!(out.starts_with('é'), "{out}");
        assert!(!out.contains('\u{FFFD}'), "{out}");
    }
}
