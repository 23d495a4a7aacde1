//! The text view of one wire exchange: the bytes the rules read, where each came from
//! in the capture file, and for HTTP/2 the parts of the exchange as spans of that text.

use std::borrow::Cow;

use crate::input::capture::model::{
    Body, Closed, Content, Ending, Exchange, GrpcBody, Header, Message, Origin, ReadProblem,
    StartLine, Version,
};
use crate::input::capture::wire::Connection;
use crate::input::source::Span;

/// One exchange read off the wire, written as text.
#[derive(Debug)]
pub struct WireExchange {
    /// 0-based position among the file's exchanges.
    pub index: usize,
    pub connection: Connection,
    /// The HTTP/2 stream id, for an exchange over HTTP/2.
    pub stream: Option<u32>,
    /// For HTTP/1.x, the exact wire bytes of the request, interim responses and response,
    /// read again with the `.http` framing. For HTTP/2, a view written from the decoded
    /// frames: a start line, pseudo-headers and headers, the body, trailers.
    pub text: Vec<u8>,
    /// Where the text came from, sorted by `text.start`.
    pub origins: Vec<TextOrigin>,
    pub parts: WireParts,
    pub end: ExchangeEnd,
    /// Problems the reader met in this exchange's frames whose spans are spans of
    /// `text` (a content coding that failed, a field with control bytes in it).
    pub problems: Vec<ReadProblem>,
}

/// How an exchange ended on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExchangeEnd {
    /// Both messages were complete (END_STREAM both ways, or HTTP/1.x framing met).
    Complete,
    /// An HTTP/2 RST_STREAM with this error code, sent by the client or the server.
    Reset {
        code: u32,
        by_client: bool,
        frame: u32,
    },
    /// The stream was beyond the last stream a GOAWAY in this frame accepted.
    GoAway { frame: u32 },
    /// The connection closed or the capture ended before the exchange finished.
    Unfinished,
    /// Unfinished, and the capture shows the connection closing (a FIN or RST): the
    /// peer that began closing it ended the exchange, not the capture.
    Closed { by_client: bool },
}

impl ExchangeEnd {
    /// The end of an exchange once it is known how the connection ended: `tcp` and
    /// `goaway` are the frames of each peer's first FIN or RST and of its GOAWAY (client
    /// first). A stream left unfinished when a peer closed the connection was ended by
    /// whoever began closing it, the first to send any of them; when neither sent a FIN
    /// or RST, the capture stopped with it open and it stays unfinished.
    pub fn after_close(self, tcp: [Option<u32>; 2], goaway: [Option<u32>; 2]) -> ExchangeEnd {
        if self != ExchangeEnd::Unfinished || tcp == [None, None] {
            return self;
        }
        let first = |side: usize| [tcp[side], goaway[side]].into_iter().flatten().min();
        let by_client = match (first(0), first(1)) {
            (Some(client), Some(server)) => client < server,
            (client, _) => client.is_some(),
        };
        ExchangeEnd::Closed { by_client }
    }
}

/// `text` bytes of the view came from the file bytes `file`, in frame `frame`. When
/// `exact`, byte `i` of `text` is byte `i` of `file` (payload copied as it was);
/// otherwise the text was decoded from those bytes (an HPACK header block) and any part
/// of it maps to all of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TextOrigin {
    pub text: Span,
    pub file: Span,
    pub frame: u32,
    pub exact: bool,
}

/// How the text view is turned into an exchange.
// One value per exchange, read and dropped at once: boxing the HTTP/2 parts would only
// add an allocation.
#[allow(clippy::large_enum_variant)]
#[derive(Debug)]
pub enum WireParts {
    /// HTTP/1.x bytes: read the text with `HttpReader`, as a `.http` capture.
    Http1,
    /// HTTP/2: the messages, as spans of the text.
    Http2 {
        request: Option<WireMessage>,
        /// 1xx responses (HEADERS with an informational `:status`) before the final one.
        interim: Vec<WireMessage>,
        response: Option<WireMessage>,
    },
}

/// One HTTP/2 message as spans of its exchange's text view.
#[derive(Debug, Clone)]
pub struct WireMessage {
    /// The written start line (`POST /path HTTP/2` or `HTTP/2 200`), and its parts.
    pub start_line: Span,
    /// The method and path (request) or the status digits (response).
    pub first: Span,
    pub second: Span,
    /// `(name, value)` spans of every field, pseudo-headers first, in wire order.
    pub headers: Vec<(Span, Span)>,
    /// `(name, value)` spans of the trailer fields, if a trailing HEADERS frame came.
    pub trailers: Vec<(Span, Span)>,
    pub body: WireBody,
    /// For a gRPC message: its messages and decoded Status, as spans of the text.
    pub grpc: Option<WireGrpc>,
    /// From the start line to the end of the last trailer.
    pub span: Span,
}

/// The parts of a gRPC message in the text view.
#[derive(Debug, Clone, Default)]
pub struct WireGrpc {
    /// Each message's JSON (or the line saying why there is none), and whether it is JSON.
    pub messages: Vec<(Span, bool)>,
    /// The JSON of the Status decoded from `grpc-status-details-bin`.
    pub status: Option<Span>,
}

/// An HTTP/2 message body: the DATA payloads joined, as written in the text.
#[derive(Debug, Clone)]
pub struct WireBody {
    pub raw: Span,
    /// The bytes after undoing `content-encoding`, when they differ from the raw ones;
    /// `None` when the raw bytes are the content.
    pub decoded: Option<Vec<u8>>,
    /// The content coding could not be undone (the reader recorded a problem).
    pub undecodable: bool,
    /// The stream ended before END_STREAM (reset, GOAWAY, end of capture).
    pub cut: bool,
}

impl WireExchange {
    /// The exchange the rules read, for an HTTP/2 view; `None` for HTTP/1.x, whose text
    /// is read with `HttpReader`.
    pub fn http2_exchange(&self) -> Option<Exchange<'_>> {
        let WireParts::Http2 {
            request,
            interim,
            response,
        } = &self.parts
        else {
            return None;
        };
        let text = &self.text;
        Some(Exchange {
            index: self.index,
            request: request.as_ref().map(|m| message(text, m, true)),
            interim: interim.iter().map(|m| message(text, m, false)).collect(),
            response: response.as_ref().map(|m| message(text, m, false)),
            ending: match self.end {
                ExchangeEnd::Reset {
                    code, by_client, ..
                } => Some(Ending::Reset { code, by_client }),
                ExchangeEnd::GoAway { .. } => Some(Ending::Refused),
                ExchangeEnd::Complete | ExchangeEnd::Unfinished | ExchangeEnd::Closed { .. } => {
                    None
                }
            },
            closed: match self.end {
                ExchangeEnd::Closed { by_client } => Some(Closed { by_client }),
                _ => None,
            },
        })
    }
}

fn message<'t>(text: &'t [u8], m: &'t WireMessage, is_request: bool) -> Message<'t> {
    let as_str = |span: Span| std::str::from_utf8(&text[span.range()]).unwrap_or("");
    let start_line = if is_request {
        StartLine::Request {
            method: as_str(m.first),
            target: as_str(m.second),
        }
    } else {
        StartLine::Response {
            status: as_str(m.first).parse().unwrap_or(0),
            reason: "",
        }
    };
    let header = |&(name, value): &(Span, Span)| Header {
        name: as_str(name),
        value: &text[value.range()],
        name_span: name,
        value_span: value,
    };
    let content = if m.body.undecodable {
        None
    } else {
        Some(match &m.body.decoded {
            Some(decoded) => Content {
                bytes: Cow::Borrowed(decoded.as_slice()),
                origin: Origin::Decoded,
            },
            None => Content {
                bytes: Cow::Borrowed(&text[m.body.raw.range()]),
                origin: Origin::Verbatim {
                    start: m.body.raw.start,
                },
            },
        })
    };
    Message {
        start_line,
        start_line_span: m.start_line,
        version: Version::Http2,
        headers: m.headers.iter().map(header).collect(),
        trailers: m.trailers.iter().map(header).collect(),
        body: Body {
            raw: m.body.raw,
            content,
            cut: m.body.cut,
        },
        span: m.span,
        comments: Vec::new(),
        grpc: m.grpc.as_ref().map(|grpc| GrpcBody {
            // Body content starts at the raw body, so message spans are moved onto it.
            messages: (grpc.messages.iter())
                .map(|&(span, json)| {
                    let start = m.body.raw.start;
                    (Span::new(span.start - start, span.end - start), json)
                })
                .collect(),
            status: grpc.status.map(|span| Content {
                bytes: Cow::Borrowed(&text[span.range()]),
                origin: Origin::Verbatim { start: span.start },
            }),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::ExchangeEnd;

    #[test]
    fn the_first_to_close_ended_an_unfinished_exchange() {
        let open = ExchangeEnd::Unfinished;
        let closed = |by_client| ExchangeEnd::Closed { by_client };
        // Neither FIN nor RST: the capture stopped, whatever GOAWAY came.
        assert_eq!(open.after_close([None, None], [None, Some(7)]), open);
        assert_eq!(
            open.after_close([Some(9), Some(11)], [None, None]),
            closed(true)
        );
        assert_eq!(
            open.after_close([Some(11), Some(9)], [None, None]),
            closed(false)
        );
        assert_eq!(
            open.after_close([None, Some(9)], [None, None]),
            closed(false)
        );
        // A server's GOAWAY before the client's FIN: the server began closing.
        assert_eq!(
            open.after_close([Some(9), Some(11)], [None, Some(7)]),
            closed(false)
        );
        assert_eq!(
            open.after_close([Some(9), None], [Some(8), Some(7)]),
            closed(false)
        );
        // An exchange that ended otherwise keeps its end.
        let done = ExchangeEnd::Complete;
        assert_eq!(done.after_close([Some(9), Some(11)], [None, None]), done);
    }
}
