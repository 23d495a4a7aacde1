//! Places findings about a HAR file. Rules ran on the HTTP/1.1 text each entry was
//! written as (`capture::har`); their spans point into the text of the entry being
//! linted, which the map is handed ([`HarMap::enter_entry`]). Here each span is
//! traced back to the HAR member it came from: a header or start-line label lands on the
//! member's value in the HAR file (on the exact characters when the value holds no
//! escapes), a body label on the body shown as a source of its own,
//! `trace.har#entries[3].response.content`, while its location is the `text` member's.
//!
//! The HAR file is only scanned as far as findings need: entries are found one after the
//! other the first time a finding points into them, and an entry's layout is worked out
//! again from its JSON only when a finding points into it.

use crate::output::resolve::har_text::{Lines, first_byte};
use std::collections::BTreeMap;
use std::ops::Range;

use crate::finding::Finding;
use crate::input::capture::EntryText;
use crate::input::capture::Side;
use crate::input::capture::har::{EntrySpans, Layout, Member, NOT_IN_VALUE, Piece};
use crate::input::json_span::{locate_key_in_valid, locate_value_in_valid};
use crate::input::source::Span;
use crate::input::source::{Label, Target};
use crate::output::resolve::Location;
use crate::output::resolve::snippet::Snippet;

mod scan;
mod window;

/// Entry layouts kept at once; findings come one exchange at a time.
const CACHED_ENTRIES: usize = 8;
/// Bytes of a long line that a window may show around a label (more than it does).
const LONG_LINE_REACH: usize = 1024;

/// Spans at or past this offset are spans of the HAR file itself, moved up by it:
/// findings about the file rather than an entry's text (no entry's text is this long).
const HAR_FILE_SPANS: usize = usize::MAX / 2;

/// A span of the HAR file itself, for a finding about the file rather than an entry.
pub fn har_file_span(span: Span) -> Span {
    span.shift(HAR_FILE_SPANS)
}

pub struct HarMap<'r> {
    path: &'r str,
    har: &'r [u8],
    /// The entry being linted, the text it was written as, and its layout when the
    /// reader gave it (taken when the entry is first placed).
    current: Option<usize>,
    entry_text: Vec<u8>,
    entry_layout: Option<Layout>,
    lines: Option<Lines>,
    /// Columns already counted on one long line: its number, and offset to column.
    columns: (usize, BTreeMap<usize, usize>),
    /// The entries' spans, found one after the other as far as asked.
    scan: EntrySpans,
    spans: Vec<Span>,
    cache: Vec<EntryPlace>,
}

/// Where a label ends up.
enum Place {
    /// Bytes of the HAR file.
    Har(Span),
    /// Bytes of an entry's body, shown as a source of its own.
    Body {
        entry: usize,
        side: Side,
        /// The body's bytes in the current entry's text.
        bytes: Range<usize>,
        span: Span,
        /// The `text` member's value in the HAR file.
        member: Span,
    },
}

impl Place {
    fn same_source(&self, other: &Place) -> bool {
        match (self, other) {
            (Place::Har(_), Place::Har(_)) => true,
            (
                Place::Body { entry, side, .. },
                Place::Body {
                    entry: e, side: s, ..
                },
            ) => entry == e && side == s,
            _ => false,
        }
    }
}

/// An entry whose layout was worked out.
struct EntryPlace {
    index: usize,
    /// The entry's object in the HAR file.
    span: Span,
    layout: Layout,
    /// Credential values no window may show.
    secrets: Vec<Span>,
    /// Members already found in the entry's JSON: an entry's findings point at a few
    /// members, often the same (its body, its status).
    members: Vec<((Side, Member), Span)>,
}

impl<'r> HarMap<'r> {
    pub fn new(path: &'r str, har: &'r [u8]) -> Self {
        HarMap {
            path,
            har,
            current: None,
            entry_text: Vec::new(),
            entry_layout: None,
            lines: None,
            columns: (0, BTreeMap::new()),
            scan: EntrySpans::default(),
            spans: Vec::new(),
            cache: Vec::new(),
        }
    }

    /// Findings from now on are about `entry`: its text, and its layout and span when
    /// the reader gave them. They are copied only for an entry that has findings.
    pub fn enter_entry(&mut self, entry: &EntryText<'_>) {
        if self.current != Some(entry.index) {
            self.current = Some(entry.index);
            self.entry_text.clear();
            self.entry_text.extend_from_slice(entry.text);
            self.entry_layout = entry.layout.cloned();
            if let Some(span) = entry.span {
                self.found_entry(entry.index, span);
            }
        }
    }

    /// The location of a finding's primary label, as [`HarMap::place`] gives it, without
    /// cutting its windows.
    pub fn primary_location(&mut self, finding: &Finding) -> Location {
        if self.lines.is_none() {
            self.lines = Some(Lines::new(self.har));
        }
        let place = self.place_label(&finding.primary);
        self.location(&finding.primary, &place)
    }

    /// The locations of a finding's labels and, with `windows`, the windows that show them.
    pub fn place(
        &mut self,
        finding: &Finding,
        windows: bool,
    ) -> (Location, Vec<Location>, Vec<Snippet>) {
        if self.lines.is_none() {
            self.lines = Some(Lines::new(self.har));
        }
        let labels: Vec<(&Label, Place)> = std::iter::once(&finding.primary)
            .chain(&finding.related)
            .map(|label| (label, self.place_label(label)))
            .collect();
        let mut locations = Vec::with_capacity(labels.len());
        for (label, place) in &labels {
            locations.push(self.location(label, place));
        }
        let snippets = match windows {
            true => (self.group(&labels).iter())
                .map(|group| self.snippet(&labels, group))
                .collect(),
            false => Vec::new(),
        };
        let mut locations = locations.into_iter();
        let primary = locations.next().expect("a finding has a primary label");
        (primary, locations.collect(), snippets)
    }

    /// Where a label of the current entry's text (or of the HAR file) lands.
    fn place_label(&mut self, label: &Label) -> Place {
        let span = match label.target {
            Target::File => label.span,
            // Content codings are dropped from HAR text, so no body is decoded again.
            Target::DecodedBody { exchange, side } => {
                return match self.entry(exchange) {
                    Some(slot) => Place::Har(self.member_span(slot, side, Member::Body)),
                    None => Place::Har(Span::default()),
                };
            }
        };
        if span.start >= HAR_FILE_SPANS {
            let start = (span.start - HAR_FILE_SPANS).min(self.har.len());
            let end = (span.end.saturating_sub(HAR_FILE_SPANS)).clamp(start, self.har.len());
            return Place::Har(Span::new(start, end));
        }
        let Some(entry) = self.current else {
            return Place::Har(Span::default());
        };
        let Some(slot) = self.entry(entry) else {
            return Place::Har(Span::default());
        };
        let local = span.start;
        let local_end = span.end.max(span.start);
        let layout = &self.cache[slot].layout;
        let Some(side) = layout
            .messages
            .iter()
            .find(|(_, range)| range.contains(&local))
            .or(layout.messages.last())
            .map(|(side, _)| *side)
        else {
            return Place::Har(first_byte(self.cache[slot].span));
        };
        // The side's pieces, walked where they lie (a label is placed for every finding).
        let pieces = || layout.pieces.iter().filter(move |p| p.side == side);
        let Some(piece) = pieces()
            .find(|p| p.start <= local && (local < p.end || (p.start == p.end && p.start == local)))
            .or_else(|| pieces().rev().find(|p| p.start <= local))
            .or_else(|| pieces().next())
            .copied()
        else {
            return Place::Har(first_byte(self.cache[slot].span));
        };
        if piece.member == Member::Body {
            let member = self.member_span(slot, side, Member::Body);
            if piece.start == piece.end {
                return Place::Har(member);
            }
            // A label past the body (on the line end written after it) is kept at its end.
            let start = local.min(piece.end);
            return Place::Body {
                entry,
                side,
                bytes: piece.start..piece.end,
                span: Span::new(
                    start - piece.start,
                    local_end.clamp(start, piece.end) - piece.start,
                ),
                member,
            };
        }
        if local_end <= piece.end {
            return Place::Har(self.exact_span(slot, &piece, local, local_end));
        }
        // A label over several pieces: a whole header line, a start line, a message.
        let last = (self.cache[slot].layout.pieces.iter().rev())
            .find(|p| p.side == side && p.start < local_end)
            .copied()
            .unwrap_or(piece);
        let span = match (piece.member, last.member) {
            (Member::HeaderName(i), Member::HeaderValue(j)) if i == j => {
                let name = self.member_span(slot, side, piece.member);
                let value = self.member_span(slot, side, last.member);
                Span::new(name.start.min(value.start), name.end.max(value.end))
            }
            (Member::HeaderName(_) | Member::HeaderValue(_), _) => {
                self.member_span(slot, side, piece.member)
            }
            _ => {
                let main = match side {
                    Side::Request => Member::Url,
                    Side::Response => Member::Status,
                };
                self.member_span(slot, side, main)
            }
        };
        Place::Har(span)
    }

    /// The HAR span of `local..local_end`, inside one piece: the very characters when the
    /// member's value holds the piece's text unchanged, else the whole value.
    fn exact_span(&mut self, slot: usize, piece: &Piece, local: usize, local_end: usize) -> Span {
        let token = self.member_span(slot, piece.side, piece.member);
        if piece.value_offset == NOT_IN_VALUE {
            return token;
        }
        let raw = &self.har[token.range()];
        let (inner_start, inner) = match raw {
            [b'"', inner @ .., b'"'] => (token.start + 1, inner),
            _ => (token.start, raw),
        };
        let text = &self.entry_text[piece.start..piece.end];
        let from = piece.value_offset;
        let to = from + text.len();
        if inner.get(from..to) != Some(text) || inner[..to].contains(&b'\\') {
            return token;
        }
        let start = inner_start + from + (local - piece.start);
        let end = inner_start + from + (local_end - piece.start);
        Span::new(start, end.max(start))
    }

    /// The value of `member` in the cached entry `slot`; when the entry lacks it, the name
    /// of the nearest member that holds it (`"content"` for a missing `content.text`).
    fn member_span(&mut self, slot: usize, side: Side, member: Member) -> Span {
        let entry = &self.cache[slot];
        if let Some((_, span)) = entry.members.iter().find(|(m, _)| *m == (side, member)) {
            return *span;
        }
        let span = self.find_member(slot, side, member);
        self.cache[slot].members.push(((side, member), span));
        span
    }

    fn find_member(&self, slot: usize, side: Side, member: Member) -> Span {
        let entry = &self.cache[slot];
        // A cached entry parsed (`entry`), so its JSON is valid.
        let json = &self.har[entry.span.range()];
        let pointer = member.pointer(side);
        if let Some(span) = locate_value_in_valid(json, &pointer) {
            return span.shift(entry.span.start);
        }
        let mut parent = pointer.as_str();
        while let Some((up, _)) = parent.rsplit_once('/') {
            parent = up;
            if parent.is_empty() {
                break;
            }
            if let Some(key) = locate_key_in_valid(json, parent) {
                return key.shift(entry.span.start);
            }
        }
        first_byte(entry.span)
    }
}

/// The name a body is shown under, after the file path.
fn body_name(entry: usize, side: Side) -> String {
    match side {
        Side::Request => format!("#entries[{entry}].request.postData"),
        Side::Response => format!("#entries[{entry}].response.content"),
    }
}
