//! `Content-Length` that disagrees with the body, and what ends a body.

use a2alint::input::capture::{ReadProblem, read_http};

use super::*;

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
