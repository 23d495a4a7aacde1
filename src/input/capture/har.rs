//! HAR 1.2 logs, as browsers' dev tools, mitmproxy, Charles, Proxyman and Playwright export
//! them, turned into the HTTP/1.1 text their entries describe, so that the `.http` reader
//! and everything after it run on them unchanged.
//!
//! Each entry becomes its request and, when one was received, its response, always as
//! HTTP/1.1. HAR bodies are already decoded, so `Content-Length`, `Transfer-Encoding` and
//! `Content-Encoding` give way to one `Content-Length` for the body written; base64
//! bodies are decoded; HTTP/2 pseudo-headers are dropped. The log is parsed as a stream,
//! one entry at a time, borrowing its strings from the file, and each entry's text is
//! handed on as soon as it is written ([`for_each_entry`]), so a large log is never held
//! as text whole. Where each piece of that text came from is worked out as it is
//! written when the caller places findings ([`for_each_laid_out_entry`]); [`layout_of`]
//! works it out again from an entry's JSON for entries met later.

mod ahead;
mod entry;
mod layout;
mod spans;
mod write;

use crate::input::capture::Side;
pub use ahead::for_each_read_entry;
use entry::{Entry, read_entries};
pub use layout::{Layout, Member, Piece, layout_of};
pub use spans::{EntrySpans, skip_ws};
use write::write_entry;

/// A UTF-8 byte order mark, which some Windows tools write before the JSON.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// The `value_offset` of text that is not part of the member's value.
pub const NOT_IN_VALUE: usize = usize::MAX;

/// A HAR file read as HTTP/1.1 text.
#[derive(Debug, Default)]
pub struct HarCapture {
    /// The entries' messages one after the other: each request, then its response.
    pub wire: Vec<u8>,
    /// Where each entry's text starts in `wire`; entry `i` ends where entry `i + 1` starts.
    pub entry_starts: Vec<usize>,
    pub problems: Vec<HarProblem>,
}

/// One entry of a HAR log, as the HTTP/1.1 text it was written as.
#[derive(Debug)]
pub struct EntryText<'t> {
    pub index: usize,
    pub text: &'t [u8],
    /// The bodies marked `encoding: base64` that are not base64.
    pub bad_base64: &'t [Side],
    /// Why the entry's response never came, as the recorder says it (Chrome's and
    /// mitmproxy's `_error` on a status 0 entry: `net::ERR_CONNECTION_REFUSED`).
    pub failure: Option<&'t str>,
    /// Where each piece of the text came from, when asked for ([`for_each_laid_out_entry`]).
    pub layout: Option<&'t Layout>,
    /// The entry's object in the file, when a reader with time to spare found it.
    pub span: Option<crate::input::source::Span>,
}

/// What reading a HAR log entry by entry found besides the entries.
#[derive(Debug, Default)]
pub struct HarLog {
    /// Entries read.
    pub entries: usize,
    /// Where the file stopped being a HAR log, if it did ([`HarProblem::NotHar`]).
    pub not_har: Option<HarProblem>,
}

/// What a HAR file holds that a2alint could not read as it should.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HarProblem {
    /// Not JSON, or JSON that is not a HAR log, from byte `offset` of the file on; the
    /// entries before it were read.
    NotHar {
        offset: usize,
        message: String,
        kind: NotHar,
    },
    /// A body marked `encoding: base64` that is not base64; its text was used as it is.
    BadBase64 { entry: usize, side: Side },
}

/// Why a file is not a HAR log.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotHar {
    /// Not JSON.
    Syntax,
    /// JSON cut short.
    Truncated,
    /// JSON, but not shaped as a HAR log.
    Shape,
}

/// Is this capture a HAR file: named `*.har`, or JSON rather than HTTP text?
pub fn is_har(path: &str, bytes: &[u8]) -> bool {
    let named = path
        .get(path.len().saturating_sub(4)..)
        .is_some_and(|ext| ext.eq_ignore_ascii_case(".har"));
    let text = bytes.strip_prefix(BOM).unwrap_or(bytes);
    named || text.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{')
}

/// Reads a HAR file as text whole. Never fails: a file that is not a HAR log gives a
/// problem, and the entries before the point where it stopped being one are kept.
pub fn read_har(bytes: &[u8]) -> HarCapture {
    let mut capture = HarCapture {
        wire: Vec::with_capacity(bytes.len() / 2),
        ..HarCapture::default()
    };
    let log = for_each_entry(bytes, &mut |entry| {
        capture.entry_starts.push(capture.wire.len());
        capture.wire.extend_from_slice(entry.text);
        capture.problems.extend(
            (entry.bad_base64.iter()).map(|&side| HarProblem::BadBase64 {
                entry: entry.index,
                side,
            }),
        );
    });
    capture.problems.extend(log.not_har);
    capture
}

/// Reads a HAR file entry by entry, handing each entry's text to `each` as soon as it is
/// written, in one buffer reused for all. Never fails: a file that is not a HAR log gives
/// a problem, after the entries before the point where it stopped being one.
pub fn for_each_entry(bytes: &[u8], each: &mut dyn FnMut(EntryText<'_>)) -> HarLog {
    read_entries_of(bytes, false, each)
}

/// [`for_each_entry`], with each entry's [`Layout`] worked out as its text is written:
/// for placing findings, which would otherwise read an entry's JSON again to learn it.
pub fn for_each_laid_out_entry(bytes: &[u8], each: &mut dyn FnMut(EntryText<'_>)) -> HarLog {
    read_entries_of(bytes, true, each)
}

fn read_entries_of(bytes: &[u8], laid_out: bool, each: &mut dyn FnMut(EntryText<'_>)) -> HarLog {
    let skip = if bytes.starts_with(BOM) { BOM.len() } else { 0 };
    let json = &bytes[skip..];
    let mut log = HarLog::default();
    let mut text = Vec::new();
    let mut layout = Layout::default();
    let mut on_entry = |entry: Entry<'_>| {
        text.clear();
        layout.clear();
        let bad_base64 = write_entry(&mut text, &entry, laid_out.then_some(&mut layout));
        if laid_out {
            layout.len = text.len();
            layout::add_secrets(
                &mut layout,
                &entry,
                crate::input::secrets::is_credential_header,
            );
        }
        each(EntryText {
            index: log.entries,
            text: &text,
            bad_base64: &bad_base64,
            failure: entry.response.as_ref().and_then(|r| r.failure()),
            layout: laid_out.then_some(&layout),
            span: None,
        });
        log.entries += 1;
    };
    // A log that is UTF-8 as a whole is checked once (with SIMD), rather than string by
    // string by the parser: the same parse and the same errors, less work. Otherwise as bytes.
    let result = match simdutf8::basic::from_utf8(json) {
        Ok(text) => {
            let mut de = serde_json::Deserializer::from_str(text);
            read_entries(&mut de, &mut on_entry).and_then(|()| de.end())
        }
        Err(_) => {
            let mut de = serde_json::Deserializer::from_slice(json);
            read_entries(&mut de, &mut on_entry).and_then(|()| de.end())
        }
    };
    if let Err(error) = result {
        let message = error.to_string();
        let message = match message.rfind(" at line ") {
            Some(at) if error.line() > 0 => message[..at].to_string(),
            _ => message,
        };
        let (kind, offset) = match error.classify() {
            // Cut short: point at the last byte there is.
            serde_json::error::Category::Eof => (
                NotHar::Truncated,
                json.iter()
                    .rposition(|b| !b.is_ascii_whitespace())
                    .unwrap_or(0),
            ),
            category => (
                match category {
                    serde_json::error::Category::Data => NotHar::Shape,
                    _ => NotHar::Syntax,
                },
                error_offset(json, error.line(), error.column()),
            ),
        };
        log.not_har = Some(HarProblem::NotHar {
            offset: skip + offset,
            message,
            kind,
        });
    }
    log
}

/// The byte that serde_json's 1-based line and column name: the one it stopped on, or
/// for a value of the wrong type, the value (serde_json then names the byte before it).
fn error_offset(json: &[u8], line: usize, column: usize) -> usize {
    let line_start = match line {
        0 | 1 => 0,
        _ => (memchr::memchr_iter(b'\n', json).nth(line - 2)).map_or(0, |nl| nl + 1),
    };
    let mut at = (line_start + column).saturating_sub(1).min(json.len());
    while json.get(at).is_some_and(|b| b" \t\r\n:,".contains(b)) && at + 1 < json.len() {
        at += 1;
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text_of(har: &str) -> String {
        let capture = read_har(har.as_bytes());
        assert!(capture.problems.is_empty(), "{:?}", capture.problems);
        String::from_utf8(capture.wire).unwrap()
    }

    #[test]
    fn writes_entries_as_http_1_1() {
        let har = r#"{"log": {"version": "1.2", "pages": [], "entries": [{
            "request": {"method": "POST", "url": "https://a.example/tasks/t-1:cancel?x=1#f",
              "httpVersion": "h2", "headers": [{"name": ":authority", "value": "a.example"},
              {"name": "content-type", "value": "application/json"},
              {"name": "Content-Length", "value": "99"}], "postData": {"text": "{}"}},
            "response": {"status": 404, "statusText": "", "httpVersion": "h2",
              "headers": [{"name": "content-encoding", "value": "gzip"}],
              "content": {"text": "eyJhIjoxfQ==", "encoding": "base64"}},
            "timings": {"ssl": null}, "_initiator": {"type": "script"}}]}}"#;
        assert_eq!(
            text_of(har),
            "POST /tasks/t-1:cancel?x=1 HTTP/1.1\r\ncontent-type: application/json\r\n\
             Content-Length: 2\r\n\r\n{}\r\nHTTP/1.1 404 \r\nContent-Length: 7\r\n\r\n{\"a\":1}\r\n"
        );
    }

    #[test]
    fn entries_without_a_response_are_written_as_a_request_alone() {
        let har = r#"{"log": {"entries": [
            {"request": {"method": "GET", "url": "http://a/1"}},
            {"request": {"method": "GET", "url": "http://a/2"}, "response": {"status": 0, "_error": null}},
            {"request": {"method": "GET", "url": "http://a/3"}, "response": {"status": 200, "_error": "net::ERR_ABORTED"}},
            {"request": {"method": "GET", "url": "http://a/ws"}, "response": {"status": 101, "_error": null}},
            {"request": {"method": "get", "url": "/4 5"}, "response": {"status": "204", "statusText": "Não"}}]}}"#;
        let capture = read_har(har.as_bytes());
        let text = String::from_utf8(capture.wire).unwrap();
        // A real status is a response received, `_error` or not (the body was cut
        // short); 101 too. Status 0 is none.
        assert_eq!(text.matches("HTTP/1.1 2").count(), 2, "{text}");
        assert_eq!(text.matches("HTTP/1.1 101 ").count(), 1, "{text}");
        assert!(
            text.ends_with("GET /4%205 HTTP/1.1\r\n\r\n\r\nHTTP/1.1 204 N?o\r\n\r\n\r\n"),
            "{text}"
        );
        assert_eq!(capture.entry_starts.len(), 5);
        assert_eq!(&text[capture.entry_starts[4]..][..4], "GET ");
    }

    #[test]
    fn the_error_of_an_entry_with_no_response_is_kept() {
        let har = r#"{"log": {"entries": [
            {"request": {"method": "GET", "url": "http://a/1"}, "response": {"status": 0, "_error": "net::ERR_CONNECTION_REFUSED"}},
            {"request": {"method": "GET", "url": "http://a/2"}, "response": {"status": 200, "_error": "net::ERR_ABORTED"}},
            {"request": {"method": "GET", "url": "http://a/3"}, "response": {"status": 0, "_error": {"code": 7}}},
            {"request": {"method": "GET", "url": "http://a/4"}, "response": {"status": 0, "_error": null}}]}}"#;
        let mut failures = Vec::new();
        let log = for_each_entry(har.as_bytes(), &mut |entry| {
            failures.push(entry.failure.map(str::to_string));
        });
        assert!(log.not_har.is_none(), "{:?}", log.not_har);
        assert_eq!(
            failures,
            [
                Some("net::ERR_CONNECTION_REFUSED".to_string()),
                None,
                None,
                None
            ]
        );
    }

    #[test]
    fn problems_carry_the_position_where_the_log_stops() {
        let not_har = |text: &str| match read_har(text.as_bytes()).problems.as_slice() {
            [
                HarProblem::NotHar {
                    offset,
                    kind,
                    message,
                },
            ] => (*offset, *kind, message.clone()),
            other => panic!("{other:?}"),
        };
        assert_eq!(not_har("{\n \"log\" 1}").0, 9);
        assert_eq!(not_har("{\n \"log\" 1}").1, NotHar::Syntax);
        let (offset, kind, message) = not_har("{\"traceEvents\": []\n}\n");
        assert_eq!((offset, kind), (19, NotHar::Shape));
        assert_eq!(message, "missing field `log`");
        assert_eq!(
            not_har("{\"log\": {\"entries\": [  \n").1,
            NotHar::Truncated
        );
        assert_eq!(not_har("{\"log\": {\"entries\": [  \n").0, 20);
        let bad = read_har(br#"{"log":{"entries":[{"response":{"status":200,"content":{"text":"%%","encoding":"base64"}}}]}}"#);
        assert_eq!(
            bad.problems,
            [HarProblem::BadBase64 {
                entry: 0,
                side: Side::Response
            }]
        );
    }

    #[test]
    fn layout_names_the_member_of_every_piece() {
        let entry = br#"{"request": {"method": "GET", "url": "http://a/x", "headers": [
            {"name": ":path", "value": "/x"}, {"name": "Authorization", "value": "Bearer t"}],
            "cookies": [{"name": "s", "value": "1"}]}, "response": {"status": 200}}"#;
        let layout = layout_of(entry, |name| name.eq_ignore_ascii_case("authorization")).unwrap();
        let members: Vec<_> = layout.pieces.iter().map(|p| (p.side, p.member)).collect();
        use Member::*;
        use Side::*;
        assert_eq!(
            members,
            [
                (Request, Method),
                (Request, Url),
                (Request, Url),
                (Request, HeaderName(1)),
                (Request, HeaderValue(1)),
                (Request, Body),
                (Response, Status),
                (Response, Status),
                (Response, StatusText),
                (Response, Body)
            ]
        );
        assert_eq!(layout.pieces[1].value_offset, 8);
        assert_eq!(
            layout.secrets,
            ["/request/headers/1/value", "/request/cookies/0/value"]
        );
        assert!(
            is_har("x.HAR", b"") && is_har("-", b"\xEF\xBB\xBF {") && !is_har("x.http", b"GET")
        );
    }

    /// The layout worked out as an entry is first written is the one its JSON gives
    /// when read again, credential values included.
    #[test]
    fn layouts_made_while_reading_are_those_read_again() {
        let entries = [
            r#"{"request": {"method": "POST", "url": "http://a/rpc", "headers": [
                {"name": "Authorization", "value": "Bearer t"}, {"name": "A2A-Version", "value": "1.0"}],
                "cookies": [{"name": "s", "value": "1"}],
                "postData": {"mimeType": "application/json", "text": "{\"id\": 1}"}},
              "response": {"status": 200, "statusText": "OK", "headers": [
                {"name": "Content-Type", "value": "application/json"}],
                "content": {"text": "eyJpZCI6IDF9", "encoding": "base64"}}}"#,
            r#"{"request": {"method": "GET", "url": "http://a/.well-known/agent-card.json"},
              "response": {"status": 0, "_error": "net::ERR_ABORTED"}}"#,
        ];
        let har = format!(r#"{{"log": {{"entries": [{}]}}}}"#, entries.join(","));
        let mut given = Vec::new();
        for_each_laid_out_entry(har.as_bytes(), &mut |entry| {
            given.push(format!("{:?}", entry.layout.expect("laid out")));
        });
        let again: Vec<String> = (entries.iter())
            .map(|json| {
                let layout =
                    layout_of(json.as_bytes(), crate::input::secrets::is_credential_header);
                format!("{:?}", layout.unwrap())
            })
            .collect();
        assert_eq!(given, again);
        assert!(
            given[0].contains("/request/headers/0/value"),
            "{}",
            given[0]
        );
        let mut plain = Vec::new();
        for_each_entry(har.as_bytes(), &mut |entry| {
            plain.push(entry.layout.is_none())
        });
        assert_eq!(plain, [true, true]);
    }
}
