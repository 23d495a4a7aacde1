//! Arbitrary and damaged bytes: no reader, nor the linter, panics on them.

use a2alint::input::capture::{Capture, Message, parse_events, read_har, read_http};
use a2alint::input::source::Span;
use a2alint::{Options, lint_source};
use proptest::prelude::*;

/// Every span the reader gives lies inside the bytes it read.
pub(crate) fn spans_in_bounds(src: &[u8], capture: &Capture<'_>) -> Result<(), TestCaseError> {
    let inside = |span: Span| span.start <= span.end && span.end <= src.len();
    for exchange in &capture.exchanges {
        let messages = (exchange.request.iter())
            .chain(&exchange.interim)
            .chain(&exchange.response);
        for message in messages {
            prop_assert!(inside(message.span));
            prop_assert!(inside(message.start_line_span));
            prop_assert!(inside(message.body.raw));
            for header in &message.headers {
                prop_assert!(inside(header.name_span) && inside(header.value_span));
            }
        }
    }
    Ok(())
}

pub(crate) fn no_panic_anywhere(bytes: &[u8]) -> Result<(), TestCaseError> {
    let capture = read_http(bytes);
    spans_in_bounds(bytes, &capture)?;
    let har = read_har(bytes);
    prop_assert!(har.entry_starts.iter().all(|&s| s <= har.wire.len()));
    for event in parse_events(bytes) {
        prop_assert!(event.span.end <= bytes.len());
    }
    for name in ["fuzz.http", "fuzz.har"] {
        let report = lint_source(name, bytes, &Options::default());
        for diagnostic in &report.diagnostics {
            prop_assert!(diagnostic.primary.span.end <= bytes.len().max(1));
        }
    }
    Ok(())
}

#[derive(Debug, Clone)]
pub(crate) enum Edit {
    Replace(usize, u8),
    Insert(usize, Vec<u8>),
    Remove(usize, usize),
    Truncate(usize),
}

pub(crate) fn edit() -> impl Strategy<Value = Edit> {
    let bytes = prop_oneof![
        prop::collection::vec(any::<u8>(), 1..4),
        prop::sample::select(vec![
            b"\r\n".to_vec(),
            b"\n\n".to_vec(),
            b"###\n".to_vec(),
            b"HTTP/1.1 200 OK\r\n".to_vec(),
            b"Transfer-Encoding: chunked\r\n".to_vec(),
            b"Content-Length: 99999\r\n".to_vec(),
            b"Content-Encoding: gzip\r\n".to_vec(),
            b"\"}]".to_vec(),
            b"\\".to_vec(),
        ]),
    ];
    prop_oneof![
        (any::<usize>(), any::<u8>()).prop_map(|(at, b)| Edit::Replace(at, b)),
        (any::<usize>(), bytes).prop_map(|(at, b)| Edit::Insert(at, b)),
        (any::<usize>(), 1usize..32).prop_map(|(at, n)| Edit::Remove(at, n)),
        any::<usize>().prop_map(Edit::Truncate),
    ]
}

pub(crate) fn apply(bytes: &mut Vec<u8>, edit: &Edit) {
    let at = |n: usize, len: usize| if len == 0 { 0 } else { n % (len + 1) };
    match edit {
        Edit::Replace(n, b) if !bytes.is_empty() => {
            let i = n % bytes.len();
            bytes[i] = *b;
        }
        Edit::Replace(..) => {}
        Edit::Insert(n, new) => {
            let i = at(*n, bytes.len());
            bytes.splice(i..i, new.iter().copied());
        }
        Edit::Remove(n, count) => {
            let i = at(*n, bytes.len());
            let end = (i + count).min(bytes.len());
            bytes.drain(i..end);
        }
        Edit::Truncate(n) => {
            let len = at(*n, bytes.len());
            bytes.truncate(len);
        }
    }
}

/// A small HAR log holding the same exchanges' bodies, to mutate.
pub(crate) fn har_of(src: &[u8], capture: &Capture<'_>) -> Vec<u8> {
    let text = |m: &Message<'_>| String::from_utf8_lossy(&src[m.body.raw.range()]).into_owned();
    let entries: Vec<serde_json::Value> = capture
        .exchanges
        .iter()
        .map(|e| {
            let request = e.request.as_ref().unwrap();
            let response = e.response.as_ref().unwrap();
            let headers = |m: &Message<'_>| -> Vec<serde_json::Value> {
                m.headers
                    .iter()
                    .map(|h| serde_json::json!({"name": h.name, "value": h.value_str()}))
                    .collect()
            };
            serde_json::json!({
                "request": {
                    "method": request.method(),
                    "url": "https://agent.example/",
                    "headers": headers(request),
                    "postData": {"text": text(request)},
                },
                "response": {
                    "status": response.status(),
                    "headers": headers(response),
                    "content": {"text": text(response)},
                },
            })
        })
        .collect();
    serde_json::to_vec_pretty(&serde_json::json!({"log": {"version": "1.2", "entries": entries}}))
        .unwrap()
}
