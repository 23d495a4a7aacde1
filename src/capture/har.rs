//! HAR 1.2 logs, as browsers' dev tools, mitmproxy, Charles, Proxyman and Playwright export
//! them, turned into the HTTP/1.1 text their entries describe, so that the `.http` reader
//! and everything after it run on them unchanged.
//!
//! Each entry becomes its request and, when one was received, its response. Bodies in a
//! HAR are already decoded, so `Content-Length`, `Transfer-Encoding` and
//! `Content-Encoding` are replaced by one `Content-Length` for the body written; base64
//! bodies are decoded; HTTP/2 pseudo-headers are dropped. The log is parsed as a stream,
//! one entry at a time, borrowing its strings from the file: the text written is the only
//! copy of the log ever made. Where each piece of that text came from is not stored:
//! [`layout_of`] works it out again, for the few entries findings point into.

use std::borrow::Cow;
use std::fmt;
use std::ops::Range;

use base64::Engine;
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
use serde::Deserialize;
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use crate::capture::Side;

/// A UTF-8 byte order mark, which Windows tools (Fiddler) put before the JSON.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Decodes standard base64 with or without padding.
const BASE64: GeneralPurpose = GeneralPurpose::new(
    &base64::alphabet::STANDARD,
    GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent),
);

/// A HAR file read as HTTP/1.1 text.
#[derive(Debug, Default)]
pub struct HarCapture {
    /// The entries' messages, one after the other: each request, then its response.
    pub wire: Vec<u8>,
    /// Where each entry's text starts in `wire`; entry `i` ends where entry `i + 1` starts.
    pub entry_starts: Vec<usize>,
    /// Entries whose response was never received (none, status 0, or an `_error`).
    pub unanswered: Vec<usize>,
    pub problems: Vec<HarProblem>,
}

impl HarCapture {
    /// The entry whose text holds `wire` offset `at`.
    pub fn entry_at(entry_starts: &[usize], at: usize) -> Option<usize> {
        entry_starts
            .partition_point(|&start| start <= at)
            .checked_sub(1)
    }
}

/// What stopped the log from being read in full.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HarProblem {
    /// Not JSON, or JSON that is not a HAR log, from byte `offset` of the file on; the
    /// entries before it were read.
    NotHar {
        offset: usize,
        message: String,
        syntax: bool,
    },
    /// A body marked `encoding: base64` that is not base64; its text was used as it is.
    BadBase64 { entry: usize, side: Side },
}

/// Is this capture a HAR file: named `*.har`, or JSON rather than HTTP text?
pub fn is_har(path: &str, bytes: &[u8]) -> bool {
    let named = path.len() >= 4
        && path.is_char_boundary(path.len() - 4)
        && path[path.len() - 4..].eq_ignore_ascii_case(".har");
    let text = bytes.strip_prefix(BOM).unwrap_or(bytes);
    named || text.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{')
}

/// Reads a HAR file. Never fails: a file that is not a HAR log gives a problem, and the
/// entries before the point where it stopped being one are kept.
pub fn read_har(bytes: &[u8]) -> HarCapture {
    let skip = if bytes.starts_with(BOM) { BOM.len() } else { 0 };
    let json = &bytes[skip..];
    let mut capture = HarCapture {
        wire: Vec::with_capacity(json.len() / 2),
        ..HarCapture::default()
    };
    let mut de = serde_json::Deserializer::from_slice(json);
    let result = RootSeed(&mut capture)
        .deserialize(&mut de)
        .and_then(|()| de.end());
    if let Err(error) = result {
        let message = error.to_string();
        let message = match message.rfind(" at line ") {
            Some(at) if error.line() > 0 => message[..at].to_string(),
            _ => message,
        };
        capture.problems.push(HarProblem::NotHar {
            offset: skip + error_offset(json, error.line(), error.column()),
            message,
            syntax: !error.is_data(),
        });
    }
    capture
}

/// The byte serde_json's 1-based line and column point at: the one it stopped on.
fn error_offset(json: &[u8], line: usize, column: usize) -> usize {
    let line_start = memchr::memchr_iter(b'\n', json)
        .nth(line.saturating_sub(2))
        .map_or(0, |nl| if line > 1 { nl + 1 } else { 0 });
    (line_start + column).saturating_sub(1).min(json.len())
}

/// Where one entry's text came from, worked out again for findings in it.
#[derive(Debug, Default)]
pub struct Layout {
    /// Each message's text, relative to the entry's start; the line end after it included.
    pub messages: Vec<(Side, Range<usize>)>,
    pub pieces: Vec<Piece>,
    /// Bytes written for the entry.
    pub len: usize,
    /// Credential members whose values no window may show: (side, header index) for
    /// headers, and the number of cookies on each side.
    pub credential_headers: Vec<(Side, usize)>,
    pub cookies: [usize; 2],
}

/// Text written for one member of the entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Piece {
    /// Relative to the entry's start.
    pub start: usize,
    pub end: usize,
    pub side: Side,
    pub member: Member,
    /// Where the piece's text starts in the member's value (the path inside a URL).
    pub value_offset: usize,
}

/// A member of a request or response that text was written for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Member {
    Method,
    Url,
    Version,
    Status,
    StatusText,
    HeaderName(usize),
    HeaderValue(usize),
    /// `postData.text` or `content.text`.
    Body,
}

impl Member {
    /// The JSON pointer of the member inside its entry.
    pub fn pointer(self, side: Side) -> String {
        let member = match (self, side) {
            (Member::Method, _) => "method".to_string(),
            (Member::Url, _) => "url".to_string(),
            (Member::Version, _) => "httpVersion".to_string(),
            (Member::Status, _) => "status".to_string(),
            (Member::StatusText, _) => "statusText".to_string(),
            (Member::HeaderName(i), _) => format!("headers/{i}/name"),
            (Member::HeaderValue(i), _) => format!("headers/{i}/value"),
            (Member::Body, Side::Request) => "postData/text".to_string(),
            (Member::Body, Side::Response) => "content/text".to_string(),
        };
        format!("/{}/{member}", side.name())
    }
}

/// The layout of one entry, from the entry's JSON; `None` if it no longer parses.
/// `is_credential` names the headers whose values are secrets.
pub fn layout_of(entry_json: &[u8], is_credential: impl Fn(&str) -> bool) -> Option<Layout> {
    let entry: Entry<'_> = serde_json::from_slice(entry_json).ok()?;
    let mut scratch = Vec::new();
    let mut layout = Layout::default();
    write_entry(&mut scratch, &entry, Some(&mut layout));
    layout.len = scratch.len();
    let sides = [
        entry
            .request
            .as_ref()
            .map(|r| (Side::Request, &r.headers, &r.cookies)),
        entry
            .response
            .as_ref()
            .map(|r| (Side::Response, &r.headers, &r.cookies)),
    ];
    for (side, headers, cookies) in sides.into_iter().flatten() {
        for (i, header) in headers.iter().flatten().enumerate() {
            if is_credential(&header.name.0) {
                layout.credential_headers.push((side, i));
            }
        }
        let count = cookies.as_ref().map_or(0, Vec::len);
        layout.cookies[usize::from(side == Side::Response)] = count;
    }
    Some(layout)
}

/// What writing an entry found.
struct Written {
    answered: bool,
    bad_base64: Vec<Side>,
}

fn write_entry(out: &mut Vec<u8>, entry: &Entry<'_>, mut layout: Option<&mut Layout>) -> Written {
    let base = out.len();
    let mut bad_base64 = Vec::new();
    let method = entry.request.as_ref().map(|r| r.method.0.as_ref());
    if let Some(request) = &entry.request {
        let mut w = Writer {
            out,
            base,
            side: Side::Request,
            layout: layout.as_deref_mut(),
        };
        w.piece(Member::Method, 0, &request_method(&request.method.0));
        w.text(" ");
        let (at, target) = request_target(&request.url.0);
        w.piece(Member::Url, at, &target);
        w.text(" ");
        let version = match request.http_version {
            Some(_) => Member::Version,
            None => Member::Url,
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
            out,
            base,
            side: Side::Response,
            layout: layout.as_deref_mut(),
        };
        let version = match response.http_version {
            Some(_) => Member::Version,
            None => Member::Status,
        };
        w.piece(version, NOT_IN_VALUE, "HTTP/1.1");
        w.text(" ");
        w.piece(Member::Status, 0, &response.status.to_string());
        let reason = clean_text(&response.status_text.0);
        if !reason.is_empty() {
            w.text(" ");
            w.piece(Member::StatusText, 0, &reason);
        }
        w.text("\r\n");
        // RFC 9110 §6.4.1: no body on 1xx, 204 and 304, nor on any answer to HEAD.
        let bodiless = matches!(response.status, 100..=199 | 204 | 304) || method == Some("HEAD");
        if !w.message(&response.headers, response.content.as_ref(), !bodiless) {
            bad_base64.push(Side::Response);
        }
    }
    Written {
        answered: answered.is_some(),
        bad_base64,
    }
}

/// The `value_offset` of text that is not part of the member's value.
pub const NOT_IN_VALUE: usize = usize::MAX;

/// Writes text into the entry's output, recording pieces when a layout is asked for.
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
        if let Some(layout) = self.layout.as_deref_mut() {
            layout.pieces.push(Piece {
                start,
                end: start + bytes.len(),
                side: self.side,
                member,
                value_offset,
            });
        }
    }

    /// Writes the headers and body after a start line; false if a base64 body is not
    /// base64. The message's text runs from its start line through the line end after
    /// the body.
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
            self.piece(Member::HeaderValue(i), 0, &clean_text(&header.value.0));
            self.text("\r\n");
        }
        if !bytes.is_empty() {
            self.text(&format!("Content-Length: {}\r\n", bytes.len()));
        }
        self.text("\r\n");
        self.bytes_piece(Member::Body, 0, &bytes);
        self.text("\r\n");
        if let Some(layout) = self.layout.as_deref_mut() {
            let side = self.side;
            let start = layout
                .pieces
                .iter()
                .find(|p| p.side == side)
                .map_or(0, |p| p.start);
            layout
                .messages
                .push((side, start..self.out.len() - self.base));
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
    let base64 = body
        .and_then(|b| b.encoding.as_ref())
        .is_some_and(|e| e.0.eq_ignore_ascii_case("base64"));
    if !base64 {
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

/// Headers about the bytes on the wire; HAR bodies are already decoded.
const FRAMING_HEADERS: &[&str] = &["content-length", "transfer-encoding", "content-encoding"];

/// The method as a request line needs it: `[A-Z_-]{1,24}`.
fn request_method(method: &str) -> Cow<'_, str> {
    let valid = |m: &str| {
        (1..=24).contains(&m.len())
            && m.bytes()
                .all(|b| b.is_ascii_uppercase() || b == b'-' || b == b'_')
    };
    if valid(method) {
        return Cow::Borrowed(method);
    }
    let cleaned: String = method
        .chars()
        .map(|c| c.to_ascii_uppercase())
        .filter(|c| c.is_ascii_uppercase() || *c == '-' || *c == '_')
        .take(24)
        .collect();
    Cow::Owned(if cleaned.is_empty() {
        "UNKNOWN".into()
    } else {
        cleaned
    })
}

/// The request target of `url`: its path and query, and where they start in it.
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
    let mut fixed = String::with_capacity(target.len() + 1);
    if !target.starts_with('/') {
        fixed.push('/');
    }
    for c in target.chars() {
        if c <= ' ' || c == '\x7f' {
            fixed.push_str(&format!("%{:02X}", c as u32));
        } else {
            fixed.push(c);
        }
    }
    (start, Cow::Owned(fixed))
}

/// Header values and reason phrases without the control characters a head cannot hold.
fn clean_text(text: &str) -> Cow<'_, str> {
    let bad = |c: char| (c.is_ascii_control() && c != '\t') || c == '\x7f';
    if text.contains(bad) {
        Cow::Owned(text.replace(bad, " "))
    } else {
        Cow::Borrowed(text)
    }
}

fn is_token(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

// The parts of a HAR log a2alint reads. Other members are skipped, and missing optional
// ones tolerated.

#[derive(Deserialize)]
struct Entry<'a> {
    #[serde(borrow, default)]
    request: Option<Request<'a>>,
    #[serde(borrow, default)]
    response: Option<Response<'a>>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Request<'a> {
    #[serde(borrow, default)]
    method: Text<'a>,
    #[serde(borrow, default)]
    url: Text<'a>,
    #[serde(borrow, default)]
    http_version: Option<Text<'a>>,
    #[serde(borrow, default)]
    headers: Option<Vec<Pair<'a>>>,
    #[serde(borrow, default)]
    cookies: Option<Vec<Pair<'a>>>,
    #[serde(borrow, default)]
    post_data: Option<BodyParts<'a>>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Response<'a> {
    #[serde(default, deserialize_with = "status")]
    status: u16,
    #[serde(borrow, default)]
    status_text: Text<'a>,
    #[serde(borrow, default)]
    http_version: Option<Text<'a>>,
    #[serde(borrow, default)]
    headers: Option<Vec<Pair<'a>>>,
    #[serde(borrow, default)]
    cookies: Option<Vec<Pair<'a>>>,
    #[serde(borrow, default)]
    content: Option<BodyParts<'a>>,
    /// Browsers and mitmproxy say why no response came here.
    #[serde(rename = "_error", default)]
    error: Option<IgnoredAny>,
}

impl Response<'_> {
    fn received(&self) -> bool {
        (100..=999).contains(&self.status) && self.error.is_none()
    }
}

#[derive(Deserialize)]
struct BodyParts<'a> {
    #[serde(borrow, default)]
    text: Option<Text<'a>>,
    #[serde(borrow, default)]
    encoding: Option<Text<'a>>,
}

#[derive(Deserialize)]
struct Pair<'a> {
    #[serde(borrow, default)]
    name: Text<'a>,
    #[serde(borrow, default)]
    value: Text<'a>,
}

/// A string member, borrowed from the file unless it holds escapes; `null` and scalars
/// are tolerated (as empty and as their JSON text).
#[derive(Default)]
struct Text<'a>(Cow<'a, str>);

impl<'de: 'a, 'a> Deserialize<'de> for Text<'a> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct TextVisitor;
        impl<'de> Visitor<'de> for TextVisitor {
            type Value = Text<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Borrowed(v)))
            }
            fn visit_str<E>(self, v: &str) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Owned(v.to_string())))
            }
            fn visit_string<E>(self, v: String) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Owned(v)))
            }
            fn visit_unit<E>(self) -> Result<Text<'de>, E> {
                Ok(Text::default())
            }
            fn visit_bool<E>(self, v: bool) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Owned(v.to_string())))
            }
            fn visit_i64<E>(self, v: i64) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Owned(v.to_string())))
            }
            fn visit_u64<E>(self, v: u64) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Owned(v.to_string())))
            }
            fn visit_f64<E>(self, v: f64) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Owned(v.to_string())))
            }
        }
        deserializer.deserialize_any(TextVisitor)
    }
}

/// A status as a number or a numeric string; anything else (`null`, `-1`) is no status.
fn status<'de, D: Deserializer<'de>>(deserializer: D) -> Result<u16, D::Error> {
    let text = Text::deserialize(deserializer)?;
    let number = text.0.trim().parse::<f64>().unwrap_or(0.0);
    Ok(
        if number.fract() == 0.0 && (0.0..=999.0).contains(&number) {
            number as u16
        } else {
            0
        },
    )
}

/// The document: an object whose `log` member is read; the rest is skipped.
struct RootSeed<'c>(&'c mut HarCapture);

impl<'de> DeserializeSeed<'de> for RootSeed<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_map(ObjectVisitor {
            capture: self.0,
            key: "log",
            what: "a HAR log: an object with a `log` member",
        })
    }
}

/// An object of which one member, `key`, is read: `log` in the document, `entries` in
/// the log.
struct ObjectVisitor<'c> {
    capture: &'c mut HarCapture,
    key: &'static str,
    what: &'static str,
}

impl<'de> Visitor<'de> for ObjectVisitor<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.what)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut found = false;
        while let Some(key) = map.next_key::<Text<'de>>()? {
            match key.0.as_ref() {
                "log" if self.key == "log" && !found => {
                    found = true;
                    map.next_value_seed(LogSeed(&mut *self.capture))?;
                }
                "entries" if self.key == "entries" && !found => {
                    found = true;
                    map.next_value_seed(EntriesSeed(&mut *self.capture))?;
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        if found {
            Ok(())
        } else {
            Err(de::Error::missing_field(self.key))
        }
    }
}

struct LogSeed<'c>(&'c mut HarCapture);

impl<'de> DeserializeSeed<'de> for LogSeed<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_map(ObjectVisitor {
            capture: self.0,
            key: "entries",
            what: "a HAR `log` object with an `entries` array",
        })
    }
}

/// The entries, each written out as soon as it is parsed and then dropped.
struct EntriesSeed<'c>(&'c mut HarCapture);

impl<'de> DeserializeSeed<'de> for EntriesSeed<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for EntriesSeed<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array of HAR entries")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let capture = self.0;
        while let Some(entry) = seq.next_element::<Entry<'de>>()? {
            let index = capture.entry_starts.len();
            capture.entry_starts.push(capture.wire.len());
            let written = write_entry(&mut capture.wire, &entry, None);
            if !written.answered {
                capture.unanswered.push(index);
            }
            capture.problems.extend(
                written
                    .bad_base64
                    .into_iter()
                    .map(|side| HarProblem::BadBase64 { entry: index, side }),
            );
        }
        Ok(())
    }
}
