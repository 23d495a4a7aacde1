//! The corpus's HTTP messages and exchanges, and how a file is written (`Style`).

use super::rng::Rng;

/// How a file is written.
#[derive(Clone, Copy, Debug)]
pub struct Style {
    pub crlf: bool,
    /// Exact wire bytes as recorders write them (each start line right after the previous
    /// body), rather than hand-edited text with `###` separators, titles and blank lines.
    pub wire: bool,
}

impl Style {
    pub fn random(rng: &mut Rng) -> Style {
        Style {
            crlf: rng.chance(0.5),
            wire: rng.chance(0.5),
        }
    }

    pub(super) fn nl(&self) -> &'static str {
        if self.crlf { "\r\n" } else { "\n" }
    }
}

#[derive(Clone, Debug)]
pub enum Start {
    Request { method: &'static str, path: String },
    Response { status: u16, reason: &'static str },
}

/// How a body is framed on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Framing {
    Length,
    Chunked,
    /// No framing header: the body runs to the next delimiter (hand-edited files only).
    ToDelimiter,
    /// A `Content-Length` off by this many bytes (a capture edited by hand).
    WrongLength(i64),
}

#[derive(Clone, Debug)]
pub struct Message {
    pub start: Start,
    /// Headers other than the framing ones (`Content-Length`, `Transfer-Encoding`,
    /// `Content-Encoding`), which the writers add.
    pub headers: Vec<(&'static str, String)>,
    /// The body as a client would see it (not compressed, not chunked).
    pub body: Vec<u8>,
    pub framing: Framing,
    pub gzip: bool,
    /// For chunked streams: where the sender flushed (one chunk per event).
    pub chunks: Vec<usize>,
}

impl Message {
    fn new(start: Start, headers: Vec<(&'static str, String)>) -> Message {
        Message {
            start,
            headers,
            body: Vec::new(),
            framing: Framing::Length,
            gzip: false,
            chunks: Vec::new(),
        }
    }

    pub(super) fn request(method: &'static str, path: impl Into<String>) -> Message {
        let path = path.into();
        Message::new(
            Start::Request { method, path },
            vec![("Host", "agent.example".into())],
        )
    }

    pub(super) fn response(status: u16) -> Message {
        let reason = reason_phrase(status);
        Message::new(Start::Response { status, reason }, Vec::new())
    }

    pub(super) fn header(mut self, name: &'static str, value: impl Into<String>) -> Message {
        self.headers.push((name, value.into()));
        self
    }

    pub(super) fn json(mut self, content_type: &str, body: Vec<u8>) -> Message {
        self.headers
            .push(("Content-Type", content_type.to_string()));
        self.body = body;
        self
    }

    /// The same message sent chunked, flushed at `chunks` (empty: in pieces of a few KiB).
    pub(super) fn chunked(mut self, chunks: Vec<usize>) -> Message {
        self.framing = Framing::Chunked;
        self.chunks = chunks;
        self
    }

    /// Drops the `A2A-Version` header, as clients that predate it send requests.
    pub(super) fn drop_version(&mut self) {
        self.headers.retain(|(name, _)| *name != "A2A-Version");
    }
}

fn reason_phrase(status: u16) -> &'static str {
    match status {
        200 => "OK",
        201 => "Created",
        400 => "Bad Request",
        401 => "Unauthorized",
        404 => "Not Found",
        405 => "Method Not Allowed",
        409 => "Conflict",
        415 => "Unsupported Media Type",
        500 => "Internal Server Error",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        _ => "Error",
    }
}

#[derive(Clone, Debug)]
pub struct Exchange {
    /// A title for the `###` line of hand-edited files.
    pub title: &'static str,
    pub request: Message,
    pub response: Option<Message>,
}

impl Exchange {
    /// A request and the response it got.
    pub(super) fn new(title: &'static str, request: Message, response: Message) -> Exchange {
        Exchange {
            title,
            request,
            response: Some(response),
        }
    }
}
