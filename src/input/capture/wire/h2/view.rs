//! HTTP/2 step four: each stream is written as a text view, as Wireshark's "Follow
//! HTTP/2 stream" shows it, with every run of the text mapped back to its frames.

use std::ops::Range;

use crate::input::capture::encoding::decode;
use crate::input::capture::model::ReadProblem;
use crate::input::capture::wire::h2::grpc_view::GrpcCall;
use crate::input::capture::wire::h2::hpack::Field;
use crate::input::capture::wire::h2::streams::{Block, H2Stream, Head, Side};
use crate::input::capture::wire::h2::upgrade::http1_spans;
use crate::input::capture::wire::{Stream, TextOrigin, WireBody, WireMessage, WireParts};
use crate::input::source::Span;

/// Decoded body bytes kept per connection: each body is capped by the decoder, and this
/// keeps many small compression bombs from adding up.
const MAX_CONNECTION_DECODED: usize = crate::input::capture::MAX_DECODED_BYTES as usize;

const ESCAPE_HELP: &str = "RFC 9113 §8.2.1 forbids these bytes in field names and values; \
                           the view writes each as \\xNN so the lines stay whole";

/// Writes the views of a connection's streams; holds what they share.
pub struct ViewWriter<'a> {
    pub client: &'a Stream,
    pub server: &'a Stream,
    /// Decoded body bytes still allowed on this connection.
    decoded_left: usize,
    /// Both peers sent setting 0xfe03: `-bin` values may be raw bytes after a 0x00.
    true_binary: bool,
}

/// One stream's view and the problems found in it (spans of its text).
pub struct View {
    pub text: Vec<u8>,
    pub origins: Vec<TextOrigin>,
    pub parts: WireParts,
    pub problems: Vec<ReadProblem>,
}

/// The text being written for one stream.
#[derive(Default)]
pub(super) struct Text {
    pub text: Vec<u8>,
    origins: Vec<TextOrigin>,
    pub problems: Vec<ReadProblem>,
    pub true_binary: bool,
}

impl<'a> ViewWriter<'a> {
    pub fn new(client: &'a Stream, server: &'a Stream, true_binary: bool) -> Self {
        ViewWriter {
            client,
            server,
            decoded_left: MAX_CONNECTION_DECODED,
            true_binary,
        }
    }

    pub fn write(&mut self, stream: &H2Stream) -> View {
        // A stream's view is some hundred bytes of heads and a message or two written as
        // pretty JSON: starting at 4 KiB spares the buffer its doublings up from 8 bytes.
        let mut out = Text {
            text: Vec::with_capacity(4096),
            true_binary: self.true_binary,
            ..Text::default()
        };
        let call = GrpcCall::of(stream);
        let call = call.as_ref();
        let request = self.message(&mut out, self.client, &stream.request, true, call);
        let interim = (stream.interim.iter())
            .map(|head| self.head_only(&mut out, head))
            .collect();
        let response = self.message(&mut out, self.server, &stream.response, false, call);
        View {
            text: out.text,
            origins: out.origins,
            parts: WireParts::Http2 {
                request,
                interim,
                response,
            },
            problems: out.problems,
        }
    }

    /// A whole message: head, body, trailers; `None` when its head never came.
    fn message(
        &mut self,
        out: &mut Text,
        dir: &Stream,
        side: &Side,
        is_request: bool,
        call: Option<&GrpcCall>,
    ) -> Option<WireMessage> {
        let head = side.head.as_ref()?;
        let (mut message, head_origin) = match head {
            Head::Fields(block) => out.h2_head(dir, block, is_request),
            Head::Http1(range) => out.http1(dir, range.clone()),
        };
        // An HTTP/1.1 head comes with its body; an HTTP/2 one's starts after it.
        let body_start = message.body.raw.start;
        match call {
            Some(call) => {
                let left = &mut self.decoded_left;
                out.grpc_body(dir, side, call, is_request, &mut message, left);
            }
            None => {
                for range in &side.data {
                    out.copy(dir, range.clone());
                }
            }
        }
        message.body.raw = Span::new(body_start, out.text.len());
        message.body.cut = !side.ended || side.overflowed;
        message.span = Span::new(message.start_line.start, out.text.len());
        if call.is_none() {
            self.decode_body(out, &mut message);
        }
        // A line between the body and what follows, for the eye; it maps where the head
        // does.
        let separator = out.text.len();
        out.text.extend(b"\r\n");
        out.origin(separator, head_origin, false);
        if let Some(trailers) = &side.trailers {
            let start = out.text.len();
            message.trailers = out.fields(&trailers.fields);
            let origin = dir.locate(trailers.payload.clone());
            out.origin(start, origin, false);
            message.span.end = message.trailers.last().map_or(start, |(_, v)| v.end);
            if call.is_some() {
                let spans = message.trailers.clone();
                out.grpc_status(&trailers.fields, &spans, origin, &mut message);
            }
        } else if let (Some(_), Head::Fields(block)) = (call, head) {
            // Trailers-only: the status came in the head (gRPC over HTTP/2).
            let spans = message.headers.clone();
            out.grpc_status(&block.fields, &spans, head_origin, &mut message);
        }
        Some(message)
    }

    /// An interim response: a head and nothing else.
    fn head_only(&mut self, out: &mut Text, head: &Head) -> WireMessage {
        let (mut message, _) = match head {
            Head::Fields(block) => out.h2_head(self.server, block, false),
            Head::Http1(range) => out.http1(self.server, range.clone()),
        };
        message.span = Span::new(message.start_line.start, out.text.len());
        message
    }

    /// Undoes `content-encoding` (all its fields, in order) on the raw body.
    fn decode_body(&mut self, out: &mut Text, message: &mut WireMessage) {
        let codings: Vec<&(Span, Span)> = (message.headers.iter())
            .filter(|(name, _)| out.text[name.range()].eq_ignore_ascii_case(b"content-encoding"))
            .collect();
        let Some(&&(_, first_value)) = codings.first() else {
            return;
        };
        let joined = (codings.iter())
            .map(|(_, value)| String::from_utf8_lossy(&out.text[value.range()]))
            .collect::<Vec<_>>()
            .join(",");
        let failure = match decode(&joined, &out.text[message.body.raw.range()]) {
            Ok(None) => return,
            Ok(Some(decoded)) if decoded.len() <= self.decoded_left => {
                self.decoded_left -= decoded.len();
                message.body.decoded = Some(decoded);
                return;
            }
            Ok(Some(_)) => (
                joined,
                format!(
                    "the connection's decoded bodies pass {} MiB; a2alint decodes no more",
                    MAX_CONNECTION_DECODED >> 20
                ),
            ),
            Err(failure) => (failure.coding, failure.reason),
        };
        message.body.undecodable = true;
        out.problems.push(ReadProblem::Undecodable {
            header: first_value,
            coding: failure.0,
            reason: failure.1,
        });
    }
}

impl Text {
    /// Maps `span` of the text to `file` bytes of `frame`, when known: decoded, so not
    /// byte for byte.
    pub fn origin_of(&mut self, span: Span, origin: Option<(u32, Span)>) {
        if let (Some((frame, file)), false) = (origin, span.is_empty()) {
            self.origins.push(TextOrigin {
                text: span,
                file,
                frame,
                exact: false,
            });
        }
    }

    /// Maps `text[start..]` (if not empty) to `file` bytes of `frame`, when known.
    pub fn origin(&mut self, start: usize, origin: Option<(u32, Span)>, exact: bool) {
        let Some((frame, file)) = origin else {
            return;
        };
        if start < self.text.len() {
            self.origins.push(TextOrigin {
                text: Span::new(start, self.text.len()),
                file,
                frame,
                exact,
            });
        }
    }

    /// Copies `range` of `dir` as it is, one exact origin per TCP segment it spans.
    fn copy(&mut self, dir: &Stream, range: Range<usize>) {
        let first = dir.pieces.partition_point(|p| p.at + p.len <= range.start);
        for piece in dir.pieces.iter().skip(first) {
            let start = range.start.max(piece.at);
            let end = range.end.min(piece.at + piece.len);
            if start >= end {
                break;
            }
            let Some(bytes) = dir.bytes.get(start..end) else {
                break;
            };
            let at = self.text.len();
            self.text.extend_from_slice(bytes);
            let file = piece.file + (start - piece.at);
            let file = Span::new(file, file + bytes.len());
            self.origin(at, Some((piece.frame, file)), true);
        }
    }

    /// `bytes` with the bytes that would break a line written as `\xNN`; `name` escapes
    /// everything but visible ASCII, as a field name has no room for more.
    fn escaped(&mut self, bytes: &[u8], name: bool) -> (Span, bool) {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        let plain = |b: &u8| match name {
            true => b.is_ascii_graphic(),
            false => *b == b'\t' || !b.is_ascii_control(),
        };
        let start = self.text.len();
        let mut any = false;
        let mut rest = bytes;
        // Fields are almost always plain: each plain run is copied whole.
        loop {
            let run = rest.iter().position(|b| !plain(b)).unwrap_or(rest.len());
            self.text.extend_from_slice(&rest[..run]);
            let Some((&b, after)) = rest[run..].split_first() else {
                break;
            };
            any = true;
            let hex = [HEX[usize::from(b >> 4)], HEX[usize::from(b & 0xf)]];
            self.text.extend_from_slice(&[b'\\', b'x', hex[0], hex[1]]);
            rest = after;
        }
        (Span::new(start, self.text.len()), any)
    }

    /// Writes `name: value` lines; returns their spans.
    fn fields(&mut self, fields: &[Field]) -> Vec<(Span, Span)> {
        let mut spans = Vec::with_capacity(fields.len());
        for field in fields {
            let (name, bad_name) = self.escaped(&field.name, true);
            self.text.extend(b": ");
            let (value, bad_value) = match field.value.split_first() {
                // True binary metadata is raw bytes; the view writes them as the
                // base64 any other peer would have sent.
                Some((0, raw)) if self.true_binary && field.name.ends_with(b"-bin") => {
                    use base64::Engine;
                    let start = self.text.len();
                    let encoded = base64::engine::general_purpose::STANDARD.encode(raw);
                    self.text.extend(encoded.bytes());
                    (Span::new(start, self.text.len()), false)
                }
                _ => self.escaped(&field.value, false),
            };
            self.text.extend(b"\r\n");
            if bad_name || bad_value {
                self.problems.push(ReadProblem::Syntax {
                    span: Span::new(name.start, value.end),
                    message: "an HTTP/2 header field holds control bytes or, in its name, \
                              spaces or non-ASCII bytes"
                        .into(),
                    help: ESCAPE_HELP,
                    skipped: false,
                });
            }
            spans.push((name, value));
        }
        spans
    }

    /// A start line written from pseudo-headers, then every field: `POST /p HTTP/2` or
    /// `HTTP/2 200`. Returns the message (body empty, at the end of the head) and where
    /// the head came from in the file.
    fn h2_head(
        &mut self,
        dir: &Stream,
        block: &Block,
        is_request: bool,
    ) -> (WireMessage, Option<(u32, Span)>) {
        let start = self.text.len();
        let (first, second) = if is_request {
            let method = block.value(b":method").unwrap_or_default();
            // CONNECT names an authority, not a path (RFC 9113 §8.5).
            let target = block.value(b":path").or_else(|| block.value(b":authority"));
            let (first, _) = self.escaped(method, false);
            self.text.push(b' ');
            let (second, _) = self.escaped(target.unwrap_or_default(), false);
            self.text.extend(b" HTTP/2");
            (first, second)
        } else {
            self.text.extend(b"HTTP/2 ");
            let (status, _) = self.escaped(block.value(b":status").unwrap_or_default(), false);
            (status, Span::new(status.end, status.end))
        };
        let start_line = Span::new(start, self.text.len());
        self.text.extend(b"\r\n");
        let headers = self.fields(&block.fields);
        self.text.extend(b"\r\n");
        let origin = dir.locate(block.payload.clone());
        self.origin(start, origin, false);
        (
            message(start_line, first, second, headers, self.text.len()),
            origin,
        )
    }

    /// An HTTP/1.1 message copied as it is (an upgrade's request or `101`).
    fn http1(&mut self, dir: &Stream, range: Range<usize>) -> (WireMessage, Option<(u32, Span)>) {
        let start = self.text.len();
        self.copy(dir, range.clone());
        let spans = http1_spans(&self.text, start);
        let origin = dir.locate(range);
        let mut message = message(
            spans.start_line,
            spans.first,
            spans.second,
            spans.headers,
            spans.body.start,
        );
        message.body.raw = spans.body;
        (message, origin)
    }
}

fn message(
    start_line: Span,
    first: Span,
    second: Span,
    headers: Vec<(Span, Span)>,
    body_at: usize,
) -> WireMessage {
    WireMessage {
        start_line,
        first,
        second,
        headers,
        trailers: Vec::new(),
        body: WireBody {
            raw: Span::new(body_at, body_at),
            decoded: None,
            undecodable: false,
            cut: false,
        },
        grpc: None,
        span: Span::new(start_line.start, body_at),
    }
}
