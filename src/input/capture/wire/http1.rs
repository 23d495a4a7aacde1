//! HTTP/1.x over TCP: each direction of a connection is cut into messages by their
//! framing (RFC 9112 §6), requests are paired with responses in order (keep-alive and
//! pipelining alike), and each exchange's wire bytes become its text view, which the
//! `.http` reader then reads exactly as it reads a capture file.

use std::ops::Range;

use crate::input::capture::chunked::dechunk;
use crate::input::capture::head::parse_head;
use crate::input::capture::lines::is_start_line;
use crate::input::capture::model::StartLine;
use crate::input::capture::wire::{
    Connection, ExchangeEnd, Stream, StreamEnd, TextOrigin, WireExchange, WireParts,
};
use crate::input::source::Span;

/// One message found in a direction's bytes.
#[derive(Debug, Clone)]
struct Found {
    range: Range<usize>,
    /// The bytes ran out before the message's framing said it ends.
    cut: bool,
    method: Option<Vec<u8>>,
    status: Option<u16>,
    /// `Upgrade: h2c` on a request; `101` on a response.
    upgrade_h2c: bool,
    /// A response of type `text/event-stream`.
    event_stream: bool,
}

/// Where an `Upgrade: h2c` connection switched: the request and its 101 answer, and
/// where the HTTP/2 bytes start on each side.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Upgrade {
    pub request: Range<usize>,
    pub switching: Range<usize>,
    pub client_at: usize,
    pub server_at: usize,
}

/// What an HTTP/1.x connection held.
#[derive(Debug, Default)]
pub struct Http1Read {
    pub exchanges: Vec<WireExchange>,
    /// The connection switched to HTTP/2 here (RFC 9113 §3.2's `Upgrade: h2c`, answered
    /// with 101): the rest is read as HTTP/2.
    pub upgrade: Option<Upgrade>,
    /// The capture ended while a message was still arriving on a connection neither
    /// peer had closed: the frame where that message starts. Its missing end may simply
    /// not have been captured (packets dropped at the end of a capture leave no gap).
    pub open_at_end: Option<u32>,
}

pub fn read_http1(
    connection: &Connection,
    client: &Stream,
    server: &Stream,
    first_index: usize,
) -> Http1Read {
    let requests = split(&client.bytes, None);
    let mut read = Http1Read::default();
    let mut at = 0;
    let mut responses = Vec::new();
    // Responses are framed knowing the request they answer (HEAD has no body), so both
    // sides are walked together.
    for request in &requests {
        let mut group = Vec::new();
        loop {
            if at >= server.bytes.len() {
                break;
            }
            let Some(found) = next_message(&server.bytes, at, request.method.as_deref()) else {
                break;
            };
            at = found.range.end;
            let interim = found
                .status
                .is_some_and(|s| (100..200).contains(&s) && s != 101);
            group.push(found);
            if !interim {
                break;
            }
        }
        responses.push(group);
    }
    for (request, group) in requests.iter().zip(&responses) {
        let response_cut = group.last().is_some_and(|r| r.cut);
        let answered = group
            .last()
            .is_some_and(|r| r.status.is_some_and(|s| s >= 200 || s == 101));
        // Bytes after a hole are never guessed at: an exchange that reaches into one is
        // not read (the hole itself is reported once, as `capture-incomplete`).
        let client_hole = request.cut && matches!(client.end, StreamEnd::Gap { .. });
        let server_hole =
            (response_cut || !answered) && matches!(server.end, StreamEnd::Gap { .. });
        if client_hole || server_hole {
            return read;
        }
        // Neither peer closed the connection: a message cut at the end of the capture
        // says nothing about what was sent after it, so it is not judged.
        let still_open = client.end == StreamEnd::CaptureEnd && server.end == StreamEnd::CaptureEnd;
        // An event stream is the exception: it is open until the client is done, and its
        // complete events are read whatever comes after (the reader notes the cut).
        let event_stream = group.last().is_some_and(|r| r.event_stream);
        if still_open && (request.cut || (response_cut && !event_stream)) {
            read.open_at_end = if request.cut {
                client.frame_at(request.range.start)
            } else {
                group.last().and_then(|r| server.frame_at(r.range.start))
            };
            return read;
        }
        let switched = group.last().filter(|r| r.status == Some(101));
        if let Some(switching) = switched.filter(|_| request.upgrade_h2c) {
            read.upgrade = Some(Upgrade {
                request: request.range.clone(),
                switching: switching.range.clone(),
                client_at: request.range.end,
                server_at: switching.range.end,
            });
            // The upgrade request is HTTP/2 stream 1's request (RFC 9113 §3.2): the
            // HTTP/2 reader makes the exchange.
            return read;
        }
        if switched.is_some() {
            // Switched to another protocol (a WebSocket, say): not HTTP from here on.
            return read;
        }
        let parts = std::iter::once((client, request.range.clone())).chain(
            group
                .iter()
                .map(|response| (server, response.range.clone())),
        );
        let end = if request.cut || response_cut || !answered {
            ExchangeEnd::Unfinished
        } else {
            ExchangeEnd::Complete
        };
        let index = first_index + read.exchanges.len();
        read.exchanges.push(exchange(connection, index, parts, end));
    }
    // Responses with no request left (the capture began mid-connection, or the server
    // sent one unasked) are still exchanges the rules should see; after a hole in the
    // client's bytes they may answer requests the capture lost, so they are not read.
    let client_hole = matches!(client.end, StreamEnd::Gap { .. });
    while at < server.bytes.len() && !client_hole {
        let Some(found) = next_message(&server.bytes, at, None) else {
            break;
        };
        at = found.range.end;
        if found.cut && matches!(server.end, StreamEnd::Gap { .. }) {
            break;
        }
        let index = first_index + read.exchanges.len();
        let parts = std::iter::once((server, found.range.clone()));
        read.exchanges
            .push(exchange(connection, index, parts, ExchangeEnd::Unfinished));
    }
    read
}

/// The exchange made of these message bytes of the connection's streams, in order.
fn exchange<'a>(
    connection: &Connection,
    index: usize,
    parts: impl Iterator<Item = (&'a Stream, Range<usize>)>,
    end: ExchangeEnd,
) -> WireExchange {
    let mut text = Vec::new();
    let mut origins = Vec::new();
    for (stream, range) in parts {
        copy(stream, range, &mut text, &mut origins);
    }
    WireExchange {
        index,
        connection: connection.clone(),
        stream: None,
        text,
        origins,
        parts: WireParts::Http1,
        end,
        problems: Vec::new(),
    }
}

/// Appends stream bytes `range` to `text`, with where each run came from in the file.
fn copy(stream: &Stream, range: Range<usize>, text: &mut Vec<u8>, origins: &mut Vec<TextOrigin>) {
    let first = stream
        .pieces
        .partition_point(|p| p.at + p.len <= range.start);
    for piece in &stream.pieces[first..] {
        if piece.at >= range.end {
            break;
        }
        let start = range.start.max(piece.at);
        let end = range.end.min(piece.at + piece.len);
        let at = text.len();
        origins.push(TextOrigin {
            text: Span::new(at, at + end - start),
            file: Span::new(piece.file + start - piece.at, piece.file + end - piece.at),
            frame: piece.frame,
            exact: true,
        });
        text.extend_from_slice(&stream.bytes[start..end]);
    }
}

/// Every message of one direction, for the client side (requests need no context).
fn split(bytes: &[u8], method: Option<&[u8]>) -> Vec<Found> {
    let mut found = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let Some(message) = next_message(bytes, at, method) else {
            break;
        };
        at = message.range.end;
        let upgraded = message.upgrade_h2c;
        found.push(message);
        if upgraded {
            // What follows an `Upgrade: h2c` request may be the HTTP/2 preface; whether
            // it is depends on the answer, so the split stops here.
            break;
        }
    }
    found
}

/// Whether the bytes at `at` start an HTTP/1.x message (a request or status line).
pub fn starts_message(bytes: &[u8], at: usize) -> bool {
    is_start_line(bytes, at)
}

/// The message starting at `at`: its head, then its body framed as RFC 9112 §6.3 says.
/// `request_method` is the method of the request a response answers.
fn next_message(bytes: &[u8], at: usize, request_method: Option<&[u8]>) -> Option<Found> {
    if !is_start_line(bytes, at) {
        // Not a message: the rest of the direction cannot be framed. The `.http` reader
        // reports it when it reads these bytes as an exchange's text.
        return Some(Found {
            range: at..bytes.len(),
            cut: true,
            method: None,
            status: None,
            upgrade_h2c: false,
            event_stream: false,
        });
    }
    let head = parse_head(bytes, at).ok()?;
    let header = |name: &str| {
        head.headers
            .iter()
            .find(|h| h.name.eq_ignore_ascii_case(name))
            .map(|h| h.value)
    };
    let (method, status) = match head.start_line {
        StartLine::Request { method, .. } => (Some(method.as_bytes().to_vec()), None),
        StartLine::Response { status, .. } => (None, Some(status)),
    };
    let upgrade_h2c = match status {
        None => header("upgrade").is_some_and(|v| {
            v.split(|&b| b == b',')
                .any(|t| t.trim_ascii().eq_ignore_ascii_case(b"h2c"))
        }),
        Some(s) => s == 101,
    };
    let event_stream = status.is_some()
        && header("content-type").is_some_and(|v| {
            v.trim_ascii_start()
                .get(..17)
                .is_some_and(|t| t.eq_ignore_ascii_case(b"text/event-stream"))
        });
    let found = |end: usize, cut: bool| Found {
        range: at..end.min(bytes.len()),
        cut,
        method: method.clone(),
        status,
        upgrade_h2c,
        event_stream,
    };
    if head.unterminated {
        return Some(found(bytes.len(), true));
    }
    let body = head.end;
    let no_body = match status {
        Some(s) => {
            (100..200).contains(&s) || s == 204 || s == 304 || request_method == Some(b"HEAD")
        }
        None => false,
    };
    if no_body {
        return Some(found(body, false));
    }
    let chunked = header("transfer-encoding").is_some_and(|v| {
        v.rsplit(|&b| b == b',')
            .next()
            .is_some_and(|last| last.trim_ascii().eq_ignore_ascii_case(b"chunked"))
    });
    if chunked {
        return Some(match dechunk(bytes, body) {
            Ok(chunks) => found(chunks.end, chunks.cut.is_some()),
            Err(_) => found(bytes.len(), true),
        });
    }
    if let Some(length) = header("content-length")
        .and_then(|v| std::str::from_utf8(v).ok())
        .and_then(|v| v.trim().parse::<u64>().ok())
    {
        let end = usize::try_from(length)
            .ok()
            .and_then(|n| body.checked_add(n))
            .unwrap_or(usize::MAX);
        return Some(found(end, end > bytes.len()));
    }
    // RFC 9112 §6.3: a request without framing has no body; a response runs to the
    // close of the connection.
    Some(match status {
        None => found(body, false),
        Some(_) => found(bytes.len(), false),
    })
}
