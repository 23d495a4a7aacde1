//! Decodes a message body as JSON once, remembering where parsing failed when it does.

use super::{json_quick, json_skim};

use serde_json::Value;

use crate::input::source::Span;

/// The outcome of reading a body as JSON.
#[derive(Debug)]
pub enum JsonBody {
    /// Not attempted: no body, an undecodable body, or neither declared nor shaped as JSON.
    Absent,
    Parsed(Value),
    /// Declared or shaped as JSON but not valid; `at` is the span in the decoded body
    /// where the parser stopped.
    Invalid {
        at: Span,
        reason: String,
    },
}

impl JsonBody {
    /// Parses `body` when it is declared JSON, or when it looks like a JSON object or
    /// array (JSON-RPC peers sometimes omit `Content-Type`). With `Payloads::Hollow` (a
    /// success response), the payload members no rule reads into are checked but kept
    /// hollow (see `json_skim`).
    pub fn decode(body: Option<&[u8]>, declared_json: bool, payloads: Payloads) -> JsonBody {
        let Some(bytes) = body else {
            return JsonBody::Absent;
        };
        let first = bytes.iter().find(|b| !b.is_ascii_whitespace());
        let shaped_like_json = matches!(first, Some(b'{' | b'['));
        if first.is_none() || !(declared_json || shaped_like_json) {
            return JsonBody::Absent;
        }
        // A body that is UTF-8 as a whole is checked once, here (with SIMD), rather than
        // string by string by the parser: the same parse, the same errors, less work. The
        // quick pass reads it first; serde_json where the quick pass is unsure.
        let parsed = match (simdutf8::basic::from_utf8(bytes), payloads) {
            (Ok(text), Payloads::Full) => {
                json_quick::parse_full(text).map_or_else(|| serde_json::from_str(text), Ok)
            }
            (Ok(text), Payloads::Hollow) => {
                json_quick::parse(text).map_or_else(|| json_skim::from_str(text), Ok)
            }
            (Err(_), Payloads::Full) => serde_json::from_slice(bytes),
            (Err(_), Payloads::Hollow) => json_skim::from_slice(bytes),
        };
        match parsed {
            Ok(value) => JsonBody::Parsed(value),
            Err(error) => {
                let offset = offset_of(bytes, error.line(), error.column());
                let end = (offset + 1).min(bytes.len());
                JsonBody::Invalid {
                    at: Span::new(offset.min(end), end),
                    reason: reason_without_position(&error),
                }
            }
        }
    }

    pub fn value(&self) -> Option<&Value> {
        match self {
            JsonBody::Parsed(value) => Some(value),
            _ => None,
        }
    }
}

/// Whether a success response's payload members are built or kept hollow (checked, not
/// built: no rule reads into them). Requests, error answers (4xx, 5xx) and the `error`
/// member of any answer are always built in full.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Payloads {
    /// Build everything; tests use it to show no rule reads into hollow payloads.
    Full,
    #[default]
    Hollow,
}

/// How a JSON value is described in messages: "a string", "an array", "null".
pub fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Byte offset of serde_json's 1-based line and column (columns count bytes).
fn offset_of(bytes: &[u8], line: usize, column: usize) -> usize {
    let line_start = if line <= 1 {
        0
    } else {
        memchr::memchr_iter(b'\n', bytes)
            .nth(line - 2)
            .map_or(bytes.len(), |i| i + 1)
    };
    (line_start + column.saturating_sub(1)).min(bytes.len())
}

/// serde_json appends " at line L column C"; the report shows the position itself.
fn reason_without_position(error: &serde_json::Error) -> String {
    let text = error.to_string();
    match text.rfind(" at line ") {
        Some(cut) => text[..cut].to_string(),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locates_the_byte_where_parsing_stopped() {
        let body = b"{\n  \"a\": 1,\n  \"b\" 2\n}";
        let JsonBody::Invalid { at, reason } = JsonBody::decode(Some(body), true, Payloads::Full)
        else {
            panic!("expected invalid JSON");
        };
        assert_eq!(&body[at.range()], b"2");
        assert_eq!(reason, "expected `:`");
    }

    #[test]
    fn decodes_only_json_bodies() {
        assert!(matches!(
            JsonBody::decode(Some(b"plain text"), false, Payloads::Full),
            JsonBody::Absent
        ));
        assert!(matches!(
            JsonBody::decode(Some(b"   "), true, Payloads::Full),
            JsonBody::Absent
        ));
        assert!(matches!(
            JsonBody::decode(None, true, Payloads::Full),
            JsonBody::Absent
        ));
        assert!(matches!(
            JsonBody::decode(Some(b"[1]"), false, Payloads::Full),
            JsonBody::Parsed(_)
        ));
        assert!(matches!(
            JsonBody::decode(Some(b"{"), true, Payloads::Full),
            JsonBody::Invalid { .. }
        ));
    }
}
