//! Table-driven tests of the `.http` capture reader: framing, spans, recovery.

use std::io::Write;

use a2alint::input::capture::{Capture, Exchange, Message, ReadProblem, Version, read_http};
use a2alint::input::source::Span;

fn text(src: &[u8], span: Span) -> &str {
    std::str::from_utf8(&src[span.range()]).unwrap()
}

fn body(message: &Message<'_>) -> String {
    String::from_utf8_lossy(message.body.bytes().expect("decodable body")).into_owned()
}

fn req<'a>(ex: &'a Exchange<'_>) -> &'a Message<'a> {
    ex.request.as_ref().expect("request")
}

fn resp<'a>(ex: &'a Exchange<'_>) -> &'a Message<'a> {
    ex.response.as_ref().expect("response")
}

fn syntax_messages(capture: &Capture<'_>) -> Vec<String> {
    capture
        .problems
        .iter()
        .filter_map(|p| match p {
            ReadProblem::Syntax { message, .. } => Some(message.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn back_to_back_wire_bytes_are_framed_by_content_length() {
    let src = b"POST /rpc HTTP/1.1\r\nContent-Length: 2\r\n\r\n{}HTTP/1.1 200 OK\r\nContent-Length: 7\r\n\r\n{\"a\":1}POST /tasks/1:cancel HTTP/1.1\r\nContent-Length: 0\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n";
    let capture = read_http(src);
    assert!(capture.problems.is_empty(), "{:?}", capture.problems);
    assert_eq!(capture.exchanges.len(), 2);
    let first = &capture.exchanges[0];
    assert_eq!(text(src, req(first).start_line_span), "POST /rpc HTTP/1.1");
    assert_eq!(req(first).body.raw, Span::new(41, 43));
    assert_eq!(text(src, resp(first).start_line_span), "HTTP/1.1 200 OK");
    assert_eq!(body(resp(first)), "{\"a\":1}");
    let second = &capture.exchanges[1];
    assert_eq!(req(second).method(), Some("POST"));
    assert_eq!(
        text(src, req(second).start_line_span),
        "POST /tasks/1:cancel HTTP/1.1"
    );
    assert_eq!(resp(second).status(), Some(204));
    assert!(resp(second).body.raw.is_empty());
}

#[test]
fn every_header_name_and_value_has_a_span() {
    let src = b"GET /tasks/7 HTTP/1.1\r\nHost: agent.example\r\nA2A-Version:1.0\r\n\r\nHTTP/1.1 404 Not Found\r\nContent-Type:  application/json \r\nContent-Length: 2\r\n\r\n{}";
    let capture = read_http(src);
    let request = req(&capture.exchanges[0]);
    let names: Vec<_> = request
        .headers
        .iter()
        .map(|h| text(src, h.name_span))
        .collect();
    let values: Vec<_> = request
        .headers
        .iter()
        .map(|h| text(src, h.value_span))
        .collect();
    assert_eq!(names, ["Host", "A2A-Version"]);
    assert_eq!(values, ["agent.example", "1.0"]);
    let content_type = resp(&capture.exchanges[0]).header("content-type").unwrap();
    assert_eq!(content_type.value, b"application/json");
    assert_eq!(
        text(src, content_type.span()),
        "Content-Type:  application/json"
    );
    assert_eq!(resp(&capture.exchanges[0]).span, Span::new(63, src.len()));
}

#[test]
fn chunked_sse_events_are_decoded_and_spans_stay_raw() {
    let (event1, event2) = (
        "data: {\"task\":{\"id\":\"1\"}}\r\n\r\n",
        "data: {\"a\":1}\r\n\r\n",
    );
    let src = format!(
        "POST /message:stream HTTP/1.1\r\nContent-Length: 2\r\n\r\n{{}}\r\n\
HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n\
{:x};ext=1\r\n{event1}\r\n{:x}\r\n{event2}\r\n0\r\nX-Trailer: done\r\n\r\n",
        event1.len(),
        event2.len()
    );
    let src = src.as_bytes();
    let capture = read_http(src);
    assert!(capture.problems.is_empty(), "{:?}", capture.problems);
    let response = resp(&capture.exchanges[0]);
    assert_eq!(body(response), format!("{event1}{event2}"));
    let raw = text(src, response.body.raw);
    assert!(
        raw.starts_with("1d;ext=1\r\n") && raw.ends_with("X-Trailer: done"),
        "{raw:?}"
    );
    // A decoded position maps back into the second chunk's data.
    let content = response.body.content.as_ref().unwrap();
    let decoded = body(response).find("{\"a\"").unwrap();
    let mapped = content
        .capture_span(Span::new(decoded, decoded + 7))
        .unwrap();
    assert_eq!(text(src, mapped), "{\"a\":1}");
}

#[test]
fn content_codings_are_undone() {
    let gzip = {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(b"{\"jsonrpc\":\"2.0\"}").unwrap();
        e.finish().unwrap()
    };
    let mut src = format!(
        "POST /rpc HTTP/1.1\nContent-Length: 2\n\n{{}}\nHTTP/1.1 200 OK\nContent-Encoding: gzip\nContent-Length: {}\n\n",
        gzip.len()
    )
    .into_bytes();
    src.extend_from_slice(&gzip);
    src.extend_from_slice(b"\n###\nGET /x HTTP/1.1\n\nHTTP/1.1 200 OK\nContent-Encoding: zstd\nContent-Length: 3\n\nabc\n");
    let capture = read_http(&src);
    assert_eq!(capture.exchanges.len(), 2);
    let response = resp(&capture.exchanges[0]);
    assert_eq!(body(response), "{\"jsonrpc\":\"2.0\"}");
    assert_eq!(response.body.raw.len(), gzip.len());
    let undecodable = resp(&capture.exchanges[1]);
    assert!(undecodable.body.content.is_none());
    match &capture.problems[..] {
        [ReadProblem::Undecodable { header, coding, .. }] => {
            assert_eq!(coding, "zstd");
            assert_eq!(text(&src, *header), "zstd");
        }
        other => panic!("unexpected problems {other:?}"),
    }
}

#[test]
fn separators_comments_and_lf_only_lines() {
    let src = b"### Get a task\n# a comment\n// another\nGET /tasks/1 HTTP/1.1\nA2A-Version: 1.0\n\n\
HTTP/1.1 200 OK\nContent-Type: application/json\n\n{\"id\": \"1\"}\n\n\
### second\nPOST /message:send HTTP/1.1\n\n{\"message\": {}}\n# trailing comment\nHTTP/1.1 500 Internal Server Error\n\noops\n";
    let capture = read_http(src);
    assert!(capture.problems.is_empty(), "{:?}", capture.problems);
    assert_eq!(capture.exchanges.len(), 2);
    let first = &capture.exchanges[0];
    assert_eq!(
        text(src, req(first).start_line_span),
        "GET /tasks/1 HTTP/1.1"
    );
    assert!(req(first).body.raw.is_empty());
    assert_eq!(body(resp(first)), "{\"id\": \"1\"}");
    let second = &capture.exchanges[1];
    assert_eq!(body(req(second)), "{\"message\": {}}");
    assert_eq!(body(resp(second)), "oops");
    assert_eq!(text(src, resp(second).body.raw), "oops");
}

#[test]
fn http_1_0_interim_responses_and_bodiless_statuses() {
    let src = b"POST /rpc HTTP/1.0\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n{}\
HTTP/1.1 100 Continue\r\n\r\nHTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\n{}\
HEAD /tasks HTTP/1.1\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 120\r\n\r\n\
GET /a HTTP/1.1\r\n\r\nHTTP/1.1 304 Not Modified\r\n\r\n\
DELETE /b HTTP/1.1\r\n\r\nHTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n";
    let capture = read_http(src);
    assert!(capture.problems.is_empty(), "{:?}", capture.problems);
    assert_eq!(capture.exchanges.len(), 4);
    let first = &capture.exchanges[0];
    assert_eq!(req(first).version, Version::Http10);
    assert_eq!(first.interim.len(), 1);
    assert_eq!(first.interim[0].status(), Some(100));
    assert_eq!(resp(first).status(), Some(200));
    for ex in &capture.exchanges[1..] {
        assert!(
            resp(ex).body.raw.is_empty(),
            "exchange {} has a body",
            ex.index
        );
    }
}

#[test]
fn body_without_length_runs_to_the_next_delimiter() {
    let src = b"POST /a HTTP/1.1\n\nfirst body\nline two\nHTTP/1.1 200 OK\n\nreply\n###\nPOST /b HTTP/1.1\n\nlast body\n\n";
    let capture = read_http(src);
    assert_eq!(capture.exchanges.len(), 2);
    assert_eq!(body(req(&capture.exchanges[0])), "first body\nline two");
    assert_eq!(body(resp(&capture.exchanges[0])), "reply");
    assert_eq!(body(req(&capture.exchanges[1])), "last body");
    assert!(capture.exchanges[1].response.is_none());
}

#[test]
fn content_length_mismatches_are_recorded_with_both_spans() {
    let src = b"POST /a HTTP/1.1\nContent-Length: 3\n\n{\"a\":1}\n###\nPOST /b HTTP/1.1\nContent-Length: 50\n\n{}";
    let capture = read_http(src);
    assert_eq!(capture.exchanges.len(), 2);
    let mismatches: Vec<_> = capture
        .problems
        .iter()
        .map(|p| match p {
            ReadProblem::LengthMismatch {
                header,
                declared,
                actual,
                body,
            } => (text(src, *header), *declared, *actual, text(src, *body)),
            other => panic!("unexpected {other:?}"),
        })
        .collect();
    assert_eq!(mismatches, [("3", 3, 7, "{\"a\":1}"), ("50", 50, 2, "{}")]);
    assert_eq!(body(req(&capture.exchanges[0])), "{\"a\":1}");
}

#[test]
fn truncated_files_keep_what_was_read() {
    let src = b"GET /tasks/1 HTTP/1.1\r\nHost: a\r\n\r\nHTTP/1.1 200 OK\r\nContent-Type: appl";
    let capture = read_http(src);
    assert_eq!(
        syntax_messages(&capture),
        ["message head is not ended by an empty line"]
    );
    let response = resp(&capture.exchanges[0]);
    assert_eq!(text(src, response.headers[0].value_span), "appl");

    // A chunked body cut inside a chunk keeps the chunks before it (none here).
    let chunk_cut = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n10\r\nabc";
    let capture = read_http(chunk_cut);
    assert!(syntax_messages(&capture).is_empty());
    let response = resp(&capture.exchanges[0]);
    assert!(response.body.cut);
    assert_eq!(body(response), "");
    match &capture.problems[..] {
        [ReadProblem::Incomplete { span, note, .. }] => {
            assert_eq!(text(chunk_cut, *span), "10\r\nabc");
            assert!(
                !note,
                "a body other than an event stream is missing its end"
            );
        }
        other => panic!("unexpected {other:?}"),
    }
}

/// The `Content-Length` problems of `src`, as (declared, actual).
fn length_mismatches(src: &[u8]) -> Vec<(u64, usize)> {
    read_http(src)
        .problems
        .iter()
        .filter_map(|p| match p {
            ReadProblem::LengthMismatch {
                declared, actual, ..
            } => Some((*declared, *actual)),
            _ => None,
        })
        .collect()
}

#[test]
fn a_separator_right_after_a_content_length_body_ends_it() {
    // The body's own last line feed, then the `###` line.
    let page = "<html><body>Not Found</body></html>\n";
    let src = format!(
        "GET /favicon.ico HTTP/1.1\r\n\r\nHTTP/1.1 404 Not Found\r\nContent-Type: text/html\r\n\
Content-Length: {}\r\n\r\n{page}### next\nGET /a HTTP/1.1\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{{}}",
        page.len()
    );
    let capture = read_http(src.as_bytes());
    assert!(capture.problems.is_empty(), "{:?}", capture.problems);
    assert_eq!(capture.exchanges.len(), 2);
    assert_eq!(body(resp(&capture.exchanges[0])), page);
    assert_eq!(body(resp(&capture.exchanges[1])), "{}");

    // An empty body, the head's empty line, then the `###` line; CRLF or LF.
    for src in [
        &b"GET /a HTTP/1.1\r\ncontent-length: 0\r\n\r\n### title\r\nHTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n### more\r\n"[..],
        b"GET /a HTTP/1.1\ncontent-length: 0\n\n### title\nHTTP/1.1 200 OK\ncontent-length: 0\n\n###\n",
    ] {
        let capture = read_http(src);
        assert!(capture.problems.is_empty(), "{:?}", capture.problems);
        let exchange = &capture.exchanges[0];
        assert!(req(exchange).body.raw.is_empty() && resp(exchange).body.raw.is_empty());
    }

    // A length that ends inside the body still disagrees, whatever follows.
    assert_eq!(
        length_mismatches(b"GET /a HTTP/1.1\nContent-Length: 3\n\nabc\ndef\n### next\n"),
        [(3, 7)]
    );
    assert_eq!(
        length_mismatches(b"GET /a HTTP/1.1\nContent-Length: 4\n\nab### next\n"),
        [(4, 10)]
    );
}

/// Every way a short body can sit before the next message, with every declared length:
/// a mismatch is only ever recorded between lengths that differ.
#[test]
fn a_length_mismatch_never_reports_equal_lengths() {
    let pieces: [&[u8]; 8] = [b"", b"x", b"\n", b"\r\n", b" ", b"# c\n", b"### t\n", b"{}"];
    let nexts: [&[u8]; 4] = [b"", b"### next\n", b"GET /b HTTP/1.1\n\n", b"# note\n"];
    let mut checked = 0;
    for a in pieces {
        for b in pieces {
            for c in pieces {
                for next in nexts {
                    let body = [a, b, c].concat();
                    for declared in 0..=body.len() + 1 {
                        let src = [
                            format!("POST /a HTTP/1.1\nContent-Length: {declared}\n\n").as_bytes(),
                            &body,
                            next,
                        ]
                        .concat();
                        for (declared, actual) in length_mismatches(&src) {
                            assert_ne!(
                                declared as usize,
                                actual,
                                "{:?}",
                                String::from_utf8_lossy(&src)
                            );
                        }
                        checked += 1;
                    }
                }
            }
        }
    }
    assert!(checked > 10_000);
}

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

#[test]
fn binary_garbage_and_empty_files_do_not_panic() {
    let capture = read_http(b"");
    assert!(capture.exchanges.is_empty() && capture.problems.is_empty());
    let capture = read_http(b"\n\n   \n### only a title\n");
    assert!(capture.exchanges.is_empty() && capture.problems.is_empty());

    let garbage: Vec<u8> = (0..4096u32).map(|i| (i * 7919 % 251) as u8).collect();
    let capture = read_http(&garbage);
    assert!(capture.exchanges.is_empty());
    assert!(!capture.problems.is_empty());
    for problem in &capture.problems {
        let ReadProblem::Syntax { span, .. } = problem else {
            panic!("{problem:?}")
        };
        assert!(span.end <= garbage.len());
    }
}

#[test]
fn recovers_after_a_broken_message() {
    let src = b"POST /rpc HTTP/1.1\nContent-Length: 2\n\n{}\nHTTP/1.1 200 OK\nbroken header line\nContent-Length: 2\n\n{}\n###\nGET /tasks/1 HTTP/1.1\n\nHTTP/1.1 200 OK\nContent-Length: 2\n\n{}\n";
    let capture = read_http(src);
    match &capture.problems[..] {
        [ReadProblem::Syntax { span, message, .. }] => {
            assert_eq!(text(src, *span), "broken header line");
            assert!(message.starts_with("malformed header line"), "{message}");
        }
        other => panic!("unexpected {other:?}"),
    }
    assert_eq!(capture.exchanges.len(), 2);
    assert!(
        capture.exchanges[0].response.is_none(),
        "the broken response is dropped"
    );
    assert_eq!(resp(&capture.exchanges[1]).status(), Some(200));

    let stray = b"this is not http\nmore junk\nGET / HTTP/1.1\n\nHTTP/1.1 200 OK\n\n";
    let capture = read_http(stray);
    match &capture.problems[..] {
        [ReadProblem::Syntax { span, .. }] => assert_eq!(text(stray, *span), "this is not http"),
        other => panic!("unexpected {other:?}"),
    }
    assert_eq!(capture.exchanges.len(), 1);
}

#[test]
fn unpaired_messages_become_one_sided_exchanges() {
    let src = b"HTTP/1.1 200 OK\n\n###\nGET /a HTTP/1.1\n\nGET /b HTTP/1.1\n\nHTTP/1.1 200 OK\n\n";
    let capture = read_http(src);
    let sides: Vec<_> = capture
        .exchanges
        .iter()
        .map(|e| (e.request.is_some(), e.response.is_some()))
        .collect();
    assert_eq!(sides, [(false, true), (true, false), (true, true)]);
}

#[test]
fn bad_start_lines_and_versions_are_located() {
    for (src, expected_span, expected_message) in [
        (
            &b"HTTP/2 200\n\n"[..],
            "HTTP/2 200",
            "expected a request line",
        ),
        (
            b"GET /x HTTP/2.0\n\n",
            "GET /x HTTP/2.0",
            "start line is not HTTP/1.0 or HTTP/1.1",
        ),
        (
            b"GET /x HTTP/1.1\nX: \x01\n\n",
            "X: \x01",
            "malformed header line",
        ),
    ] {
        let capture = read_http(src);
        match &capture.problems[..] {
            [ReadProblem::Syntax { span, message, .. }] => {
                assert_eq!(text(src, *span), expected_span);
                assert!(message.starts_with(expected_message), "{message}");
            }
            other => panic!("{:?}: unexpected {other:?}", String::from_utf8_lossy(src)),
        }
    }
}

#[test]
fn status_lines_without_or_with_non_ascii_reasons() {
    let src = "GET /a HTTP/1.1\n\nHTTP/1.1 204\n\nGET /b HTTP/1.1\n\nHTTP/1.1 200 \u{e9}t\u{e9}\nContent-Length: 0\n\n".as_bytes();
    let capture = read_http(src);
    assert!(capture.problems.is_empty(), "{:?}", capture.problems);
    let statuses: Vec<_> = capture.exchanges.iter().map(|e| resp(e).status()).collect();
    assert_eq!(statuses, [Some(204), Some(200)]);
    match resp(&capture.exchanges[1]).start_line {
        a2alint::input::capture::StartLine::Response { reason, .. } => {
            assert_eq!(reason, "\u{e9}t\u{e9}")
        }
        other => panic!("{other:?}"),
    }
}
