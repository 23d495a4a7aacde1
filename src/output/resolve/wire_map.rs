//! Places findings about a pcap file. Rules ran on the text view of each exchange
//! (`capture::wire`); here a label in that text is traced back to the frames its bytes
//! came from, and its window shows the text view under a heading that names the frame,
//! the connection and the HTTP/2 stream. Problems about frames themselves (a hole in a
//! stream, TLS) carry spans of the file and are placed on their frame.

use crate::finding::Finding;
use crate::input::capture::Exchange;
use crate::input::capture::wire::{Connection, TextOrigin, WireExchange, unshift_file_span};
use crate::input::source::{Label, Target};
use crate::input::source::{LineCol, LineIndex, Span};
use crate::output::resolve::file_text::FileText;
use crate::output::resolve::snippet::{Snippet, SourceText};
use crate::output::resolve::{FramePlace, Location, mask_text};

pub struct WireMap<'r> {
    path: &'r str,
    /// The file's length (of a live capture: unknown, `usize::MAX`).
    file_len: usize,
    /// Where each frame's packet bytes start, and its number: known once the file (or
    /// the connection of a live capture) is read, before any finding about frames.
    frames: Vec<(usize, u32)>,
    current: Option<Current>,
    /// The connection that findings about frames are about, if any: its number and peers.
    connection: Option<(usize, String)>,
}

/// The exchange being linted: its text view and where the text came from.
struct Current {
    index: usize,
    text: Vec<u8>,
    lines: LineIndex,
    origins: Vec<TextOrigin>,
    /// Its connection's number and peers.
    connection: (usize, String),
    stream: Option<u32>,
}

impl<'r> WireMap<'r> {
    pub fn new(path: &'r str, file_len: usize) -> Self {
        WireMap {
            path,
            file_len,
            frames: Vec::new(),
            current: None,
            connection: None,
        }
    }

    pub fn set_frames(&mut self, frames: Vec<(usize, u32)>) {
        self.frames = frames;
    }

    pub fn enter_connection(&mut self, connection: Option<&Connection>) {
        let Some(connection) = connection else {
            self.connection = None;
            return;
        };
        self.entered(connection);
    }

    /// Enters `connection` and gives its number and peers. Entered again for every
    /// exchange with findings: the peers are written once per connection (numbers are
    /// unique in a capture), not once per exchange.
    fn entered(&mut self, connection: &Connection) -> (usize, String) {
        let entered = match self.connection.take() {
            Some(same) if same.0 == connection.number => same,
            _ => (connection.number, connection.to_string()),
        };
        self.connection = Some(entered.clone());
        entered
    }

    pub fn enter(&mut self, exchange: &WireExchange) {
        let connection = self.entered(&exchange.connection);
        if self
            .current
            .as_ref()
            .is_some_and(|c| c.index == exchange.index)
        {
            return;
        }
        self.current = Some(Current {
            index: exchange.index,
            text: exchange.text.clone(),
            lines: LineIndex::new(&exchange.text),
            origins: exchange.origins.clone(),
            connection,
            stream: exchange.stream,
        });
    }

    pub fn place(
        &mut self,
        finding: &Finding,
        exchange: Option<&Exchange<'_>>,
        windows: bool,
    ) -> (Location, Vec<Location>, Vec<Snippet>) {
        if let Some(span) = unshift_file_span(finding.primary.span)
            .filter(|_| finding.primary.target == Target::File)
        {
            return self.place_on_frame(finding, span, windows);
        }
        let Some(current) = &self.current else {
            return self.place_on_frame(finding, Span::default(), windows);
        };
        let heading = heading(self.path, current, &finding.primary, exchange);
        let text = FileText {
            path: &heading,
            bytes: &current.text,
            index: &current.lines,
        };
        let (primary, related, mut snippets) = text.place(finding, exchange, windows);
        // A window of the text view is named by the view, not by `path#...`: the name
        // already says which file it is.
        for snippet in &mut snippets {
            if let Some(body) =
                (snippet.name.strip_prefix(heading.as_str())).filter(|b| !b.is_empty())
            {
                snippet.name = format!("{heading}, body {}", body.trim_start_matches('#'));
            }
        }
        let onto_wire =
            |location: Location, label: &Label| self.onto_wire(current, location, label);
        let primary = onto_wire(primary, &finding.primary);
        let related = (related.into_iter().zip(&finding.related))
            .map(|(location, label)| onto_wire(location, label))
            .collect();
        (primary, related, snippets)
    }

    /// A location in the current text view, moved onto the frames its bytes came from.
    fn onto_wire(&self, current: &Current, location: Location, label: &Label) -> Location {
        let text_span = match label.target {
            Target::File => label.span,
            // A label inside a decoded body sits, on the wire, on that body's bytes.
            Target::DecodedBody { .. } => location.span,
        };
        let (file, first, last) = file_bytes(&current.origins, text_span);
        Location {
            span: file,
            start: frame_line(first),
            end: frame_line(last),
            body: location.body,
            text: location.text,
            frame: Some(FramePlace {
                frame: first,
                last_frame: last,
                connection: Some(current.connection.0),
                peers: Some(current.connection.1.clone()),
                stream: current.stream,
            }),
        }
    }

    /// A finding about frames: placed on its frame, shown as a one-line summary of it.
    fn place_on_frame(
        &self,
        finding: &Finding,
        span: Span,
        windows: bool,
    ) -> (Location, Vec<Location>, Vec<Snippet>) {
        let span = Span::new(span.start.min(self.file_len), span.end.min(self.file_len));
        let frame = self.frame_of(span.start);
        let last = self.frame_of(span.end.saturating_sub(1).max(span.start));
        let location = Location {
            span,
            start: frame_line(frame),
            end: frame_line(last),
            body: None,
            text: mask_text(&finding.primary.text),
            frame: Some(FramePlace {
                frame,
                last_frame: last,
                connection: self.connection.as_ref().map(|c| c.0),
                peers: self.connection.as_ref().map(|c| c.1.clone()),
                stream: None,
            }),
        };
        if !windows {
            return (location, Vec::new(), Vec::new());
        }
        let line = format!(
            "frame {frame}: bytes {}..{} of the file ({} bytes)",
            span.start,
            span.end,
            span.len()
        );
        let index = LineIndex::new(line.as_bytes());
        let label_start = line.find(':').map_or(0, |i| i + 2);
        let snippet = SourceText {
            name: format!("{} frame {frame}", self.path),
            bytes: line.as_bytes(),
            index: &index,
            hidden: &[],
        }
        .snippet(&[(
            Span::new(label_start, line.len()),
            location.text.as_str(),
            true,
        )]);
        (location, Vec::new(), vec![snippet])
    }

    /// The frame whose packet bytes hold file offset `offset`.
    fn frame_of(&self, offset: usize) -> u32 {
        let after = self.frames.partition_point(|&(start, _)| start <= offset);
        self.frames.get(after.saturating_sub(1)).map_or(1, |f| f.1)
    }
}

/// What a text view's window is called: the file, the frame the label's bytes came
/// from, the connection and the HTTP/2 stream.
fn heading(
    path: &str,
    current: &Current,
    label: &Label,
    exchange: Option<&Exchange<'_>>,
) -> String {
    // A label inside a decoded body is on the wire where that body's bytes are.
    let span = match label.target {
        Target::File => label.span,
        Target::DecodedBody { side, .. } => {
            (exchange.and_then(|e| e.message(side))).map_or(Span::default(), |m| m.body.raw)
        }
    };
    let frame = file_bytes(&current.origins, span).1;
    let stream = current
        .stream
        .map_or(String::new(), |id| format!(", stream {id}"));
    format!(
        "{path} frame {frame} (connection {} {}{stream})",
        current.connection.0, current.connection.1
    )
}

/// The file bytes of text span `span`, and the first and last frame they came from.
fn file_bytes(origins: &[TextOrigin], span: Span) -> (Span, u32, u32) {
    let first = origins.partition_point(|o| o.text.end <= span.start);
    let Some(origin) = origins.get(first).or(origins.last()) else {
        return (Span::default(), 0, 0);
    };
    let start = file_offset(origin, span.start, origin.file.start);
    let last_index = origins
        .partition_point(|o| o.text.start < span.end.max(span.start + 1))
        .saturating_sub(1)
        .max(first);
    let last = origins.get(last_index).unwrap_or(origin);
    let end = file_offset(last, span.end, last.file.end);
    // Over several frames the range runs through the bytes between them (other
    // packets' headers): still the shortest range of the file that holds the label.
    (Span::new(start, end.max(start)), origin.frame, last.frame)
}

/// Where text offset `at` is in the file: the same byte of an exact origin, `otherwise`
/// for one decoded from its bytes (any of them stands for all).
fn file_offset(origin: &TextOrigin, at: usize, otherwise: usize) -> usize {
    if origin.exact {
        origin.file.start + at.saturating_sub(origin.text.start).min(origin.file.len())
    } else {
        otherwise
    }
}

fn frame_line(frame: u32) -> LineCol {
    LineCol {
        line: frame as usize,
        column: 1,
    }
}
