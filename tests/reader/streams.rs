//! Event streams the client closed or that were cut mid-chunk.

use a2alint::input::capture::{Capture, ReadProblem, read_http};

use super::*;

/// The `Incomplete` problems of a capture, as (text at the span, note).
fn incomplete<'s>(src: &'s [u8], capture: &Capture<'_>) -> Vec<(&'s str, bool)> {
    capture
        .problems
        .iter()
        .filter_map(|p| match p {
            ReadProblem::Incomplete { span, note, .. } => Some((text(src, *span), *note)),
            _ => None,
        })
        .collect()
}

const STREAM_HEAD: &str = "GET /tasks/t-1:subscribe HTTP/1.1\r\n\r\nHTTP/1.1 200 OK\r\nContent-Type: text/event-stream; charset=utf-8\r\nTransfer-Encoding: chunked\r\n\r\n";
const EVENT: &str = "data: {\"task\":{\"id\":\"t-1\"}}\r\n\r\n";
const PING: &str = ": ping - 2026-03-14 10:22:31.104522+00:00\r\n\r\n";

fn chunk(data: &str) -> String {
    format!("{:x}\r\n{data}", data.len())
}

#[test]
fn an_event_stream_the_client_closed_is_cut_not_broken() {
    let whole = format!("{}\r\n{}\r\n", chunk(EVENT), chunk(PING));
    for (tail, next) in [
        // After the keep-alive chunk's line end, at the end of the file.
        ("", false),
        // Before the keep-alive chunk's line end: the chunk's data is all there.
        ("", true),
        // At the next exchange.
        (
            "### next\r\nGET /a HTTP/1.1\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n",
            false,
        ),
        (
            "### next\r\nGET /a HTTP/1.1\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n",
            true,
        ),
        (
            "\r\nGET /a HTTP/1.1\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n",
            false,
        ),
    ] {
        let chunks = if next {
            whole.strip_suffix("\r\n").unwrap()
        } else {
            &whole
        };
        let src = format!("{STREAM_HEAD}{chunks}{tail}");
        let src = src.as_bytes();
        let capture = read_http(src);
        let shown = String::from_utf8_lossy(src);
        assert!(syntax_messages(&capture).is_empty(), "{shown}");
        let response = resp(&capture.exchanges[0]);
        assert!(response.body.cut, "{shown}");
        assert_eq!(body(response), format!("{EVENT}{PING}"));
        // The note points at the last line that arrived, the keep-alive comment.
        match &capture.problems[..] {
            [
                ReadProblem::Incomplete {
                    span,
                    note: true,
                    message,
                    ..
                },
            ] => {
                assert!(message.starts_with("the event stream stops before its end"));
                assert_eq!(text(src, *span), PING.trim_end(), "{shown}");
            }
            other => panic!("{shown}: unexpected {other:?}"),
        }
        assert_eq!(
            capture.exchanges.len(),
            if tail.is_empty() { 1 } else { 2 },
            "{shown}"
        );
    }
}

#[test]
fn a_stream_cut_inside_a_chunk_keeps_the_whole_chunks() {
    let half_event = "data: {\"task\":{\"id\"";
    for (tail, kept, span) in [
        // A whole chunk that holds half an event: its data is content.
        (
            chunk(half_event),
            format!("{EVENT}{half_event}"),
            half_event,
        ),
        // A chunk whose data stops short, or whose size line is all there is: it is not.
        (
            format!("40\r\n{half_event}"),
            EVENT.to_string(),
            &format!("40\r\n{half_event}"),
        ),
        ("40".to_string(), EVENT.to_string(), "40"),
    ] {
        let src = format!("{STREAM_HEAD}{}\r\n{tail}", chunk(EVENT));
        let src = src.as_bytes();
        let capture = read_http(src);
        let response = resp(&capture.exchanges[0]);
        assert!(response.body.cut, "{tail:?}");
        assert_eq!(body(response), kept, "{tail:?}");
        assert_eq!(incomplete(src, &capture), [(span, true)], "{tail:?}");
    }
}

#[test]
fn chunked_framing_broken_mid_body_is_still_a_syntax_error() {
    for chunks in [
        format!(
            "{}\r\nnot a size\r\n{}\r\n0\r\n\r\n",
            chunk(EVENT),
            chunk(EVENT)
        ),
        format!("5\r\n{EVENT}\r\n0\r\n\r\n"),
    ] {
        let src = format!("{STREAM_HEAD}{chunks}");
        let capture = read_http(src.as_bytes());
        let messages = syntax_messages(&capture);
        assert_eq!(messages.len(), 1, "{src}");
        assert!(
            messages[0].starts_with("broken chunked framing"),
            "{messages:?}"
        );
        assert!(incomplete(src.as_bytes(), &capture).is_empty());
        let response = resp(&capture.exchanges[0]);
        assert!(response.body.content.is_none() && !response.body.cut);
    }
}
