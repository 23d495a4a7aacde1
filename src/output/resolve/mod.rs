//! Between rules and reporters: turns findings' byte spans into line and column, and cuts
//! the context windows reporters show, while the bytes they point at are still in memory.
//! What comes out holds no reference to the capture.

mod file_text;
mod fingerprint;
mod har_map;
mod har_text;
mod mask;
mod snippet;
pub mod spots;
mod wire_map;

pub use fingerprint::hash as stable_hash;
pub use har_map::har_file_span;
pub use mask::masked_line;
pub use snippet::{Snippet, SnippetLabel};

use crate::finding::{Finding, Severity};
use crate::input::capture::EntryText;
use crate::input::capture::Exchange;
use crate::input::source::{LineCol, LineIndex, Span};
use crate::rules::RuleId;
use file_text::FileText;
use fingerprint::Fingerprint;
use har_map::HarMap;
use wire_map::WireMap;

/// Labels further apart than this many lines get windows of their own.
pub(crate) const SAME_WINDOW_LINES: usize = 6;

/// A finding placed in its file, ready for any reporter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub rule: RuleId,
    /// The exchange the finding is about (0-based), if it is about one.
    pub exchange: Option<usize>,
    /// The finding's logical identity, hashed: the same finding keeps it when lines move.
    pub fingerprint: String,
    /// What the primary label points at (`response/error/code`), when known.
    pub member: Option<String>,
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
    /// `#exchanges[2].response.body`, or `#entries[3].response.content` in a HAR file
    /// (then the span is that `text` member's).
    pub body: Option<String>,
    pub text: String,
    /// For a pcap or pcapng file: the frames and connection the label's bytes came from.
    /// Then `span` is the byte range in the file and `start`/`end` name the frames as
    /// lines (line = frame number, column 1), so line-based formats point at frames.
    pub frame: Option<FramePlace>,
}

/// Where a label sits on the wire.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FramePlace {
    /// 1-based frame numbers, as Wireshark shows them (`frame.number == 12`).
    pub frame: u32,
    pub last_frame: u32,
    /// The TCP connection (1-based, in order of first frame) and its peers, if the label
    /// is about one.
    pub connection: Option<usize>,
    pub peers: Option<String>,
    /// The HTTP/2 stream id.
    pub stream: Option<u32>,
}

/// Resolves the findings of one capture file as they come.
pub struct Resolver<'r> {
    path: &'r str,
    /// What fingerprints hash as the file: its path from the repository root.
    identity: &'r str,
    bytes: &'r [u8],
    /// Built at the first finding: clean files never pay for it.
    file_index: Option<LineIndex>,
    diagnostics: Vec<Diagnostic>,
    /// For a HAR file: how spans in the text its entries were written as map back to it.
    har: Option<HarMap<'r>>,
    /// For a pcap file: how spans in an exchange's text view map back to frames.
    wire: Option<WireMap<'r>>,
    /// Cut context windows ([`Diagnostic::snippets`]); formats that never show them
    /// turn this off, as cutting them was a tenth of a run with dense findings.
    windows: bool,
    /// Per rule, the fingerprint of its slug and `identity`, which every finding of the
    /// rule in this file starts with.
    fingerprints: Vec<Option<Fingerprint>>,
}

impl<'r> Resolver<'r> {
    pub fn new(path: &'r str, bytes: &'r [u8]) -> Self {
        Resolver {
            path,
            identity: path,
            bytes,
            file_index: None,
            diagnostics: Vec::new(),
            har: None,
            wire: None,
            windows: true,
            fingerprints: Vec::new(),
        }
    }

    /// Resolves findings about the exchanges of pcap file `file` (one at a time, see
    /// [`Resolver::enter_wire`]) and about its frames ([`crate::input::capture::wire::file_span`]s,
    /// once [`Resolver::set_frames`] has said where the frames are).
    pub fn for_wire(path: &'r str, file: &'r [u8]) -> Self {
        Resolver {
            wire: Some(WireMap::new(path, file.len())),
            ..Resolver::new(path, file)
        }
    }

    /// Resolves findings about a capture read live ([`crate::input::capture::wire::LiveReader`]),
    /// whose bytes are not held: as [`Resolver::for_wire`], frames set per connection.
    pub fn for_live_wire(path: &'r str) -> Self {
        Resolver {
            wire: Some(WireMap::new(path, usize::MAX)),
            ..Resolver::new(path, &[])
        }
    }

    /// Fingerprints hash `identity` (the file's path from the repository root, see
    /// [`crate::input::repo_root`]) rather than the path the file is shown under, so a finding
    /// keeps its fingerprint whatever directory a2alint runs in.
    pub fn identified_as(self, identity: &'r str) -> Self {
        Resolver {
            identity,
            fingerprints: Vec::new(),
            ..self
        }
    }

    /// With `windows` false, diagnostics come without context windows (their
    /// `snippets` empty), for formats that never show them; nothing else changes.
    pub fn windows(self, windows: bool) -> Self {
        Resolver { windows, ..self }
    }

    /// For a pcap file: where each frame's packet bytes start, with its number, as the
    /// reader found them.
    pub fn set_frames(&mut self, frames: Vec<(usize, u32)>) {
        if let Some(wire) = &mut self.wire {
            wire.set_frames(frames);
        }
    }

    /// For a pcap file: the findings from now on are about `exchange`.
    pub fn enter_wire(&mut self, exchange: &crate::input::capture::wire::WireExchange) {
        if let Some(wire) = &mut self.wire {
            wire.enter(exchange);
        }
    }

    /// For a pcap file: the findings from now on are about `connection` as a whole, or
    /// (`None`) about the file.
    pub fn enter_connection(
        &mut self,
        connection: Option<&crate::input::capture::wire::Connection>,
    ) {
        if let Some(wire) = &mut self.wire {
            wire.enter_connection(connection);
        }
    }

    /// Resolves findings about the HTTP text the entries of HAR file `har` were written
    /// as, one entry at a time ([`Resolver::enter_har_entry`]), placing them in the HAR
    /// file. Spans made by [`har_file_span`] are the HAR file's own.
    pub fn for_har(path: &'r str, har: &'r [u8]) -> Self {
        Resolver {
            har: Some(HarMap::new(path, har)),
            ..Resolver::new(path, har)
        }
    }

    /// For a HAR file: the findings from now on are about entry `index`, written as
    /// `text`, its pieces laid out as `layout` when the reader worked that out.
    pub fn enter_har_entry(&mut self, entry: &EntryText<'_>) {
        if let Some(har) = &mut self.har {
            har.enter_entry(entry);
        }
    }

    /// Resolves findings about `exchange` (needed for labels in its decoded bodies), or
    /// about the file as a whole.
    pub fn add(
        &mut self,
        findings: impl Iterator<Item = Finding>,
        exchange: Option<&Exchange<'_>>,
    ) {
        for finding in findings {
            let diagnostic = self.diagnostic(&finding, exchange);
            self.diagnostics.push(diagnostic);
        }
    }

    /// The diagnostics, ordered by position, then rule, then message.
    pub fn finish(mut self) -> Vec<Diagnostic> {
        self.take()
    }

    /// The diagnostics so far, ordered as [`Resolver::finish`] orders them; the resolver
    /// goes on empty (a live capture hands them over connection by connection).
    pub fn take(&mut self) -> Vec<Diagnostic> {
        self.diagnostics.sort_by(|a, b| {
            (a.primary.span.start, a.rule, &a.message).cmp(&(
                b.primary.span.start,
                b.rule,
                &b.message,
            ))
        });
        std::mem::take(&mut self.diagnostics)
    }

    /// Resolves one finding without adding it to the file's diagnostics, for run-level
    /// rules that decide later whether to report it.
    pub fn resolve_one(
        &mut self,
        finding: &Finding,
        exchange: Option<&Exchange<'_>>,
    ) -> Diagnostic {
        self.diagnostic(finding, exchange)
    }

    /// The 1-based line of a finding's primary label, as [`Resolver::resolve_one`] would
    /// place it, without cutting its windows: cheap for a `.http` capture.
    pub fn primary_line(&mut self, finding: &Finding, exchange: Option<&Exchange<'_>>) -> usize {
        self.primary_location(finding, exchange).start.line
    }

    /// The location of a finding's primary label, as [`Resolver::resolve_one`] would give
    /// it, without its windows, fingerprint or message.
    pub fn primary_location(
        &mut self,
        finding: &Finding,
        exchange: Option<&Exchange<'_>>,
    ) -> Location {
        if let Some(har) = &mut self.har {
            return har.primary_location(finding);
        }
        if let Some(wire) = &mut self.wire {
            return wire.place(finding, exchange, false).0;
        }
        let index = self
            .file_index
            .get_or_insert_with(|| LineIndex::new(self.bytes));
        let file = FileText {
            path: self.path,
            bytes: self.bytes,
            index,
        };
        file.location(&finding.primary, exchange)
    }

    fn diagnostic(&mut self, finding: &Finding, exchange: Option<&Exchange<'_>>) -> Diagnostic {
        let windows = self.windows;
        let (primary, related, snippets) = match (&mut self.har, &mut self.wire) {
            (Some(har), _) => har.place(finding, windows),
            (None, Some(wire)) => wire.place(finding, exchange, windows),
            (None, None) => self.place(finding, exchange),
        };
        if self.fingerprints.is_empty() {
            self.fingerprints = vec![None; RuleId::ALL.len()];
        }
        let identity = self.identity;
        let shared = *self.fingerprints[finding.rule.index()]
            .get_or_insert_with(|| Fingerprint::START.part(finding.rule.slug()).part(identity));
        let mut key = shared
            .part(finding.exchange.as_ref().map_or("", |a| a.key.as_str()))
            .part(finding.primary.member.as_deref().unwrap_or(""));
        // A pcap finding about a connection rather than an exchange (a hole, TLS) is
        // told apart from the others by its peers, which other traffic does not change.
        let peers = primary.frame.as_ref().and_then(|f| f.peers.as_deref());
        if let Some(peers) = peers.filter(|_| finding.exchange.is_none()) {
            key = key.part(peers);
        }
        let identity = key.finish();
        Diagnostic {
            rule: finding.rule,
            exchange: finding.exchange.as_ref().map(|a| a.index),
            fingerprint: identity,
            member: finding.primary.member.clone(),
            severity: finding.severity,
            message: mask_text(&finding.message),
            help: finding.help.as_deref().map(mask_text),
            primary,
            related,
            snippets,
        }
    }

    /// The locations of a finding's labels in the capture file and its windows.
    fn place(
        &mut self,
        finding: &Finding,
        exchange: Option<&Exchange<'_>>,
    ) -> (Location, Vec<Location>, Vec<Snippet>) {
        let file_index = self
            .file_index
            .get_or_insert_with(|| LineIndex::new(self.bytes));
        FileText {
            path: self.path,
            bytes: self.bytes,
            index: file_index,
        }
        .place(finding, exchange, self.windows)
    }
}

/// `text` with any credential in it replaced by `*` of the same length: finding messages
/// and labels quote capture text (an error's message, a reason), which may hold one.
pub(crate) fn mask_text(text: &str) -> String {
    let found = crate::input::secrets::find_in_text(text.as_bytes());
    if found.is_empty() {
        return text.to_string();
    }
    let mut bytes = text.as_bytes().to_vec();
    for range in found {
        bytes[range].fill(b'*');
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::source::Label;

    /// Without windows a diagnostic is the same but for its (empty) snippets, so formats
    /// that never show them lose nothing, fingerprints included.
    #[test]
    fn windows_off_changes_only_the_snippets() {
        let bytes = b"POST / HTTP/1.1\r\nContent-Type: text/plain\r\n\r\n{\"token\": \"x\"}\n";
        let finding = Finding::new(RuleId::ALL[0], Label::at(Span::new(5, 6), "here"), "m")
            .related(Label::at(Span::new(17, 29), "and here"));
        let resolve =
            |windows| (Resolver::new("x.http", bytes).windows(windows)).resolve_one(&finding, None);
        let (with, without) = (resolve(true), resolve(false));
        assert!(!with.snippets.is_empty() && without.snippets.is_empty());
        assert_eq!(
            Diagnostic {
                snippets: Vec::new(),
                ..with
            },
            without
        );
    }

    /// The primary location alone is where the whole diagnostic puts it, in a `.http`
    /// capture and in a HAR log; there, a label on the line end written after a body is
    /// placed on the body's member.
    #[test]
    fn primary_location_is_the_diagnostics_own() {
        let http = b"POST / HTTP/1.1\r\nContent-Type: text/plain\r\n\r\n{}\n".as_slice();
        let finding = Finding::new(RuleId::ALL[0], Label::at(Span::new(17, 29), "here"), "m");
        let mut resolver = Resolver::new("x.http", http);
        let alone = resolver.primary_location(&finding, None);
        assert_eq!(alone, resolver.resolve_one(&finding, None).primary);
        assert_eq!((alone.start.line, alone.start.column), (2, 1));

        let har = br#"{"log": {"entries": [{"request": {"method": "POST", "url": "http://h/",
  "httpVersion": "HTTP/1.1", "headers": [{"name": "Content-Type", "value": "text/plain"}]},
  "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1", "headers": [],
  "content": {"text": "{}"}}}]}}"#;
        let mut resolver = Resolver::for_har("x.har", har);
        let mut alone = None;
        crate::input::capture::har::for_each_laid_out_entry(har, &mut |entry| {
            resolver.enter_har_entry(&entry);
            let line_end = Span::new(entry.text.len() - 1, entry.text.len());
            let finding = Finding::new(RuleId::ALL[0], Label::at(line_end, "here"), "m");
            let primary = resolver.primary_location(&finding, None);
            assert_eq!(primary, resolver.resolve_one(&finding, None).primary);
            alone = Some(primary);
        });
        assert!(
            alone.as_ref().is_some_and(|at| at.start.line == 4),
            "{alone:?}"
        );
    }
}
