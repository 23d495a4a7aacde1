//! Framing: messages, headers and bodies found with their spans, codings undone.

use std::io::Write;

use a2alint::input::capture::{ReadProblem, Version, read_http};
use a2alint::input::source::Span;

use super::*;

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
