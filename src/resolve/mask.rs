//! Finds the credential values in a capture's headers so every output can mask them.

use crate::capture::Capture;
use crate::source::Span;

/// Headers whose values are credentials.
const CREDENTIAL_HEADERS: &[&str] = &[
    "authorization",
    "proxy-authorization",
    "cookie",
    "set-cookie",
    "x-api-key",
    "api-key",
];

/// Value spans of every credential header in the capture, sorted by start.
pub fn credential_spans(capture: &Capture<'_>) -> Vec<Span> {
    let mut spans: Vec<Span> = capture
        .exchanges
        .iter()
        .flat_map(|e| e.request.iter().chain(&e.interim).chain(e.response.iter()))
        .flat_map(|m| &m.headers)
        .filter(|h| {
            CREDENTIAL_HEADERS
                .iter()
                .any(|c| h.name.eq_ignore_ascii_case(c))
        })
        .map(|h| h.value_span)
        .collect();
    spans.sort();
    spans
}
