//! The A2A version a request declares: its `A2A-Version` header, or the query parameter.

use crate::input::capture::{Exchange, Message, StartLine};
use crate::input::source::Span;

/// The `A2A-Version` the request of `exchange` declares (header, or query parameter per
/// A2A §3.6.1), and where its value is.
pub(super) fn declared_version<'a>(exchange: &'a Exchange<'_>) -> Option<(&'a str, Span)> {
    let request = exchange.request.as_ref()?;
    // An empty value is the same as none: both mean 0.3 (A2A §3.6.2).
    if let Some(header) = request.header("a2a-version") {
        let value = header.value_str().unwrap_or("").trim();
        return (!value.is_empty()).then_some((value, header.value_span));
    }
    let target = match request.start_line {
        StartLine::Request { target, .. } => target,
        StartLine::Response { .. } => return None,
    };
    let query = target.split_once('?')?.1;
    let pair = query.split('&').find(|p| {
        p.split('=')
            .next()
            .is_some_and(|k| k.eq_ignore_ascii_case("a2a-version"))
    })?;
    let value = pair.split_once('=').map_or("", |(_, v)| v);
    if value.is_empty() {
        return None;
    }
    let offset = pair.as_ptr() as usize - target.as_ptr() as usize;
    let span = request.start_line_span;
    let start = span.start + request_target_offset(request) + offset + pair.len() - value.len();
    Some((value, Span::new(start, start + value.len())))
}

/// Offset of the request target within the start line.
fn request_target_offset(request: &Message<'_>) -> usize {
    request.method().map_or(0, |m| m.len() + 1)
}
