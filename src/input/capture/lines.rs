//! Line-level recognisers for the `.http` format: start lines, `###` separators,
//! comments and blank lines, used to frame messages and to resynchronise after an error.

use crate::input::source::Span;

/// The end of the line starting at `pos`: the offset of its `\n`, or the end of input.
pub fn line_end(src: &[u8], pos: usize) -> usize {
    memchr::memchr(b'\n', &src[pos..]).map_or(src.len(), |i| pos + i)
}

/// The offset just after the line starting at `pos` (past its `\n`).
pub fn next_line(src: &[u8], pos: usize) -> usize {
    (line_end(src, pos) + 1).min(src.len())
}

/// The line at `pos` without its `\r\n` or `\n`.
pub fn line_at(src: &[u8], pos: usize) -> &[u8] {
    let end = line_end(src, pos);
    let line = &src[pos..end];
    line.strip_suffix(b"\r").unwrap_or(line)
}

pub fn is_blank(line: &[u8]) -> bool {
    line.iter().all(|b| b.is_ascii_whitespace())
}

pub fn is_separator(line: &[u8]) -> bool {
    line.starts_with(b"###")
}

pub fn is_comment(line: &[u8]) -> bool {
    (line.starts_with(b"#") && !is_separator(line)) || line.starts_with(b"//")
}

/// Does an HTTP/1.x request line or status line begin at `pos`?
///
/// Request: `METHOD SP target SP HTTP/d.d` then end of line. Status: `HTTP/d.d SP ddd`.
/// The bytes need not sit at a line start: exact wire captures put the next start line
/// right after a body with no newline between.
pub fn is_start_line(src: &[u8], pos: usize) -> bool {
    let line = line_at(src, pos);
    is_status_line(line) || is_request_line(line)
}

// The recognisers below run on every line a head or a body without a length might end
// at, so they compare bytes by hand rather than through parser combinators.

/// `HTTP/d.d SP ddd`, then the end of the line or a space before the reason.
pub fn is_status_line(line: &[u8]) -> bool {
    match http_version(line) {
        Some([b' ', a, b, c, rest @ ..]) => {
            [a, b, c].iter().all(|d| d.is_ascii_digit()) && rest.first().is_none_or(|&b| b == b' ')
        }
        _ => false,
    }
}

/// `METHOD SP target SP HTTP/d.d` and nothing after: a method of 1 to 24 of `A-Z`, `-`
/// and `_`, a target of anything but spaces.
fn is_request_line(line: &[u8]) -> bool {
    let method = (line.iter())
        .take_while(|&&b| b.is_ascii_uppercase() || b == b'-' || b == b'_')
        .count();
    if !(1..=24).contains(&method) {
        return false;
    }
    let Some(rest) = line[method..].strip_prefix(b" ") else {
        return false;
    };
    let target = rest.iter().take_while(|&&b| b != b' ').count();
    if target == 0 {
        return false;
    }
    (rest[target..].strip_prefix(b" ")).is_some_and(|rest| http_version(rest) == Some(&[]))
}

/// What follows `HTTP/d.d` (one digit each) at the start of `input`.
fn http_version(input: &[u8]) -> Option<&[u8]> {
    match input {
        [b'H', b'T', b'T', b'P', b'/', major, b'.', minor, rest @ ..]
            if major.is_ascii_digit() && minor.is_ascii_digit() =>
        {
            Some(rest)
        }
        _ => None,
    }
}

/// Skips blank lines, `###` separators and comment lines between messages, collecting
/// the comment lines' spans (suppression comments live there).
pub fn skip_trivia(src: &[u8], mut pos: usize, comments: &mut Vec<Span>) -> usize {
    while pos < src.len() {
        let line = line_at(src, pos);
        if is_comment(line) {
            comments.push(Span::new(pos, pos + line.len()));
        }
        if is_blank(line) || is_separator(line) || is_comment(line) {
            pos = next_line(src, pos);
        } else {
            break;
        }
    }
    pos
}

/// Is `pos` a place where one message may end: the end of input, or (after blank lines) a
/// separator, a comment, or a start line?
pub fn is_boundary(src: &[u8], pos: usize) -> bool {
    if pos >= src.len() || is_start_line(src, pos) {
        return true;
    }
    let mut at = pos;
    // A body that ends with its own line end (an HTML page ending in `\n`), or an empty
    // body, leaves `pos` at the start of the next line, which may be the `###` line itself:
    // that line end belongs to the body, not to the separator. Anywhere else, only the rest
    // of the current line may be whitespace before the next line.
    if !at_line_start(src, pos) {
        if !is_blank(line_at(src, at)) {
            return false;
        }
        at = next_line(src, at);
    }
    while at < src.len() && is_blank(line_at(src, at)) {
        at = next_line(src, at);
    }
    at >= src.len() || is_delimiter_line(src, at)
}

/// Does `pos` start a line (or the input)?
fn at_line_start(src: &[u8], pos: usize) -> bool {
    pos.checked_sub(1).is_none_or(|before| src[before] == b'\n')
}

/// Is the line at `pos` where a body without a length must stop: a separator, a start
/// line, or comment lines that lead to one of those or to the end of the file?
pub fn is_delimiter_line(src: &[u8], pos: usize) -> bool {
    let line = line_at(src, pos);
    if is_separator(line) || is_start_line(src, pos) {
        return true;
    }
    is_comment(line) && leads_to_delimiter(src, past_comments(src, pos))
}

/// The first line at or after `pos` that is neither a comment nor blank.
fn past_comments(src: &[u8], mut at: usize) -> usize {
    let skipped = |line: &[u8]| is_comment(line) || is_blank(line);
    while at < src.len() && skipped(line_at(src, at)) {
        at = next_line(src, at);
    }
    at
}

/// Does a run of comment lines that stops at `at` lead to a delimiter?
fn leads_to_delimiter(src: &[u8], at: usize) -> bool {
    at >= src.len() || is_separator(line_at(src, at)) || is_start_line(src, at)
}

/// The start of the first delimiter line after the line at `pos`, or the end of input.
pub fn next_delimiter(src: &[u8], pos: usize) -> usize {
    let mut at = next_line(src, pos);
    while at < src.len() {
        let line = line_at(src, at);
        if is_separator(line) || is_start_line(src, at) {
            return at;
        }
        if is_comment(line) {
            // Every comment line of a run leads where the run does: look once, not
            // once per line (which made bodies of many `#` lines quadratic).
            let end = past_comments(src, at);
            if leads_to_delimiter(src, end) {
                return at;
            }
            at = end;
        } else {
            at = next_line(src, at);
        }
    }
    src.len()
}

/// `end` moved back over trailing line ends and blank lines, not before `start`.
pub fn trim_trailing_blank(src: &[u8], start: usize, mut end: usize) -> usize {
    while end > start && src[end - 1].is_ascii_whitespace() {
        end -= 1;
    }
    end
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recognises_start_lines() {
        for (line, expected) in [
            (&b"POST /rpc HTTP/1.1\r\n"[..], true),
            (b"GET /tasks/1 HTTP/1.0", true),
            (b"HTTP/1.1 200 OK\n", true),
            (b"HTTP/1.1 204", true),
            (b"HTTP/1.1 20 OK", false),
            (b"post /rpc HTTP/1.1", false),
            (b"POST /rpc HTTP/1.1 extra", false),
            (b"{\"jsonrpc\":\"2.0\"}", false),
            (b"POST  HTTP/1.1", false),
            (b"", false),
            (b"HTTP/1.1 2000", false),
            (b"HTTP/1.1 200 ", true),
            (b"HTTP/1.1", false),
            (b"HTTP/11.1 200", false),
            (b"HTTP/1.1 2x0 OK", false),
            (b"ABCDEFGHIJKLMNOPQRSTUVWX / HTTP/1.1", true),
            (b"ABCDEFGHIJKLMNOPQRSTUVWXY / HTTP/1.1", false),
            (b"M-SEARCH_X *\t HTTP/2.0", true),
            (b"GET / HTTP/1.1 ", false),
            (b"GET / HTTP/1.", false),
            (b"GET", false),
        ] {
            assert_eq!(
                is_start_line(line, 0),
                expected,
                "{}",
                String::from_utf8_lossy(line)
            );
        }
    }

    #[test]
    fn boundaries_and_delimiters() {
        let src = b"{}\n\n### next\nGET / HTTP/1.1\n";
        assert!(is_boundary(src, 2));
        assert!(!is_boundary(b"{}x\nGET / HTTP/1.1\n", 2));
        assert!(is_boundary(b"}GET / HTTP/1.1\n", 1));
        // A body's own line end before the separator, and an empty body right after a head.
        assert!(is_boundary(b"</html>\n### next\n", 8));
        assert!(is_boundary(b"</html>\r\n### next\n", 9));
        assert!(is_boundary(b"\r\n### next\n", 2));
        assert!(is_boundary(b"\n# a comment\nGET / HTTP/1.1\n", 1));
        // A separator only counts at the start of its line, and a body line is not one.
        assert!(!is_boundary(b"ab### next\n", 2));
        assert!(!is_boundary(b"a\nplain text\n### next\n", 2));
        assert!(is_delimiter_line(b"# note\n// more\n\nGET / HTTP/1.1\n", 0));
        assert!(!is_delimiter_line(b"# heading in a body\nplain text\n", 0));
        let body = b"line one\nline two\n\n###\n";
        assert_eq!(next_delimiter(body, 0), 19);
        assert_eq!(trim_trailing_blank(body, 0, 19), 17);
    }
}
