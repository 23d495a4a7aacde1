//! The reader's output: exchanges of request and response messages, every part with its
//! byte span in the capture file. Plain data; the framing logic lives in `http.rs`.

use std::borrow::Cow;

use crate::input::source::Span;

/// Everything read from one capture file.
#[derive(Debug, Default)]
pub struct Capture<'s> {
    pub exchanges: Vec<Exchange<'s>>,
    pub problems: Vec<ReadProblem>,
}

/// A request and the response that answered it, in wire order. Either side may be
/// missing when the capture holds an unpaired message.
#[derive(Debug)]
pub struct Exchange<'s> {
    /// 0-based position of the exchange in its capture.
    pub index: usize,
    pub request: Option<Message<'s>>,
    /// 1xx responses received before the final one.
    pub interim: Vec<Message<'s>>,
    pub response: Option<Message<'s>>,
    /// How a peer ended the exchange before it completed, when the wire says so.
    pub ending: Option<Ending>,
    /// For an exchange left unfinished: the connection under it closed, rather than the
    /// capture stopping while it was open.
    pub closed: Option<Closed>,
}

/// A connection that closed with an exchange on it unfinished. Whoever sent the first
/// GOAWAY, FIN or RST closed it (RFC 9113 §6.8, RFC 9293 §3.6); the other peer only
/// followed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Closed {
    pub by_client: bool,
}

/// A peer's end of an unfinished HTTP/2 stream (RFC 9113 §5.4, §6.4, §6.8).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// RST_STREAM with this error code.
    Reset { code: u32, by_client: bool },
    /// The stream was past the last one the server's GOAWAY accepted: never processed.
    Refused,
}

impl Ending {
    /// The RST_STREAM error code's name (RFC 9113 §7).
    pub fn code_name(code: u32) -> String {
        const NAMES: [&str; 14] = [
            "NO_ERROR",
            "PROTOCOL_ERROR",
            "INTERNAL_ERROR",
            "FLOW_CONTROL_ERROR",
            "SETTINGS_TIMEOUT",
            "STREAM_CLOSED",
            "FRAME_SIZE_ERROR",
            "REFUSED_STREAM",
            "CANCEL",
            "COMPRESSION_ERROR",
            "CONNECT_ERROR",
            "ENHANCE_YOUR_CALM",
            "INADEQUATE_SECURITY",
            "HTTP_1_1_REQUIRED",
        ];
        NAMES
            .get(code as usize)
            .map_or_else(|| format!("error code {code:#x}"), |n| n.to_string())
    }
}

impl<'s> Exchange<'s> {
    pub fn message(&self, side: Side) -> Option<&Message<'s>> {
        match side {
            Side::Request => self.request.as_ref(),
            Side::Response => self.response.as_ref(),
        }
    }

    /// The comment lines before the exchange's messages.
    pub fn comments(&self) -> impl Iterator<Item = Span> + '_ {
        self.request
            .iter()
            .chain(self.response.iter())
            .flat_map(|m| m.comments.iter().copied())
    }

    /// Start offset of the exchange's first message, for ordering findings.
    pub fn start(&self) -> usize {
        self.request
            .as_ref()
            .or(self.response.as_ref())
            .map_or(0, |m| m.span.start)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    Request,
    Response,
}

impl Side {
    pub fn name(self) -> &'static str {
        match self {
            Side::Request => "request",
            Side::Response => "response",
        }
    }
}

/// One HTTP/1.x message.
#[derive(Debug)]
pub struct Message<'s> {
    pub start_line: StartLine<'s>,
    pub start_line_span: Span,
    pub version: Version,
    pub headers: Vec<Header<'s>>,
    /// Fields sent after the body: HTTP/2 trailers (a trailing HEADERS frame). Chunked
    /// trailers of HTTP/1.1 stay in the body's raw bytes.
    pub trailers: Vec<Header<'s>>,
    pub body: Body<'s>,
    /// From the first byte of the start line to the last byte of the body.
    pub span: Span,
    /// The `#` and `//` comment lines just before the message.
    pub comments: Vec<Span>,
    /// For a gRPC message read off the wire: its messages and decoded Status.
    pub grpc: Option<GrpcBody<'s>>,
}

/// A gRPC message's body as the view wrote it (gRPC over HTTP/2, A2A §10): each
/// length-prefixed message as proto3 JSON, and the `google.rpc.Status` of
/// `grpc-status-details-bin` decoded into JSON of its own.
#[derive(Debug, Default)]
pub struct GrpcBody<'s> {
    /// Each message's span in the body content, and whether that span holds its JSON
    /// (a message with no schema, or one that does not decode, is a line saying so).
    pub messages: Vec<(Span, bool)>,
    /// The decoded Status as JSON, to read and to label.
    pub status: Option<Content<'s>>,
}

impl<'s> Message<'s> {
    /// The first header named `name` (ASCII case-insensitive).
    pub fn header(&self, name: &str) -> Option<&Header<'s>> {
        self.headers
            .iter()
            .find(|h| h.name.eq_ignore_ascii_case(name))
    }

    pub fn method(&self) -> Option<&'s str> {
        match self.start_line {
            StartLine::Request { method, .. } => Some(method),
            StartLine::Response { .. } => None,
        }
    }

    pub fn status(&self) -> Option<u16> {
        match self.start_line {
            StartLine::Response { status, .. } => Some(status),
            StartLine::Request { .. } => None,
        }
    }
}

/// The HTTP version a message was sent with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Version {
    Http10,
    Http11,
    /// Read off the wire from HTTP/2 frames; the start line is written by a2alint.
    Http2,
}

#[derive(Debug, Clone, Copy)]
pub enum StartLine<'s> {
    Request { method: &'s str, target: &'s str },
    Response { status: u16, reason: &'s str },
}

/// A header line, borrowed from the capture.
#[derive(Debug, Clone, Copy)]
pub struct Header<'s> {
    pub name: &'s str,
    pub value: &'s [u8],
    pub name_span: Span,
    pub value_span: Span,
}

impl Header<'_> {
    /// The value as text, if it is UTF-8.
    pub fn value_str(&self) -> Option<&str> {
        std::str::from_utf8(self.value).ok()
    }

    /// The whole `Name: value` line.
    pub fn span(&self) -> Span {
        Span::new(self.name_span.start, self.value_span.end)
    }
}

/// A message body: where its raw bytes sit in the capture and, when the framing and
/// content coding could be undone, the bytes a client would see.
#[derive(Debug, Default)]
pub struct Body<'s> {
    pub raw: Span,
    /// `None` when the bytes could not be recovered (broken chunked framing, an unknown
    /// or corrupt content coding); the reader has recorded a problem for it.
    pub content: Option<Content<'s>>,
    /// The body stopped before its framing said it ends: the connection closed or the
    /// capture ended mid-body (a client that closed an event stream, say). What arrived
    /// is content; a half event or message at the cut is not judged.
    pub cut: bool,
}

impl<'s> Body<'s> {
    /// The decoded bytes, when there are any.
    pub fn bytes(&self) -> Option<&[u8]> {
        self.content.as_ref().map(|c| c.bytes.as_ref())
    }
}

/// Decoded body bytes and how to map positions in them back to the capture.
#[derive(Debug)]
pub struct Content<'s> {
    pub bytes: Cow<'s, [u8]>,
    pub origin: Origin,
}

/// How decoded body positions relate to capture bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// The body bytes are the capture bytes starting at this offset.
    Verbatim { start: usize },
    /// De-chunked: each piece of decoded bytes came from a chunk's data in the capture.
    Chunked(Vec<Piece>),
    /// Decompressed: the decoded bytes exist nowhere in the capture, so findings in them
    /// point into a separate source named after the body.
    Decoded,
}

/// `len` decoded bytes starting at `decoded` came from capture bytes starting at `raw`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Piece {
    pub decoded: usize,
    pub raw: usize,
    pub len: usize,
}

impl Content<'_> {
    /// The capture span of decoded range `span`, or `None` for decompressed content.
    pub fn capture_span(&self, span: Span) -> Option<Span> {
        match &self.origin {
            Origin::Verbatim { start } => Some(span.shift(*start)),
            Origin::Chunked(pieces) => {
                let start = map_pieces(pieces, span.start, false);
                let end = map_pieces(pieces, span.end, true).max(start);
                Some(Span::new(start, if span.is_empty() { start } else { end }))
            }
            Origin::Decoded => None,
        }
    }
}

/// Maps an offset in bytes joined from `pieces` back to where it came from. A start offset
/// on a boundary maps to the next piece, an end offset to the end of the previous one, so
/// a span never covers the framing between pieces.
pub fn map_pieces(pieces: &[Piece], offset: usize, is_end: bool) -> usize {
    let index = pieces.partition_point(|p| {
        let piece_end = p.decoded + p.len;
        if is_end {
            piece_end < offset
        } else {
            piece_end <= offset
        }
    });
    match pieces.get(index).or(pieces.last()) {
        Some(p) => p.raw + (offset.saturating_sub(p.decoded)).min(p.len),
        None => 0,
    }
}

/// Something the reader found wrong with the bytes themselves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReadProblem {
    /// Bytes that should be an HTTP/1.x message but cannot be read as one.
    Syntax {
        span: Span,
        message: String,
        help: &'static str,
        /// Whether the bytes were skipped up to the next separator or start line, rather
        /// than read as well as they could be.
        skipped: bool,
    },
    /// `Content-Length` disagrees with the bytes before the next message.
    LengthMismatch {
        header: Span,
        declared: u64,
        actual: usize,
        body: Span,
    },
    /// A content coding that could not be undone.
    Undecodable {
        header: Span,
        coding: String,
        reason: String,
    },
    /// Bytes the capture does not hold, or cannot show (a gap in a TCP stream, a packet
    /// cut by the snapshot length, an encrypted connection, an event stream that stopped
    /// mid-way). Nothing after it is guessed.
    Incomplete {
        span: Span,
        message: String,
        help: String,
        /// Only worth a note: nothing that was sent is missing (a client closed a stream).
        note: bool,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunked_positions_map_back_to_chunk_data() {
        let pieces = vec![
            Piece {
                decoded: 0,
                raw: 10,
                len: 4,
            },
            Piece {
                decoded: 4,
                raw: 20,
                len: 3,
            },
        ];
        let content = Content {
            bytes: Cow::Borrowed(b"abcdefg"),
            origin: Origin::Chunked(pieces),
        };
        assert_eq!(
            content.capture_span(Span::new(1, 2)),
            Some(Span::new(11, 12))
        );
        assert_eq!(
            content.capture_span(Span::new(5, 7)),
            Some(Span::new(21, 23))
        );
        assert_eq!(
            content.capture_span(Span::new(3, 5)),
            Some(Span::new(13, 21))
        );
        assert_eq!(
            content.capture_span(Span::new(4, 4)),
            Some(Span::new(20, 20))
        );
    }
}
