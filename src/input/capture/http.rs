//! Frames a `.http` capture into exchanges: finds each message, reads its head, frames its
//! body by `Content-Length`, chunked encoding or the next delimiter, undoes content
//! codings, pairs requests with responses, and resynchronises after broken bytes.

use std::borrow::Cow;
use std::collections::VecDeque;

use crate::input::capture::chunked::dechunk;
use crate::input::capture::encoding::decode;
use crate::input::capture::head::{Head, parse_head};
use crate::input::capture::lines::{
    is_boundary, is_delimiter_line, is_start_line, line_at, next_delimiter, skip_trivia,
    trim_trailing_blank,
};
use crate::input::capture::list::{Item, item_is};
use crate::input::capture::model::{
    Body, Capture, Content, Exchange, Header, Message, Origin, ReadProblem, StartLine, Version,
};
use crate::input::source::Span;

/// Reads every exchange of a `.http` capture at once. Never fails: what cannot be read
/// becomes a [`ReadProblem`] and reading resumes at the next separator or start line.
pub fn read_http(src: &[u8]) -> Capture<'_> {
    let mut reader = HttpReader::new(src);
    let exchanges = reader.by_ref().collect();
    Capture {
        exchanges,
        problems: reader.into_problems(),
    }
}

/// Reads a `.http` capture one exchange at a time, so a large capture never has all its
/// exchanges in memory. Problems met on the way are kept until the caller asks for them.
pub struct HttpReader<'s> {
    src: &'s [u8],
    pos: usize,
    problems: Vec<ReadProblem>,
    /// A request still waiting for its final response.
    pending: Option<Message<'s>>,
    interim: Vec<Message<'s>>,
    /// Exchanges complete but not yet handed out.
    ready: VecDeque<Exchange<'s>>,
    /// Comment lines read since the last message.
    comments: Vec<Span>,
    next_index: usize,
}

impl<'s> HttpReader<'s> {
    pub fn new(src: &'s [u8]) -> Self {
        HttpReader {
            src,
            pos: 0,
            problems: Vec::new(),
            pending: None,
            interim: Vec::new(),
            ready: VecDeque::new(),
            comments: Vec::new(),
            next_index: 0,
        }
    }

    /// The problems met so far.
    pub fn problems(&self) -> &[ReadProblem] {
        &self.problems
    }

    pub fn into_problems(self) -> Vec<ReadProblem> {
        self.problems
    }
}

impl<'s> Iterator for HttpReader<'s> {
    type Item = Exchange<'s>;

    fn next(&mut self) -> Option<Exchange<'s>> {
        loop {
            if let Some(exchange) = self.ready.pop_front() {
                return Some(exchange);
            }
            self.pos = skip_trivia(self.src, self.pos, &mut self.comments);
            if self.pos >= self.src.len() {
                let request = self.pending.take()?;
                self.push_exchange(Some(request), None);
                continue;
            }
            self.pos = self.read_message(self.pos);
        }
    }
}

impl<'s> HttpReader<'s> {
    /// Reads the message at `pos` and returns where reading goes on.
    fn read_message(&mut self, pos: usize) -> usize {
        let src = self.src;
        if !is_start_line(src, pos) {
            self.syntax(
                Span::new(pos, pos + line_at(src, pos).len()),
                "expected a request line or a status line".into(),
                "a message starts with `METHOD /path HTTP/1.1` or `HTTP/1.1 200 OK`; \
                 lines between exchanges must be blank, `###` separators or `#`/`//` comments",
                true,
            );
            return next_delimiter(src, pos);
        }
        let head = match parse_head(src, pos) {
            Ok(head) => head,
            Err(problem) => {
                self.problems.push(problem);
                return next_delimiter(src, pos);
            }
        };
        if head.unterminated {
            self.syntax(
                head.start_line_span,
                "message head is not ended by an empty line".into(),
                "put an empty line after the last header, even when there is no body",
                false,
            );
        }
        let (body, next) = self.frame_body(&head);
        let message = Message {
            start_line: head.start_line,
            start_line_span: head.start_line_span,
            version: if head.minor_version == 0 {
                Version::Http10
            } else {
                Version::Http11
            },
            trailers: Vec::new(),
            span: Span::new(pos, body.raw.end.max(head.start_line_span.end)),
            headers: head.headers,
            body,
            comments: std::mem::take(&mut self.comments),
            grpc: None,
        };
        self.accept(message);
        next
    }

    /// Frames the body that follows `head`; returns it and where the next message may start.
    fn frame_body(&mut self, head: &Head<'s>) -> (Body<'s>, usize) {
        let start = head.end;
        if head.unterminated || self.has_no_body(head) {
            return (self.verbatim(start, start), start);
        }
        let header = |name: &str| {
            head.headers
                .iter()
                .find(|h| h.name.eq_ignore_ascii_case(name))
        };
        let chunked = header("transfer-encoding")
            .is_some_and(|h| item_is(h.value, b',', Item::Last, "chunked"));
        let event_stream = header("content-type")
            .is_some_and(|h| item_is(h.value, b';', Item::First, "text/event-stream"));
        let (mut body, next) = if chunked {
            self.frame_chunked(start, event_stream)
        } else if let Some((length, declared_at)) =
            header("content-length").and_then(|h| self.content_length(h).map(|n| (n, h.value_span)))
        {
            self.frame_by_length(start, length, declared_at)
        } else {
            self.frame_to_delimiter(start)
        };
        if let (Some(coding), Some(content)) = (header("content-encoding"), &body.content) {
            match decode(&String::from_utf8_lossy(coding.value), &content.bytes) {
                Ok(Some(decoded)) => {
                    body.content = Some(Content {
                        bytes: Cow::Owned(decoded),
                        origin: Origin::Decoded,
                    });
                }
                Ok(None) => {}
                Err(failure) => {
                    body.content = None;
                    self.problems.push(ReadProblem::Undecodable {
                        header: coding.value_span,
                        coding: failure.coding,
                        reason: failure.reason,
                    });
                }
            }
        }
        (body, next)
    }

    /// RFC 9110 §6.4.1: no body on 1xx, 204 and 304 responses, nor on any response to HEAD.
    fn has_no_body(&self, head: &Head<'s>) -> bool {
        match head.start_line {
            StartLine::Request { .. } => false,
            StartLine::Response { status, .. } => {
                matches!(status, 100..=199 | 204 | 304)
                    || self.pending.as_ref().and_then(Message::method) == Some("HEAD")
            }
        }
    }

    fn content_length(&mut self, header: &Header<'s>) -> Option<u64> {
        let parsed = header
            .value_str()
            .and_then(|v| v.trim().parse::<u64>().ok());
        if parsed.is_none() {
            self.syntax(
                header.value_span,
                "Content-Length is not a non-negative integer".into(),
                "the body was framed up to the next message instead",
                false,
            );
        }
        parsed
    }

    fn frame_chunked(&mut self, start: usize, event_stream: bool) -> (Body<'s>, usize) {
        match dechunk(self.src, start) {
            Ok(chunks) => {
                // Blank lines after the body belong to no message, but chunk data is the
                // body's even when a cut body ends in one (a closed event stream does).
                let data_end = chunks.pieces.last().map_or(start, |p| p.raw + p.len);
                let trimmed = trim_trailing_blank(self.src, start, chunks.end);
                let raw_end = trimmed.max(data_end);
                if let Some(whole) = chunks.cut {
                    // The half chunk when there is one, else the last line that arrived.
                    let from = if whole < trimmed {
                        whole
                    } else {
                        memchr::memrchr(b'\n', &self.src[start..trimmed])
                            .map_or(start, |i| start + i + 1)
                    };
                    self.cut_short(Span::new(from, trimmed.max(from)), event_stream);
                }
                let body = Body {
                    raw: Span::new(start, raw_end),
                    content: Some(Content {
                        bytes: chunks.bytes,
                        origin: Origin::Chunked(chunks.pieces),
                    }),
                    cut: chunks.cut.is_some(),
                };
                (body, chunks.end)
            }
            Err(error) => {
                self.syntax(
                    error.span,
                    format!("broken chunked framing: {}", error.message),
                    "each chunk is a hexadecimal size line, that many bytes and a line end; \
                     a zero-size chunk ends the body",
                    true,
                );
                let next = self.delimiter_from(start);
                let end = trim_trailing_blank(self.src, start, next);
                (
                    Body {
                        raw: Span::new(start, end),
                        content: None,
                        cut: false,
                    },
                    next,
                )
            }
        }
    }

    /// Records a chunked body that stops before its zero-size chunk (RFC 9112 §7.1), at
    /// `span`: the bytes after its last complete chunk, or else its last line. An event
    /// stream ends that way whenever the client closes it (every `SubscribeToTask` a test
    /// kit runs), so that is only a note; any other body is missing its end, which a
    /// verdict should not hide.
    fn cut_short(&mut self, span: Span, event_stream: bool) {
        let (message, help) = if event_stream {
            (
                "the event stream stops before its end: the connection closed or the capture \
                 ended mid-stream",
                "clients end a stream they are done with by closing the connection, so no \
                 zero-size chunk comes; every complete event was checked, a half event at the \
                 cut was not",
            )
        } else {
            (
                "the chunked body stops before its last (zero-size) chunk: the connection \
                 closed or the capture ended mid-body",
                "the bytes that arrived are kept but not judged as a whole message; record the \
                 exchange again to have it checked",
            )
        };
        self.problems.push(ReadProblem::Incomplete {
            span,
            message: message.into(),
            help: help.into(),
            note: event_stream,
        });
    }

    /// Frames by `Content-Length` when the declared length ends at a message boundary;
    /// otherwise the body runs to the next delimiter and the mismatch is recorded.
    fn frame_by_length(&mut self, start: usize, length: u64, header: Span) -> (Body<'s>, usize) {
        let src = self.src;
        let declared_end = usize::try_from(length)
            .ok()
            .and_then(|n| start.checked_add(n))
            .filter(|&end| end <= src.len());
        if let Some(end) = declared_end.filter(|&end| is_boundary(src, end)) {
            return (self.verbatim(start, end), end);
        }
        let (body, next) = self.frame_to_delimiter(start);
        self.problems.push(ReadProblem::LengthMismatch {
            header,
            declared: length,
            actual: body.raw.len(),
            body: body.raw,
        });
        (body, next)
    }

    fn frame_to_delimiter(&mut self, start: usize) -> (Body<'s>, usize) {
        let next = self.delimiter_from(start);
        let end = trim_trailing_blank(self.src, start, next);
        (self.verbatim(start, end), next)
    }

    fn delimiter_from(&self, start: usize) -> usize {
        if start >= self.src.len() || is_delimiter_line(self.src, start) {
            start
        } else {
            next_delimiter(self.src, start)
        }
    }

    fn verbatim(&self, start: usize, end: usize) -> Body<'s> {
        Body {
            raw: Span::new(start, end),
            content: Some(Content {
                bytes: Cow::Borrowed(&self.src[start..end]),
                origin: Origin::Verbatim { start },
            }),
            cut: false,
        }
    }

    fn accept(&mut self, message: Message<'s>) {
        match message.start_line {
            StartLine::Request { .. } => {
                if let Some(unanswered) = self.pending.take() {
                    self.push_exchange(Some(unanswered), None);
                }
                self.pending = Some(message);
            }
            // 101 Switching Protocols ends the HTTP exchange: the connection speaks the
            // protocol it switched to from the empty line after it on (RFC 9110 §15.2.2),
            // so it is the final answer, not an interim one.
            StartLine::Response { status, .. }
                if (100..200).contains(&status) && status != 101 && self.pending.is_some() =>
            {
                self.interim.push(message);
            }
            StartLine::Response { .. } => {
                let request = self.pending.take();
                self.push_exchange(request, Some(message));
            }
        }
    }

    fn push_exchange(&mut self, request: Option<Message<'s>>, response: Option<Message<'s>>) {
        self.ready.push_back(Exchange {
            index: self.next_index,
            request,
            interim: std::mem::take(&mut self.interim),
            response,
            ending: None,
            closed: None,
        });
        self.next_index += 1;
    }

    fn syntax(&mut self, span: Span, message: String, help: &'static str, skipped: bool) {
        self.problems.push(ReadProblem::Syntax {
            span,
            message,
            help,
            skipped,
        });
    }
}
