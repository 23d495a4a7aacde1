//! A quick pass over a body's JSON that builds what serde_json builds (hollow for a success
//! response, as `json_skim` does; in full for the rest); where it has any doubt (an error,
//! an exponent, a long number, a surrogate escape, deep nesting) it gives up and serde_json
//! decides.
//!
//! serde_json walks a hollow payload through its visitor machinery token by token; most of
//! a success response is such payload (a Task's history and artifacts, A2A §4.1.3), so
//! stepping over it with a plain scanner is most of the saving. The contract, tested
//! against serde_json in both directions: whenever the quick pass returns a value,
//! serde_json returns the same value; on ordinary traffic it returns one.

use std::borrow::Cow;

use serde_json::{Map, Value};

use super::json_skim::PAYLOAD_MEMBERS;
use strings::{escape_len, plain_run_end, unescape};

mod strings;

/// serde_json refuses nesting deeper than 128 containers; well below that, the count is
/// never the question.
const MAX_DEPTH: u32 = 100;

/// The longest run of digits whose number serde_json surely holds exactly as parsed here
/// (integers) or surely does not find out of range (fractions).
const MAX_DIGITS: usize = 18;

/// The document `json_skim` would build, or `None` when serde_json should decide.
pub(super) fn parse(text: &str) -> Option<Value> {
    whole(text, Quick::document)
}

/// The document built in full, as `serde_json::from_str` builds it, or `None` when
/// serde_json should decide.
pub(super) fn parse_full(text: &str) -> Option<Value> {
    whole(text, Quick::full)
}

/// `text` read by `read` to its end (trailing whitespace allowed, as serde_json allows it).
fn whole<'t>(text: &'t str, read: fn(&mut Quick<'t>) -> Option<Value>) -> Option<Value> {
    let mut quick = Quick {
        text,
        bytes: text.as_bytes(),
        at: 0,
        depth: 0,
    };
    let value = read(&mut quick)?;
    quick.whitespace();
    (quick.at == quick.bytes.len()).then_some(value)
}

struct Quick<'t> {
    text: &'t str,
    bytes: &'t [u8],
    at: usize,
    depth: u32,
}

/// A string as found: its bytes between the quotes, and whether it has escapes.
#[derive(Clone, Copy)]
struct Found {
    start: usize,
    end: usize,
    escaped: bool,
}

impl<'t> Quick<'t> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    /// JSON's four whitespace bytes (RFC 8259 §2), the only ones serde_json skips.
    fn whitespace(&mut self) {
        while let Some(b' ' | b'\n' | b'\t' | b'\r') = self.peek() {
            self.at += 1;
        }
    }

    /// The whole document: an object has its payload members hollowed (as `json_skim`'s
    /// `Document`); anything else is built in full.
    fn document(&mut self) -> Option<Value> {
        self.whitespace();
        if self.peek()? != b'{' {
            return self.full();
        }
        let mut object = Map::new();
        self.object(|quick, name| {
            let name = quick.text_of(name);
            let value = if name == "result" {
                quick.document()?
            } else if PAYLOAD_MEMBERS.contains(&&*name) {
                quick.hollow()?
            } else {
                quick.full()?
            };
            object.insert(name.into_owned(), value);
            Some(())
        })?;
        Some(Value::Object(object))
    }

    /// A payload member: an object keeps only `status.state`, an array nothing.
    fn hollow(&mut self) -> Option<Value> {
        self.whitespace();
        match self.peek()? {
            b'{' => self
                .only_member("status", Quick::state_only)
                .map(Value::Object),
            b'[' => {
                self.skip()?;
                Some(Value::Array(Vec::new()))
            }
            _ => self.full(),
        }
    }

    /// A status reduced to its `state`; `Some(None)` for a status that is no object.
    fn state_only(&mut self) -> Option<Option<Value>> {
        self.whitespace();
        if self.peek()? != b'{' {
            self.skip()?;
            return Some(None);
        }
        let kept = self.only_member("state", |quick| quick.full().map(Some))?;
        Some(Some(Value::Object(kept)))
    }

    /// The object whose `{` is next, keeping only member `kept`, as `read` builds it; a
    /// member `read` builds nothing of is stepped over, and of several the last built wins
    /// (as `json_skim`'s visitors insert them).
    fn only_member(
        &mut self,
        kept: &str,
        mut read: impl FnMut(&mut Self) -> Option<Option<Value>>,
    ) -> Option<Map<String, Value>> {
        let mut object = Map::new();
        self.object(|quick, name| {
            if quick.text_of(name) != kept {
                return quick.skip();
            }
            if let Some(value) = read(quick)? {
                object.insert(kept.to_owned(), value);
            }
            Some(())
        })?;
        Some(object)
    }

    /// Any value built as `serde_json::Value` builds it.
    fn full(&mut self) -> Option<Value> {
        self.whitespace();
        match self.peek()? {
            b'{' => {
                let mut object = Map::new();
                self.object(|quick, name| {
                    let value = quick.full()?;
                    object.insert(quick.text_of(name).into_owned(), value);
                    Some(())
                })?;
                Some(Value::Object(object))
            }
            b'[' => {
                let mut items = Vec::new();
                self.array(|quick| {
                    items.push(quick.full()?);
                    Some(())
                })?;
                Some(Value::Array(items))
            }
            b'"' => {
                let found = self.string()?;
                Some(Value::String(self.text_of(found).into_owned()))
            }
            b't' => self.literal(b"true").map(|()| Value::Bool(true)),
            b'f' => self.literal(b"false").map(|()| Value::Bool(false)),
            b'n' => self.literal(b"null").map(|()| Value::Null),
            _ => self.number(),
        }
    }

    /// Any value checked and dropped.
    fn skip(&mut self) -> Option<()> {
        self.whitespace();
        match self.peek()? {
            b'{' => self.object(|quick, _| quick.skip()),
            b'[' => self.array(Quick::skip),
            b'"' => self.string().map(|_| ()),
            b't' => self.literal(b"true"),
            b'f' => self.literal(b"false"),
            b'n' => self.literal(b"null"),
            _ => self.number_end().map(|_| ()),
        }
    }

    /// The members of the object whose `{` is next, each handed to `member` after its `:`.
    fn object(&mut self, mut member: impl FnMut(&mut Self, Found) -> Option<()>) -> Option<()> {
        self.enter()?;
        self.whitespace();
        if self.peek()? == b'}' {
            return self.leave();
        }
        loop {
            self.whitespace();
            if self.peek()? != b'"' {
                return None;
            }
            let name = self.string()?;
            self.whitespace();
            if self.peek()? != b':' {
                return None;
            }
            self.at += 1;
            member(self, name)?;
            self.whitespace();
            match self.peek()? {
                b',' => self.at += 1,
                b'}' => return self.leave(),
                _ => return None,
            }
        }
    }

    /// The items of the array whose `[` is next.
    fn array(&mut self, mut item: impl FnMut(&mut Self) -> Option<()>) -> Option<()> {
        self.enter()?;
        self.whitespace();
        if self.peek()? == b']' {
            return self.leave();
        }
        loop {
            item(self)?;
            self.whitespace();
            match self.peek()? {
                b',' => self.at += 1,
                b']' => return self.leave(),
                _ => return None,
            }
        }
    }

    /// Steps into a container (past its opening byte), counting the depth.
    fn enter(&mut self) -> Option<()> {
        self.depth += 1;
        self.at += 1;
        (self.depth <= MAX_DEPTH).then_some(())
    }

    /// Steps out of a container (past its closing byte).
    fn leave(&mut self) -> Option<()> {
        self.depth -= 1;
        self.at += 1;
        Some(())
    }

    fn literal(&mut self, word: &[u8]) -> Option<()> {
        let end = self.at + word.len();
        (self.bytes.get(self.at..end)? == word).then(|| self.at = end)
    }

    /// The string whose `"` is next, checked as serde_json checks it (no control
    /// characters, valid escapes); a `\u` escape of a surrogate is left to serde_json,
    /// which pairs or refuses it.
    #[inline(always)]
    fn string(&mut self) -> Option<Found> {
        self.at += 1;
        let start = self.at;
        let mut escaped = false;
        loop {
            self.at = plain_run_end(self.bytes, self.at);
            match self.peek()? {
                b'"' => {
                    self.at += 1;
                    return Some(Found {
                        start,
                        end: self.at - 1,
                        escaped,
                    });
                }
                b'\\' => {
                    escaped = true;
                    self.at += escape_len(self.bytes.get(self.at + 1..)?)?;
                }
                _ => return None,
            }
        }
    }

    /// A string's text: borrowed when it has no escapes.
    #[inline(always)]
    fn text_of(&self, name: Found) -> Cow<'t, str> {
        let raw = &self.text[name.start..name.end];
        match name.escaped {
            false => Cow::Borrowed(raw),
            true => Cow::Owned(unescape(raw)),
        }
    }

    /// A number built as serde_json builds it: a short integer here, a fraction by
    /// serde_json itself (its float parsing is its own).
    fn number(&mut self) -> Option<Value> {
        let start = self.at;
        let fraction = self.number_end()?;
        let text = &self.text[start..self.at];
        match fraction {
            true => serde_json::from_str(text).ok(),
            // serde_json reads `-0` as a float (-0.0).
            false if text == "-0" => None,
            false if text.starts_with('-') => text.parse::<i64>().ok().map(Value::from),
            false => text.parse::<u64>().ok().map(Value::from),
        }
    }

    /// Steps over a number (RFC 8259 §6); whether it has a fraction. An exponent, or more
    /// than `MAX_DIGITS` digits before or after the point, is left to serde_json (which
    /// refuses what overflows).
    fn number_end(&mut self) -> Option<bool> {
        if self.peek() == Some(b'-') {
            self.at += 1;
        }
        match self.peek()? {
            b'0' => self.at += 1,
            b'1'..=b'9' => {
                if self.digits() > MAX_DIGITS {
                    return None;
                }
            }
            _ => return None,
        }
        let fraction = self.peek() == Some(b'.');
        if fraction {
            self.at += 1;
            if !(1..=MAX_DIGITS).contains(&self.digits()) {
                return None;
            }
        }
        match self.peek() {
            Some(b'e' | b'E') => None,
            _ => Some(fraction),
        }
    }

    /// Steps over a run of ASCII digits; how many.
    fn digits(&mut self) -> usize {
        let start = self.at;
        while self.peek().is_some_and(|b| b.is_ascii_digit()) {
            self.at += 1;
        }
        self.at - start
    }
}

#[cfg(test)]
mod tests;
