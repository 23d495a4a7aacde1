//! Finds the bytes of a JSON member from its JSON pointer (RFC 6901), so a finding can
//! point at `/error/details/0/domain` in the body. serde_json keeps no positions; this
//! scanner runs only for members a finding points at, on bodies already known to parse.

use std::borrow::Cow;

use crate::input::json_end::{container_end, string_end};
use crate::input::source::Span;

/// The span of the value at `pointer` in `json`.
pub fn locate_value(json: &[u8], pointer: &str) -> Option<Span> {
    Scanner::new(json, Json::Any).value(pointer)
}

/// [`locate_value`] in JSON known to be valid (parsed already): the objects, arrays and
/// strings on the way are stepped over by blocks ([`container_end`], [`string_end`]),
/// not token by token.
pub fn locate_value_in_valid(json: &[u8], pointer: &str) -> Option<Span> {
    Scanner::new(json, Json::Valid).value(pointer)
}

/// [`locate_key`] in JSON known to be valid, as [`locate_value_in_valid`].
pub fn locate_key_in_valid(json: &[u8], pointer: &str) -> Option<Span> {
    Scanner::new(json, Json::Valid).key(pointer)
}

/// The span of the member name (with its quotes) for the object member at `pointer`; for
/// an array element, the element itself.
pub fn locate_key(json: &[u8], pointer: &str) -> Option<Span> {
    Scanner::new(json, Json::Any).key(pointer)
}

/// What is known of the JSON scanned.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Json {
    /// Nothing: it may be cut short or malformed, and is stepped over token by token.
    Any,
    /// It parsed: containers may be stepped over whole.
    Valid,
}

/// A pointer token as the member name it stands for (RFC 6901 §4). Tokens almost never
/// hold an escape, so those without `~` are borrowed as they are.
fn unescape_token(token: &str) -> Cow<'_, str> {
    if token.contains('~') {
        Cow::Owned(token.replace("~1", "/").replace("~0", "~"))
    } else {
        Cow::Borrowed(token)
    }
}

struct Scanner<'a> {
    bytes: &'a [u8],
    pos: usize,
    json: Json,
}

impl<'a> Scanner<'a> {
    fn new(bytes: &'a [u8], json: Json) -> Self {
        Scanner {
            bytes,
            pos: 0,
            json,
        }
    }

    fn value(mut self, pointer: &str) -> Option<Span> {
        self.descend(pointer)?;
        self.skip_ws();
        let start = self.pos;
        self.skip_value()?;
        Some(Span::new(start, self.pos))
    }

    fn key(mut self, pointer: &str) -> Option<Span> {
        let (parent, last) = pointer.rsplit_once('/')?;
        self.descend(parent)?;
        self.skip_ws();
        if self.peek()? == b'{' {
            self.find_member(&unescape_token(last)).map(|(key, _)| key)
        } else {
            Scanner::new(self.bytes, self.json).value(pointer)
        }
    }

    #[inline(always)]
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    #[inline(always)]
    fn skip_ws(&mut self) {
        while self.peek().is_some_and(|b| b.is_ascii_whitespace()) {
            self.pos += 1;
        }
    }

    /// Moves to the start of the value at `pointer` (leading whitespace not skipped).
    fn descend(&mut self, pointer: &str) -> Option<()> {
        if pointer.is_empty() {
            return Some(());
        }
        for token in pointer.strip_prefix('/')?.split('/') {
            self.skip_ws();
            match self.peek()? {
                b'{' => {
                    let (_, value_start) = self.find_member(&unescape_token(token))?;
                    self.pos = value_start;
                }
                b'[' => {
                    let index: usize = token.parse().ok()?;
                    self.pos += 1;
                    for _ in 0..index {
                        self.skip_ws();
                        self.skip_value()?;
                        self.skip_ws();
                        if self.peek()? != b',' {
                            return None;
                        }
                        self.pos += 1;
                    }
                    self.skip_ws();
                    if self.peek()? == b']' {
                        return None;
                    }
                }
                _ => return None,
            }
        }
        Some(())
    }

    /// With `pos` on `{`: finds member `name`; returns its key span and value start.
    fn find_member(&mut self, name: &str) -> Option<(Span, usize)> {
        self.pos += 1;
        loop {
            self.skip_ws();
            if self.peek()? == b'}' {
                return None;
            }
            let key_start = self.pos;
            self.skip_string()?;
            let key = Span::new(key_start, self.pos);
            self.skip_ws();
            if self.peek()? != b':' {
                return None;
            }
            self.pos += 1;
            self.skip_ws();
            if key_matches(&self.bytes[key.range()], name) {
                return Some((key, self.pos));
            }
            self.skip_value()?;
            self.skip_ws();
            match self.peek()? {
                b',' => self.pos += 1,
                _ => return None,
            }
        }
    }

    #[inline(always)]
    fn skip_string(&mut self) -> Option<()> {
        if self.peek()? != b'"' {
            return None;
        }
        // A body held in a HAR string is dense with `\"`: blocks step over it faster.
        if self.json == Json::Valid {
            self.pos = string_end(self.bytes, self.pos)?;
            return Some(());
        }
        self.pos += 1;
        loop {
            // A backslash as the last byte steps past the end: the string is cut short.
            let next = memchr::memchr2(b'"', b'\\', self.bytes.get(self.pos..)?)?;
            self.pos += next;
            if self.bytes[self.pos] == b'\\' {
                self.pos += 2;
            } else {
                self.pos += 1;
                return Some(());
            }
        }
    }

    /// Skips one value, iteratively so that nesting depth cannot exhaust the stack.
    fn skip_value(&mut self) -> Option<()> {
        self.skip_ws();
        if self.json == Json::Valid && matches!(self.peek(), Some(b'{' | b'[')) {
            self.pos = container_end(self.bytes, self.pos)?;
            return Some(());
        }
        let mut depth = 0usize;
        loop {
            self.skip_ws();
            match self.peek()? {
                b'"' => self.skip_string()?,
                b'{' | b'[' => {
                    depth += 1;
                    self.pos += 1;
                    continue;
                }
                b'}' | b']' => {
                    depth = depth.checked_sub(1)?;
                    self.pos += 1;
                }
                b',' | b':' if depth > 0 => {
                    self.pos += 1;
                    continue;
                }
                _ => {
                    let len = self.bytes[self.pos..]
                        .iter()
                        .position(|b| {
                            matches!(b, b',' | b'}' | b']' | b':') || b.is_ascii_whitespace()
                        })
                        .unwrap_or(self.bytes.len() - self.pos);
                    if len == 0 {
                        return None;
                    }
                    self.pos += len;
                }
            }
            if depth == 0 {
                return Some(());
            }
        }
    }
}

/// Compares a quoted JSON key with `name`, unescaping only when the key has escapes.
fn key_matches(quoted: &[u8], name: &str) -> bool {
    let inner = &quoted[1..quoted.len() - 1];
    if !inner.contains(&b'\\') {
        return inner == name.as_bytes();
    }
    serde_json::from_slice::<String>(quoted).is_ok_and(|key| key == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    const BODY: &str = r#"{ "jsonrpc": "2.0", "id": 7,
  "error": {"code": -32001, "message": "Task \"x\" not found",
    "data": [ {"@type": "t", "domain": "example.com"}, [1, {"a": [2]}], {"re\u0061son": "R"} ] } }"#;

    /// The value at `pointer`, found the same in valid JSON when known to be valid.
    fn at(pointer: &str) -> Option<&'static str> {
        let found = locate_value(BODY.as_bytes(), pointer);
        assert_eq!(locate_value_in_valid(BODY.as_bytes(), pointer), found);
        found.map(|s| &BODY[s.range()])
    }

    #[test]
    fn locates_values_by_pointer() {
        assert_eq!(at("/id"), Some("7"));
        assert_eq!(at("/error/code"), Some("-32001"));
        assert_eq!(at("/error/message"), Some(r#""Task \"x\" not found""#));
        assert_eq!(at("/error/data/0/domain"), Some(r#""example.com""#));
        assert_eq!(at("/error/data/1/1/a/0"), Some("2"));
        assert_eq!(at("/error/data/2/reason"), Some(r#""R""#));
        assert_eq!(at("/error/data/1"), Some(r#"[1, {"a": [2]}]"#));
        assert_eq!(at(""), Some(BODY));
        assert_eq!(at("/error/data/3"), None);
        assert_eq!(at("/nope"), None);
        assert_eq!(at("/id/0"), None);
    }

    #[test]
    fn locates_member_names() {
        for locate in [locate_key, locate_key_in_valid] {
            let key = locate(BODY.as_bytes(), "/error/data").unwrap();
            assert_eq!(&BODY[key.range()], r#""data""#);
            let element = locate(BODY.as_bytes(), "/error/data/2").unwrap();
            assert!(BODY[element.range()].starts_with(r#"{"re\u0061son""#));
        }
    }

    #[test]
    fn escaped_pointer_tokens() {
        let json = br#"{"a/b": {"m~n": 1}}"#;
        let span = locate_value(json, "/a~1b/m~0n").unwrap();
        assert_eq!(&json[span.range()], b"1");
    }
}
