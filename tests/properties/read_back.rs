//! Reading a written capture back and comparing it with what was written.

use a2alint::input::capture::{Capture, Message, Origin, StartLine, Version};
use a2alint::input::source::Span;
use proptest::prelude::*;

use super::*;

pub(crate) fn slice(src: &[u8], span: Span) -> String {
    String::from_utf8_lossy(&src[span.range()]).into_owned()
}

pub(crate) fn check_message(
    src: &[u8],
    got: &Message<'_>,
    want: &Msg,
    written: &Written,
    no_body: bool,
) -> Result<(), TestCaseError> {
    match (&got.start_line, &want.start) {
        (
            StartLine::Request { method, target },
            Start::Request {
                method: m,
                target: t,
            },
        ) => {
            prop_assert_eq!(*method, m.as_str());
            prop_assert_eq!(*target, t.as_str());
        }
        (
            StartLine::Response { status, reason },
            Start::Response {
                status: s,
                reason: r,
            },
        ) => {
            prop_assert_eq!(*status, *s);
            prop_assert_eq!(*reason, r.as_str());
        }
        (got, want) => prop_assert!(false, "start line {got:?}, wrote {want:?}"),
    }
    let version = if want.minor == 0 {
        Version::Http10
    } else {
        Version::Http11
    };
    prop_assert_eq!(got.version, version);
    prop_assert_eq!(got.start_line_span, written.start_line);
    prop_assert_eq!(slice(src, got.start_line_span), want.start_line());

    let headers = want.all_headers(no_body);
    prop_assert_eq!(got.headers.len(), headers.len());
    for ((header, (name, value, _)), (name_span, value_span)) in
        got.headers.iter().zip(&headers).zip(&written.headers)
    {
        prop_assert_eq!(header.name, name.as_str());
        prop_assert_eq!(header.value, value.as_bytes());
        prop_assert_eq!(header.name_span, *name_span);
        prop_assert_eq!(slice(src, header.name_span), name.as_str());
        // An empty value has nowhere to be; its span only has to be empty.
        if !value.is_empty() {
            prop_assert_eq!(header.value_span, *value_span);
        }
        prop_assert_eq!(slice(src, header.value_span), value.as_str());
    }

    let body: &[u8] = if no_body { &[] } else { &want.body };
    prop_assert_eq!(got.body.bytes(), Some(body));
    prop_assert_eq!(got.body.raw, written.raw_body);
    prop_assert_eq!(got.span, written.span);
    let content = got.body.content.as_ref().unwrap();
    match (&content.origin, &want.framing) {
        (Origin::Decoded, _) => prop_assert!(want.gzip && !no_body),
        (Origin::Chunked(pieces), Framing::Chunked { .. }) => {
            prop_assert!(!want.gzip);
            let got: Vec<Span> = pieces
                .iter()
                .map(|p| Span::new(p.raw, p.raw + p.len))
                .collect();
            prop_assert_eq!(got, written.chunks.clone());
        }
        (Origin::Verbatim { start }, _) => {
            prop_assert!(!want.gzip || no_body);
            prop_assert_eq!(*start, written.raw_body.start);
        }
        (origin, framing) => prop_assert!(false, "{origin:?} for {framing:?}"),
    }
    let comments: Vec<String> = got.comments.iter().map(|&s| slice(src, s)).collect();
    let wanted: Vec<String> = written.comments.iter().map(|&s| slice(src, s)).collect();
    prop_assert_eq!(comments, wanted);
    Ok(())
}

pub(crate) fn check_capture(
    src: &[u8],
    capture: &Capture<'_>,
    expected: &[Expected],
) -> Result<(), TestCaseError> {
    prop_assert!(capture.problems.is_empty(), "{:?}", capture.problems);
    prop_assert_eq!(capture.exchanges.len(), expected.len());
    for (i, (got, want)) in capture.exchanges.iter().zip(expected).enumerate() {
        prop_assert_eq!(got.index, i);
        let method = match &want.request.start {
            Start::Request { method, .. } => Some(method.as_str()),
            Start::Response { .. } => None,
        };
        let mut written = want.written.iter();
        let request = got.request.as_ref().expect("a request");
        check_message(src, request, &want.request, written.next().unwrap(), false)?;
        prop_assert_eq!(got.interim.len(), usize::from(want.interim));
        if want.interim {
            prop_assert_eq!(got.interim[0].status(), Some(100));
            written.next();
        }
        let response = got.response.as_ref().expect("a response");
        let no_body = want.response.has_no_body(method);
        check_message(
            src,
            response,
            &want.response,
            written.next().unwrap(),
            no_body,
        )?;
    }
    Ok(())
}
