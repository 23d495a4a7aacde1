//! Writes a HAR entry as HTTP/1.1 text, recording where each piece came from when asked.

use std::borrow::Cow;

use base64::Engine;
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};

use super::entry::{BodyParts, Entry, Pair};
use super::{Layout, Member, NOT_IN_VALUE, Piece};
use crate::input::capture::Side;

/// Standard base64, padded or not.
const BASE64: GeneralPurpose = GeneralPurpose::new(
    &base64::alphabet::STANDARD,
    GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent),
);

/// Headers about the bytes on the wire; HAR bodies are already decoded.
const FRAMING_HEADERS: &[&str] = &["content-length", "transfer-encoding", "content-encoding"];

/// Writes `entry` to `out`: its request and, when one was received, its response. With
/// `layout`, records where each piece came from. Gives the bodies marked
/// `encoding: base64` that are not base64 (their text is written as it is).
pub fn write_entry(
    out: &mut Vec<u8>,
    entry: &Entry<'_>,
    mut layout: Option<&mut Layout>,
) -> Vec<Side> {
    let base = out.len();
    let mut bad_base64 = Vec::new();
    if let Some(request) = &entry.request {
        let mut w = Writer {
            out: &mut *out,
            base,
            side: Side::Request,
            layout: layout.as_deref_mut(),
        };
        w.piece(Member::Method, 0, &request_method(&request.method.0));
        w.text(" ");
        let (at, target) = request_target(&request.url.0);
        w.piece(Member::Url, at, &target);
        w.text(" ");
        let version = if request.http_version.is_some() {
            Member::Version
        } else {
            Member::Url
        };
        w.piece(version, NOT_IN_VALUE, "HTTP/1.1");
        w.text("\r\n");
        if !w.message(&request.headers, request.post_data.as_ref(), true) {
            bad_base64.push(Side::Request);
        }
    }
    let answered = entry.response.as_ref().filter(|r| r.received());
    if let Some(response) = answered {
        let mut w = Writer {
            out: &mut *out,
            base,
            side: Side::Response,
            layout,
        };
        let version = if response.http_version.is_some() {
            Member::Version
        } else {
            Member::Status
        };
        w.piece(version, NOT_IN_VALUE, "HTTP/1.1");
        w.text(" ");
        w.piece(Member::Status, 0, &response.status.to_string());
        // The space stays when there is no reason phrase (HTTP/2 has none), and the phrase
        // is kept to ASCII: the head parser gives no span for a missing or non-ASCII one.
        w.text(" ");
        w.piece(Member::StatusText, 0, &clean(&response.status_text.0, true));
        w.text("\r\n");
        // RFC 9110 §6.4.1: no body on 1xx, 204 and 304, nor on any answer to HEAD.
        let head = entry.request.as_ref().is_some_and(|r| r.method.0 == "HEAD");
        let bodiless = head || matches!(response.status, 100..=199 | 204 | 304);
        if !w.message(&response.headers, response.content.as_ref(), !bodiless) {
            bad_base64.push(Side::Response);
        }
    }
    bad_base64
}

/// Writes one message's text, recording pieces when a layout is asked for.
struct Writer<'w> {
    out: &'w mut Vec<u8>,
    base: usize,
    side: Side,
    layout: Option<&'w mut Layout>,
}

impl Writer<'_> {
    fn text(&mut self, text: &str) {
        self.out.extend_from_slice(text.as_bytes());
    }

    /// Writes `text` for `member`; `value_offset` is where it sits in the member's value.
    fn piece(&mut self, member: Member, value_offset: usize, text: &str) {
        self.bytes_piece(member, value_offset, text.as_bytes());
    }

    fn bytes_piece(&mut self, member: Member, value_offset: usize, bytes: &[u8]) {
        let start = self.out.len() - self.base;
        self.out.extend_from_slice(bytes);
        let side = self.side;
        if let Some(layout) = self.layout.as_deref_mut() {
            let end = start + bytes.len();
            layout.pieces.push(Piece {
                start,
                end,
                side,
                member,
                value_offset,
            });
        }
    }

    /// Writes the headers and body after a start line; false if a base64 body is not
    /// base64. The message's text runs from its start line to the line end after its body.
    fn message(
        &mut self,
        headers: &Option<Vec<Pair<'_>>>,
        body: Option<&BodyParts<'_>>,
        has_body: bool,
    ) -> bool {
        let (bytes, decoded) = if has_body {
            body_bytes(body)
        } else {
            (Cow::Borrowed(&[][..]), true)
        };
        for (i, header) in headers.iter().flatten().enumerate() {
            let name = header.name.0.as_ref();
            if !is_token(name) || FRAMING_HEADERS.iter().any(|h| name.eq_ignore_ascii_case(h)) {
                continue;
            }
            self.piece(Member::HeaderName(i), 0, name);
            self.text(": ");
            self.piece(Member::HeaderValue(i), 0, &clean(&header.value.0, false));
            self.text("\r\n");
        }
        if !bytes.is_empty() {
            self.text("Content-Length: ");
            self.text(itoa::Buffer::new().format(bytes.len()));
            self.text("\r\n");
        }
        self.text("\r\n");
        self.bytes_piece(Member::Body, 0, &bytes);
        self.text("\r\n");
        let (side, end) = (self.side, self.out.len() - self.base);
        if let Some(layout) = self.layout.as_deref_mut() {
            let start = layout
                .pieces
                .iter()
                .find(|p| p.side == side)
                .map_or(0, |p| p.start);
            layout.messages.push((side, start..end));
        }
        decoded
    }
}

/// A body's bytes, base64-decoded when it says so; false when it is not base64 (its text
/// is used as it is).
fn body_bytes<'b>(body: Option<&'b BodyParts<'_>>) -> (Cow<'b, [u8]>, bool) {
    let Some(text) = body.and_then(|b| b.text.as_ref()).map(|t| t.0.as_bytes()) else {
        return (Cow::Borrowed(&[]), true);
    };
    let encoding = body.and_then(|b| b.encoding.as_ref());
    if !encoding.is_some_and(|e| e.0.eq_ignore_ascii_case("base64")) {
        return (Cow::Borrowed(text), true);
    }
    let compact: Cow<'_, [u8]> = if text.iter().any(u8::is_ascii_whitespace) {
        text.iter()
            .copied()
            .filter(|b| !b.is_ascii_whitespace())
            .collect()
    } else {
        Cow::Borrowed(text)
    };
    match BASE64.decode(&compact) {
        Ok(decoded) => (Cow::Owned(decoded), true),
        Err(_) => (Cow::Borrowed(text), false),
    }
}

/// The method as a request line needs it: `[A-Z_-]{1,24}`.
fn request_method(method: &str) -> Cow<'_, str> {
    let valid = |b: u8| b.is_ascii_uppercase() || b == b'-' || b == b'_';
    if (1..=24).contains(&method.len()) && method.bytes().all(valid) {
        return Cow::Borrowed(method);
    }
    let cleaned: String = method
        .bytes()
        .map(|b| b.to_ascii_uppercase())
        .filter(|&b| valid(b))
        .take(24)
        .map(char::from)
        .collect();
    Cow::Owned(if cleaned.is_empty() {
        "UNKNOWN".into()
    } else {
        cleaned
    })
}

/// The request target of `url`, its path and query, and where it starts in `url`.
fn request_target(url: &str) -> (usize, Cow<'_, str>) {
    let start = match url.find("://") {
        Some(scheme) if !url.starts_with('/') => {
            let authority = scheme + 3;
            url[authority..]
                .find(['/', '?', '#'])
                .map_or(url.len(), |i| authority + i)
        }
        _ => 0,
    };
    let end = url[start..].find('#').map_or(url.len(), |i| start + i);
    let target = &url[start..end];
    if target.starts_with('/') && target.bytes().all(|b| b > b' ' && b != 0x7f) {
        return (start, Cow::Borrowed(target));
    }
    let mut fixed = String::from(if target.starts_with('/') { "" } else { "/" });
    for c in target.chars() {
        if c <= ' ' || c == '\x7f' {
            fixed.push_str(&format!("%{:02X}", u32::from(c)));
        } else {
            fixed.push(c);
        }
    }
    (start, Cow::Owned(fixed))
}

/// Text a message head can hold: control characters become spaces, and with `ascii`
/// (reason phrases) other non-ASCII characters become `?`.
fn clean(text: &str, ascii: bool) -> Cow<'_, str> {
    let fix = |c: char| match c {
        '\t' => c,
        c if c.is_control() => ' ',
        c if ascii && !c.is_ascii() => '?',
        c => c,
    };
    // Nearly every header is printable ASCII, which is kept as it is: checked bytewise.
    let printable = |b: u8| (b' '..=b'~').contains(&b) || b == b'\t';
    if text.bytes().all(printable) || text.chars().all(|c| fix(c) == c) {
        Cow::Borrowed(text)
    } else {
        Cow::Owned(text.chars().map(fix).collect())
    }
}

fn is_token(name: &str) -> bool {
    !name.is_empty()
        && (name.bytes()).all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clean_keeps_printable_text_and_blanks_control_characters() {
        assert!(matches!(
            clean("text/plain; q=1\tx", false),
            Cow::Borrowed(_)
        ));
        assert_eq!(clean("a\u{7}b\u{85}c\u{7f}d", false), "a b c d");
        assert_eq!(clean("caf\u{e9}", false), "caf\u{e9}");
        assert_eq!(clean("caf\u{e9}", true), "caf?");
    }
}
