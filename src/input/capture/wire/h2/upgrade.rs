//! HTTP/2 reached by `Upgrade: h2c` (RFC 7540 §3.2): stream 1's request and its `101`
//! are HTTP/1.1 bytes, read here for their spans and the settings the request carried.

use base64::Engine;

use crate::input::capture::head::parse_head;
use crate::input::capture::lines::line_at;
use crate::input::source::Span;

/// The parts of an HTTP/1.1 message copied into a text view, as spans of that text.
#[derive(Debug, PartialEq, Eq)]
pub struct Http1Spans {
    pub start_line: Span,
    /// The method and target, or the status digits and an empty span after them.
    pub first: Span,
    pub second: Span,
    pub headers: Vec<(Span, Span)>,
    pub body: Span,
}

/// Reads the message that `text[start..]` holds (it ends with the text).
pub fn http1_spans(text: &[u8], start: usize) -> Http1Spans {
    let line = line_at(text, start);
    let start_line = Span::new(start, start + line.len());
    let mut words = line.split(|&b| b == b' ');
    let first_len = words.next().map_or(0, <[u8]>::len);
    let second_len = words.next().map_or(0, <[u8]>::len);
    let first = Span::new(start, start + first_len);
    let second_start = (first.end + 1).min(start_line.end);
    let second = Span::new(
        second_start,
        (second_start + second_len).min(start_line.end),
    );
    let (first, second) = if line.starts_with(b"HTTP/") {
        (second, Span::new(second.end, second.end))
    } else {
        (first, second)
    };
    let (headers, body_start) = match parse_head(text, start) {
        Ok(head) => (
            (head.headers.iter())
                .map(|h| (h.name_span, h.value_span))
                .collect(),
            head.end,
        ),
        Err(_) => (Vec::new(), text.len()),
    };
    Http1Spans {
        start_line,
        first,
        second,
        headers,
        body: Span::new(body_start.min(text.len()), text.len()),
    }
}

/// The SETTINGS payload an upgrade request carries in `HTTP2-Settings`, base64url
/// encoded (RFC 7540 §3.2.1); nothing when it is missing or not valid.
pub fn http2_settings(request: &[u8]) -> Vec<(u16, u32)> {
    let Ok(head) = parse_head(request, 0) else {
        return Vec::new();
    };
    let Some(value) = (head.headers.iter())
        .find(|h| h.name.eq_ignore_ascii_case("http2-settings"))
        .and_then(|h| h.value_str())
    else {
        return Vec::new();
    };
    let value = value.trim().trim_end_matches('=');
    let Ok(payload) = base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(value) else {
        return Vec::new();
    };
    (payload.chunks_exact(6))
        .map(|p| {
            let id = u16::from_be_bytes([p[0], p[1]]);
            (id, u32::from_be_bytes([p[2], p[3], p[4], p[5]]))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_request_and_status_spans() {
        let text = b"xxGET /a HTTP/1.1\r\nHost: h\r\n\r\nbody";
        let spans = http1_spans(text, 2);
        assert_eq!(&text[spans.first.range()], b"GET");
        assert_eq!(&text[spans.second.range()], b"/a");
        assert_eq!(&text[spans.headers[0].1.range()], b"h");
        assert_eq!(&text[spans.body.range()], b"body");
        let text = b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: h2c\r\n\r\n";
        let spans = http1_spans(text, 0);
        assert_eq!(&text[spans.first.range()], b"101");
        assert!(spans.second.is_empty() && spans.body.is_empty());
    }

    #[test]
    fn reads_the_upgrade_settings() {
        // SETTINGS_HEADER_TABLE_SIZE 0 and SETTINGS_MAX_FRAME_SIZE 32768.
        let request = b"GET / HTTP/1.1\r\nHTTP2-Settings: AAEAAAAAAAUAAIAA\r\n\r\n";
        assert_eq!(http2_settings(request), vec![(1, 0), (5, 32768)]);
        assert!(http2_settings(b"GET / HTTP/1.1\r\nHTTP2-Settings: !\r\n\r\n").is_empty());
    }
}
