//! Media types from `Content-Type` headers: the lower-cased `type/subtype` essence.

use crate::input::capture::{Header, Message};
use crate::input::source::Span;

/// A parsed `Content-Type`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MediaType {
    /// `type/subtype`, lower-cased, without parameters.
    pub essence: String,
    /// The header value in the capture.
    pub span: Span,
}

impl MediaType {
    pub fn of(message: &Message<'_>) -> Option<MediaType> {
        message.header("content-type").map(MediaType::from_header)
    }

    fn from_header(header: &Header<'_>) -> MediaType {
        // Only the essence is read as text: `;` is never part of a UTF-8 sequence, so the
        // parameters are cut off as bytes first.
        let value = header.value;
        let type_and_subtype = &value[..memchr::memchr(b';', value).unwrap_or(value.len())];
        // Read lossily only when it is not text: the lossy reading of text cost more than
        // the rest of the media type.
        let essence = match std::str::from_utf8(type_and_subtype) {
            Ok(text) => text.trim().to_ascii_lowercase(),
            Err(_) => String::from_utf8_lossy(type_and_subtype)
                .trim()
                .to_ascii_lowercase(),
        };
        MediaType {
            essence,
            span: header.value_span,
        }
    }

    /// `application/json` or any `+json` structured syntax suffix (RFC 6839), such as
    /// `application/a2a+json` and `application/problem+json`.
    pub fn is_json(&self) -> bool {
        self.essence == "application/json" || self.essence.ends_with("+json")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn essence(value: &[u8]) -> String {
        let header = Header {
            name: "Content-Type",
            value,
            name_span: Span::new(0, 12),
            value_span: Span::new(14, 14 + value.len()),
        };
        MediaType::from_header(&header).essence
    }

    #[test]
    fn the_essence_is_trimmed_lower_cased_and_without_parameters() {
        assert_eq!(
            essence(b" Application/JSON ; charset=utf-8"),
            "application/json"
        );
        assert_eq!(essence(b"\x0btext/Event-Stream\x0c"), "text/event-stream");
        assert_eq!(essence(b"application/a2a+json"), "application/a2a+json");
        assert_eq!(essence(b"  ;x=1"), "");
        assert_eq!(essence(b""), "");
        // Text that is not ASCII is read as text: Unicode spaces trimmed, bad bytes shown.
        assert_eq!(
            essence("\u{a0}Application/Json\u{2003}".as_bytes()),
            "application/json"
        );
        assert_eq!(essence(b"\xffApp/Json;q=\xfe"), "\u{fffd}app/json");
    }
}
