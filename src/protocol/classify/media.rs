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
        let value = String::from_utf8_lossy(header.value);
        let essence = value
            .split(';')
            .next()
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase();
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
