//! Broken input: what is kept, what is located, and that nothing panics.

use a2alint::input::capture::{ReadProblem, read_http};

use super::*;

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
