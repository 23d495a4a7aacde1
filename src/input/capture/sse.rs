//! Splits a `text/event-stream` body (already de-chunked) into server-sent events (W3C
//! HTML "Server-sent events" §9.2.6), keeping a map from each event's data back to the body.

use std::borrow::Cow;

use crate::input::capture::model::{Piece, map_pieces};
use crate::input::source::Span;

/// One dispatched event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event<'b> {
    /// 0-based position of the event in its stream.
    pub index: usize,
    /// The `event:` field, when set (`error` in a2a-python and a2a-js error events).
    pub kind: Option<&'b str>,
    /// The data lines joined with `\n`.
    pub data: Cow<'b, [u8]>,
    /// Where each data line's value sits in the body.
    pub pieces: Vec<Piece>,
    /// From the event's first line to its last, in the body.
    pub span: Span,
    /// Whether a blank line ended the event. Only the last event of a body can lack one:
    /// a recorder that dropped the final blank line, or a stream cut mid-event.
    pub complete: bool,
}

impl Event<'_> {
    /// The body span of `span`, a range of the event's data.
    pub fn body_span(&self, span: Span) -> Span {
        let start = map_pieces(&self.pieces, span.start, false);
        let end = map_pieces(&self.pieces, span.end, true).max(start);
        Span::new(start, if span.is_empty() { start } else { end })
    }
}

/// The events of a stream. Lines end in CRLF, LF or CR; comments (`:`) and `id`/`retry`
/// fields are skipped; an event is dispatched at a blank line, or at the end of the body
/// even without one, marked not [`complete`](Event::complete). The WHATWG parser drops
/// such an event, but a `.http` file often loses a body's last blank line (it reads like
/// the gap before the next message); callers that know the body was cut drop it.
pub fn parse_events(body: &[u8]) -> Vec<Event<'_>> {
    let mut events = Vec::new();
    let mut pending = Pending::default();
    let mut at = 0;
    while at < body.len() {
        let (line_end, next) = line_bounds(body, at);
        let line = &body[at..line_end];
        if line.is_empty() {
            pending.dispatch(body, true, &mut events);
        } else if line[0] != b':' {
            let (name, value_start) = match line.iter().position(|&b| b == b':') {
                Some(colon) => {
                    let skip_space = usize::from(line.get(colon + 1) == Some(&b' '));
                    (&line[..colon], at + colon + 1 + skip_space)
                }
                None => (line, line_end),
            };
            pending.first_line.get_or_insert(at);
            pending.last_line_end = line_end;
            match name {
                b"data" => pending.data_lines.push(Span::new(value_start, line_end)),
                b"event" => pending.kind = std::str::from_utf8(&body[value_start..line_end]).ok(),
                _ => {}
            }
        }
        at = next;
    }
    pending.dispatch(body, false, &mut events);
    events
}

#[derive(Default)]
struct Pending<'b> {
    kind: Option<&'b str>,
    data_lines: Vec<Span>,
    first_line: Option<usize>,
    last_line_end: usize,
}

impl<'b> Pending<'b> {
    fn dispatch(&mut self, body: &'b [u8], complete: bool, events: &mut Vec<Event<'b>>) {
        let pending = std::mem::take(self);
        let Some(first_line) = pending
            .first_line
            .filter(|_| !pending.data_lines.is_empty())
        else {
            return;
        };
        let mut pieces = Vec::with_capacity(pending.data_lines.len());
        let mut decoded = 0;
        for line in &pending.data_lines {
            pieces.push(Piece {
                decoded,
                raw: line.start,
                len: line.len(),
            });
            decoded += line.len() + 1;
        }
        let data = match pending.data_lines.as_slice() {
            [one] => Cow::Borrowed(&body[one.range()]),
            many => Cow::Owned(
                many.iter()
                    .map(|l| &body[l.range()])
                    .collect::<Vec<_>>()
                    .join(&b'\n'),
            ),
        };
        events.push(Event {
            index: events.len(),
            kind: pending.kind,
            data,
            pieces,
            span: Span::new(first_line, pending.last_line_end),
            complete,
        });
    }
}

/// The end of the line at `at` (before its terminator) and the start of the next line.
fn line_bounds(body: &[u8], at: usize) -> (usize, usize) {
    match memchr::memchr2(b'\n', b'\r', &body[at..]) {
        None => (body.len(), body.len()),
        Some(i) => {
            let end = at + i;
            let next = if body[end] == b'\r' && body.get(end + 1) == Some(&b'\n') {
                end + 2
            } else {
                end + 1
            };
            (end, next)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn data(events: &[Event<'_>]) -> Vec<String> {
        events
            .iter()
            .map(|e| String::from_utf8_lossy(&e.data).into_owned())
            .collect()
    }

    #[test]
    fn crlf_events_with_event_type_and_comments() {
        let body = b": ping - 2026-11-30\r\n\r\ndata: {\"a\":1}\r\n\r\nevent: error\r\ndata: {\"error\":{}}\r\n\r\n";
        let events = parse_events(body);
        assert_eq!(data(&events), ["{\"a\":1}", "{\"error\":{}}"]);
        assert_eq!((events[0].kind, events[1].kind), (None, Some("error")));
        let span = events[1].body_span(Span::new(2, 7));
        assert_eq!(&body[span.range()], b"error");
        assert_eq!(
            &body[events[1].span.range()],
            b"event: error\r\ndata: {\"error\":{}}"
        );
    }

    #[test]
    fn multi_line_data_ids_retry_and_a_final_event_without_blank_line() {
        let body = b"id: 1\nretry: 100\ndata: {\"x\":\ndata:  2}\n\ndata:last";
        let events = parse_events(body);
        assert_eq!(data(&events), ["{\"x\":\n 2}", "last"]);
        assert_eq!((events[0].complete, events[1].complete), (true, false));
        let two = events[0].body_span(Span::new(6, 8));
        assert_eq!(&body[two.range()], b" 2");
    }

    #[test]
    fn events_without_data_are_not_dispatched() {
        assert!(parse_events(b"event: ping\n\n: comment\n\n").is_empty());
        assert!(parse_events(b"").is_empty());
    }
}
