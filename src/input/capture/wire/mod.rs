//! The wire reader: pcap and pcapng captures become packets, packets TCP connections,
//! connections HTTP/1.x or HTTP/2 exchanges. Each exchange is written as a text view (what
//! Wireshark's "Follow stream" shows) whose every byte knows the frame and file bytes it
//! came from, so the rules read it like a `.http` capture and findings point at frames.

mod container;
mod copies;
pub mod grpc;
pub mod h2;
mod http1;
mod link;
mod live;
mod read;
mod rewrite;
mod tcp;
mod text;

use std::net::SocketAddr;

pub use container::is_pcap;
pub use copies::{Copy, payload_copies};
pub use live::{LiveEvent, LiveReader};
pub use read::{frame_offsets, read_pcap, read_pcap_literals};
pub use rewrite::refresh_checksums;
pub use text::{ExchangeEnd, TextOrigin, WireBody, WireExchange, WireGrpc, WireMessage, WireParts};

use crate::input::capture::model::ReadProblem;
use crate::input::source::Span;

/// Spans at or past this offset are spans of the pcap file itself, moved up by it:
/// problems about packets and frames rather than the text of an exchange. No exchange's
/// text view is this long.
pub const FILE_SPANS: usize = usize::MAX / 2;

/// A span of the capture file itself, for a problem about frames rather than a text view.
pub fn file_span(span: Span) -> Span {
    span.shift(FILE_SPANS)
}

/// The capture-file span that [`file_span`] moved up, if `span` is one.
pub fn unshift_file_span(span: Span) -> Option<Span> {
    (span.start >= FILE_SPANS).then(|| Span::new(span.start - FILE_SPANS, span.end - FILE_SPANS))
}

/// A TCP connection, as a person names it: numbered in the order its first frame
/// appears, client and server by who opened it (or who spoke HTTP first).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Connection {
    /// 1-based, in order of first frame.
    pub number: usize,
    pub client: SocketAddr,
    pub server: SocketAddr,
}

impl std::fmt::Display for Connection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} → {}", self.client, self.server)
    }
}

/// One direction of a reassembled TCP connection: its bytes in sequence order up to the
/// first byte the capture does not hold, and where every run of them sits in the file.
#[derive(Debug, Default)]
pub struct Stream {
    pub bytes: Vec<u8>,
    /// Sorted by `at`; together they cover `bytes` exactly.
    pub pieces: Vec<StreamPiece>,
    pub end: StreamEnd,
}

/// `len` bytes of a stream starting at `at` are the file's bytes starting at `file`, in
/// the TCP payload of frame `frame` (1-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StreamPiece {
    pub at: usize,
    pub file: usize,
    pub len: usize,
    pub frame: u32,
}

/// How one direction of a connection ended in the capture.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum StreamEnd {
    /// The capture ended with the direction still open.
    #[default]
    CaptureEnd,
    /// A FIN in this frame: every byte before it was sent.
    Fin { frame: u32 },
    /// A RST in this frame (sent by either peer).
    Reset { frame: u32 },
    /// Bytes the capture does not hold follow `bytes`: the stream stops at the gap.
    Gap {
        /// The last frame whose bytes were read (none: the hole is at the start), and the
        /// first one after the hole.
        before: Option<u32>,
        after: u32,
        /// How many bytes are missing, when known.
        missing: Option<u64>,
        /// The capture's snapshot length cut frame `after` short.
        snapshot: bool,
    },
}

impl Stream {
    /// The frame and file bytes of stream bytes `range`: exact when they sit in one
    /// frame's payload, else from the first byte to the end of the first piece they touch.
    pub fn locate(&self, range: std::ops::Range<usize>) -> Option<(u32, Span)> {
        let index = self.pieces.partition_point(|p| p.at + p.len <= range.start);
        let piece = self.pieces.get(index)?;
        let start = piece.file + (range.start - piece.at);
        let piece_end = piece.file + piece.len;
        let end = (piece.file + range.end.saturating_sub(piece.at)).min(piece_end);
        Some((piece.frame, Span::new(start, end.max(start))))
    }

    /// The frame holding stream byte `at`, or the last frame if `at` is past the end.
    pub fn frame_at(&self, at: usize) -> Option<u32> {
        let index = self.pieces.partition_point(|p| p.at + p.len <= at);
        self.pieces
            .get(index)
            .or(self.pieces.last())
            .map(|p| p.frame)
    }
}

/// What was read from one pcap or pcapng file besides its exchanges.
#[derive(Debug, Default)]
pub struct Wire {
    /// Problems about the file and its frames; their spans are [`file_span`]s.
    pub problems: Vec<ReadProblem>,
    /// Problems about one connection (a hole, TLS, an HTTP/2 protocol error), with it:
    /// findings name it, and fingerprints hold when other traffic is added.
    pub connection_problems: Vec<(Connection, ReadProblem)>,
    /// Each frame's packet bytes in the file: frame `n` is `frames[n - 1]`.
    pub frames: Vec<Span>,
    /// Read live, instead: the frames of the connection read, by frame number.
    pub live_frames: Vec<(u32, Span)>,
    pub counts: WireCounts,
}

impl Wire {
    /// The file span of frame `frame`'s packet bytes, as a [`file_span`].
    pub fn frame_span(&self, frame: u32) -> Span {
        let span = match self.live_frames.binary_search_by_key(&frame, |f| f.0) {
            Ok(i) => Some(self.live_frames[i].1),
            Err(_) => self.frames.get((frame as usize).saturating_sub(1)).copied(),
        };
        file_span(span.unwrap_or_default())
    }

    /// Where each frame's packet bytes start, with its number, in file order.
    pub fn frame_starts(&self) -> Vec<(usize, u32)> {
        let all = (self.frames.iter().enumerate()).map(|(i, f)| (f.start, i as u32 + 1));
        let live = self.live_frames.iter().map(|&(n, f)| (f.start, n));
        all.chain(live).collect()
    }
}

/// What the reader saw and what it left alone, for the summary.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WireCounts {
    pub frames: usize,
    pub connections: usize,
    /// Connections read as HTTP/1.x or HTTP/2.
    pub http_connections: usize,
    /// Frames that are not TCP over IP, and TCP connections that carry neither HTTP nor
    /// TLS: skipped silently.
    pub skipped_frames: usize,
    pub skipped_connections: usize,
    pub tls_connections: usize,
}
