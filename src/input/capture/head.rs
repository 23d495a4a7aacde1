//! Reads one message head (start line and header lines) with httparse and gives every
//! part its byte span; says precisely which line is wrong when the head is malformed.

use crate::input::capture::lines::{self, line_at, next_line};
use crate::input::capture::model::{Header, ReadProblem, StartLine};
use crate::input::source::Span;

/// Heads longer than this are not HTTP traffic (or are hostile); give up on them.
const MAX_HEAD_BYTES: usize = 1 << 20;
/// The header limit httparse is retried with when a head has more than the usual count.
const MAX_HEADERS: usize = 4096;

/// A parsed head. All spans are offsets into the capture.
#[derive(Debug)]
pub struct Head<'s> {
    pub start_line: StartLine<'s>,
    pub start_line_span: Span,
    pub minor_version: u8,
    pub headers: Vec<Header<'s>>,
    /// Where the body starts: just past the empty line, or at the delimiter that cut an
    /// unterminated head short.
    pub end: usize,
    /// Set when no empty line ended the head before the next message or the file end.
    pub unterminated: bool,
}

/// Reads the head that starts at `pos`, which must be a start line.
pub fn parse_head(src: &[u8], pos: usize) -> Result<Head<'_>, ReadProblem> {
    let start_line_end = pos + line_at(src, pos).len();
    if let Some((parsed, end)) = parse_well_formed(src, pos) {
        return Ok(head_of(src, pos, start_line_end, parsed, end, false));
    }
    let (end, unterminated) = find_head_end(src, pos)?;
    let head_bytes = &src[pos..end];

    // An unterminated head is parsed from a copy that ends in an empty line; the copy
    // starts with the same bytes, so offsets into it are offsets from `pos`.
    let terminated;
    let buf: &[u8] = if unterminated {
        let mut copy = head_bytes.to_vec();
        if !copy.ends_with(b"\n") {
            copy.push(b'\n');
        }
        copy.push(b'\n');
        terminated = copy;
        &terminated
    } else {
        head_bytes
    };

    let (parsed, _) =
        parse_with_httparse(buf, src, pos).map_err(|error| locate_error(src, pos, end, error))?;
    Ok(head_of(src, pos, start_line_end, parsed, end, unterminated))
}

/// The usual head, read in one pass: httparse stops at its empty line, and every line
/// before that is a header line, so no separator or next start line cut it short (a start
/// line is never `token: value`). `None` leaves the head to the careful path, which finds
/// its end line by line and says what is wrong with it.
fn parse_well_formed(src: &[u8], pos: usize) -> Option<(ParsedHead<'_>, usize)> {
    let window = &src[pos..(pos + MAX_HEAD_BYTES).min(src.len())];
    let (parsed, len) = parse_with_httparse(window, src, pos).ok()?;
    // `###` starts a separator line even where it would also pass as a header name.
    let cut_short = parsed.headers.iter().any(|h| h.name.starts_with("###"));
    (!cut_short).then_some((parsed, pos + len?))
}

fn head_of<'s>(
    src: &'s [u8],
    pos: usize,
    start_line_end: usize,
    parsed: ParsedHead<'s>,
    end: usize,
    unterminated: bool,
) -> Head<'s> {
    let start_line = match parsed.start {
        ParsedStart::Request { method, target } => StartLine::Request {
            method: text_at(src, method.shift(pos)),
            target: text_at(src, target.shift(pos)),
        },
        ParsedStart::Response { status, reason } => StartLine::Response {
            status,
            reason: text_at(src, reason.shift(pos)),
        },
    };
    Head {
        start_line,
        start_line_span: Span::new(pos, start_line_end),
        minor_version: parsed.minor_version,
        headers: parsed.headers,
        end,
        unterminated,
    }
}

/// Finds the end of the head: past its empty line, or at the next delimiter line or the
/// end of input when the empty line is missing.
fn find_head_end(src: &[u8], pos: usize) -> Result<(usize, bool), ReadProblem> {
    let mut at = next_line(src, pos);
    // Each line's end is found once: a head is mostly header lines.
    loop {
        // Checked before the end of input, so one endless line cannot slip through.
        if at - pos > MAX_HEAD_BYTES {
            return Err(ReadProblem::Syntax {
                span: Span::new(pos, pos + line_at(src, pos).len()),
                message: format!("message head is longer than {MAX_HEAD_BYTES} bytes"),
                help: "a capture holds HTTP/1.x messages; this does not look like one",
                skipped: true,
            });
        }
        if at >= src.len() {
            return Ok((src.len(), true));
        }
        let end = lines::line_end(src, at);
        let next = (end + 1).min(src.len());
        let line = &src[at..end];
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.is_empty() {
            return Ok((next, false));
        }
        if lines::is_separator(line) || (may_be_start_line(line) && lines::is_start_line(src, at)) {
            return Ok((at, true));
        }
        at = next;
    }
}

/// A cheap necessary condition for [`lines::is_start_line`], so that header lines rarely
/// go through the full check: a status line begins with `HTTP/`, a request line ends with
/// ` HTTP/d.d`.
fn may_be_start_line(line: &[u8]) -> bool {
    line.starts_with(b"HTTP/")
        || (line.len() >= 9 && &line[line.len() - 9..line.len() - 3] == b" HTTP/")
}

enum ParsedStart {
    Request { method: Span, target: Span },
    Response { status: u16, reason: Span },
}

/// httparse's result: the start line as spans relative to the head's first byte, the
/// headers already borrowed from the capture.
struct ParsedHead<'s> {
    start: ParsedStart,
    minor_version: u8,
    headers: Vec<Header<'s>>,
}

/// Parses `buf`, the head at `pos` of `src` (or a copy of it that ends in an empty line),
/// and says how long the head was when httparse found its empty line.
fn parse_with_httparse<'s>(
    buf: &[u8],
    src: &'s [u8],
    pos: usize,
) -> Result<(ParsedHead<'s>, Option<usize>), httparse::Error> {
    // The usual head fits the slots on the stack; a larger one is parsed again with more.
    // (16 slots, then the 64, 256, 1024 and 4096 a head was always parsed with.)
    let mut stack = [httparse::EMPTY_HEADER; 16];
    let mut heap: Vec<httparse::Header<'_>>;
    let mut capacity = stack.len();
    loop {
        let slots: &mut [httparse::Header<'_>] = if capacity == stack.len() {
            &mut stack
        } else {
            heap = vec![httparse::EMPTY_HEADER; capacity];
            &mut heap
        };
        let result = if buf.starts_with(b"HTTP/") {
            let mut response = httparse::Response::new(slots);
            response.parse(buf).map(|status| {
                let len = complete_len(status);
                let head = ParsedHead {
                    start: ParsedStart::Response {
                        status: response.code.unwrap_or_default(),
                        reason: reason_span(buf),
                    },
                    minor_version: response.version.unwrap_or(1),
                    headers: headers_of(
                        &buf[..len.unwrap_or(buf.len())],
                        response.headers,
                        src,
                        pos,
                    ),
                };
                (head, len)
            })
        } else {
            let mut request = httparse::Request::new(slots);
            request.parse(buf).and_then(|status| {
                // httparse skips leading blank lines and may stop before a method or path
                // (a partial parse); there is then no start line to point at.
                let (Some(method), Some(path)) = (request.method, request.path) else {
                    return Err(httparse::Error::Token);
                };
                let len = complete_len(status);
                let head = ParsedHead {
                    start: ParsedStart::Request {
                        method: Span::of_subslice(buf, method.as_bytes()),
                        target: Span::of_subslice(buf, path.as_bytes()),
                    },
                    minor_version: request.version.unwrap_or(1),
                    headers: headers_of(
                        &buf[..len.unwrap_or(buf.len())],
                        request.headers,
                        src,
                        pos,
                    ),
                };
                Ok((head, len))
            })
        };
        match result {
            Err(httparse::Error::TooManyHeaders) if capacity == stack.len() => capacity = 64,
            Err(httparse::Error::TooManyHeaders) if capacity < MAX_HEADERS => capacity *= 4,
            other => return other,
        }
    }
}

/// How many bytes a complete head took, up to and with its empty line.
fn complete_len(status: httparse::Status<usize>) -> Option<usize> {
    match status {
        httparse::Status::Complete(len) => Some(len),
        httparse::Status::Partial => None,
    }
}

/// The reason phrase: whatever follows `HTTP/1.x NNN ` on the status line. Worked out
/// from the bytes because httparse hands back a static `""` (not a slice of the buffer)
/// for a missing or non-ASCII reason.
fn reason_span(buf: &[u8]) -> Span {
    let line = line_at(buf, 0);
    let start = 13.min(line.len());
    Span::new(start, line.len())
}

/// The headers httparse read from `buf`, as headers of `src` (where `buf` starts at `pos`).
fn headers_of<'s>(
    buf: &[u8],
    headers: &[httparse::Header<'_>],
    src: &'s [u8],
    pos: usize,
) -> Vec<Header<'s>> {
    let parsed = headers.iter().take_while(|h| !h.name.is_empty());
    let mut out = Vec::with_capacity(parsed.clone().count());
    // The head is checked as text once rather than name by name: names are tokens, so in
    // a head that is UTF-8 as a whole they fall on character boundaries.
    let head = simdutf8::basic::from_utf8(&src[pos..(pos + buf.len()).min(src.len())]).ok();
    for h in parsed {
        let name_span = Span::of_subslice(buf, h.name.as_bytes()).shift(pos);
        let value_span = Span::of_subslice(buf, h.value).shift(pos);
        let name = head.and_then(|head| head.get(name_span.start - pos..name_span.end - pos));
        out.push(Header {
            name: name.unwrap_or_else(|| text_at(src, name_span)),
            value: &src[value_span.range()],
            name_span,
            value_span,
        });
    }
    out
}

/// httparse validated these bytes as tokens or reason text; they are ASCII or at worst
/// obs-text, which is shown lossily rather than rejected.
fn text_at(src: &[u8], span: Span) -> &str {
    std::str::from_utf8(&src[span.range()]).unwrap_or("")
}

/// Turns an httparse error into a problem on the line that caused it.
fn locate_error(src: &[u8], pos: usize, end: usize, error: httparse::Error) -> ReadProblem {
    let start_line = Span::new(pos, pos + line_at(src, pos).len());
    let (span, message, help) = match error {
        httparse::Error::Version => (
            start_line,
            "start line is not HTTP/1.0 or HTTP/1.1".to_string(),
            "a2alint reads HTTP/1.x captures; record HTTP/2 traffic as HAR instead",
        ),
        httparse::Error::Status => (
            start_line,
            "status line has no valid three-digit status code".to_string(),
            "a status line reads `HTTP/1.1 404 Not Found`",
        ),
        httparse::Error::TooManyHeaders => (
            start_line,
            format!("message has more than {MAX_HEADERS} header lines"),
            "a capture holds HTTP/1.x messages; this does not look like one",
        ),
        other => match find_bad_header_line(src, pos, end) {
            Some(line) => (
                line,
                format!("malformed header line ({other})"),
                "a header line reads `Name: value`; the head ends at the first empty line",
            ),
            None => (
                start_line,
                format!("malformed start line ({other})"),
                "a request line reads `POST /path HTTP/1.1`, a status line `HTTP/1.1 200 OK`",
            ),
        },
    };
    ReadProblem::Syntax {
        span,
        message,
        help,
        skipped: true,
    }
}

/// The first header line between the start line and `end` that is not `token: value`.
fn find_bad_header_line(src: &[u8], pos: usize, end: usize) -> Option<Span> {
    let mut at = next_line(src, pos);
    while at < end {
        let line = line_at(src, at);
        if line.is_empty() {
            return None;
        }
        let well_formed = match line.iter().position(|&b| b == b':') {
            Some(colon) => {
                colon > 0
                    && line[..colon].iter().all(|&b| is_token_char(b))
                    && line[colon + 1..]
                        .iter()
                        .all(|&b| b == b'\t' || b >= 0x20 && b != 0x7f)
            }
            None => false,
        };
        if !well_formed {
            return Some(Span::new(at, at + line.len()));
        }
        at = next_line(src, at);
    }
    None
}

fn is_token_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn end_of(src: &[u8]) -> (usize, bool, Vec<&str>) {
        let head = parse_head(src, 0).expect("a head");
        let names = head.headers.iter().map(|h| h.name).collect();
        (head.end, head.unterminated, names)
    }

    #[test]
    fn a_head_ends_past_its_empty_line_whatever_the_body_holds() {
        let src = b"HTTP/1.1 200 OK\r\nA: 1\r\nB: 2\r\n\r\n\xff\xfe not text";
        assert_eq!(end_of(src), (31, false, vec!["A", "B"]));
        let src = b"GET /a HTTP/1.1\nA: 1\n\nB: 2\n\n";
        assert_eq!(end_of(src), (22, false, vec!["A"]));
    }

    #[test]
    fn a_separator_or_start_line_cuts_a_head_short_even_shaped_as_a_header() {
        // `###x` is a token, so `###x: y` reads as a header line to httparse.
        let src = b"GET /a HTTP/1.1\nA: 1\n###x: y\nB: 2\n\n";
        assert_eq!(end_of(src), (21, true, vec!["A"]));
        let src = b"GET /a HTTP/1.1\nA: 1\nHTTP/1.1 200 OK\n\n";
        assert_eq!(end_of(src), (21, true, vec!["A"]));
    }
}
