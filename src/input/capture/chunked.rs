//! Undoes chunked `Transfer-Encoding`, keeping a map from decoded bytes back to the chunk
//! data in the capture so findings inside a de-chunked body still point at raw bytes.

use std::borrow::Cow;

use nom::bytes::complete::{take_while, take_while_m_n};
use nom::{IResult, Parser};

use crate::input::capture::lines::{
    is_boundary, is_delimiter_line, line_at, next_delimiter, next_line,
};
use crate::input::capture::model::Piece;
use crate::input::source::Span;

/// A de-chunked body.
#[derive(Debug)]
pub struct Dechunked<'s> {
    pub bytes: Cow<'s, [u8]>,
    pub pieces: Vec<Piece>,
    /// Where reading goes on: just past the last chunk and its trailer section, or, for a
    /// cut body, where the capture of its connection stops.
    pub end: usize,
    /// Set when the body stops before its last (zero-size) chunk: the offset just past the
    /// last complete chunk, where the bytes that did not make a whole chunk begin.
    pub cut: Option<usize>,
}

/// Where and why chunked framing broke.
#[derive(Debug, PartialEq, Eq)]
pub struct ChunkError {
    pub span: Span,
    pub message: String,
}

/// Decodes the chunked body that starts at `start` (RFC 9112 §7.1).
///
/// The chunk sizes decide where the body goes, even across lines that look like `###`
/// separators or start lines. A body whose capture stops before its zero-size chunk (the
/// end of the input, or the next separator or start line, where a `.http` file ends the
/// capture of that connection) is cut, not broken: a client closes an event stream it is
/// done with, so the last chunk never comes. Every complete chunk is kept; a chunk whose
/// line end is missing counts as complete, a chunk whose data stops short does not.
/// Framing that breaks with more of the body after it is an error.
pub fn dechunk(src: &[u8], start: usize) -> Result<Dechunked<'_>, ChunkError> {
    let mut pieces = Vec::new();
    let mut at = start;
    loop {
        let line = line_at(src, at);
        let line_span = Span::new(at, at + line.len());
        let size = match chunk_size(line) {
            Ok(size) => size,
            // The capture of the connection stops where a size line is due: the body was
            // cut after its last whole chunk.
            Err(_) if is_boundary(src, at) => return Ok(cut(src, pieces, at, at)),
            Err(message) => {
                return Err(ChunkError {
                    span: line_span,
                    message,
                });
            }
        };
        let data_start = next_line(src, at);
        if size == 0 {
            let end = skip_trailers(src, data_start);
            return Ok(Dechunked {
                bytes: join(src, &pieces),
                pieces,
                end,
                cut: None,
            });
        }
        let Some(data_end) = data_start.checked_add(size).filter(|&end| end <= src.len()) else {
            // The capture ends inside this chunk's data, or the connection's capture
            // stopped at a separator inside it.
            let stop = delimiter_within(src, data_start, src.len()).unwrap_or(src.len());
            return Ok(cut(src, pieces, at, stop));
        };
        let piece = Piece {
            decoded: pieces.last().map_or(0, |p: &Piece| p.decoded + p.len),
            raw: data_start,
            len: size,
        };
        let next = match &src[data_end..] {
            [b'\r', b'\n', ..] => data_end + 2,
            [b'\n', ..] => data_end + 1,
            // The data is all there but its line end is not: the capture stopped right
            // after it, as it does after a stream's last keep-alive chunk.
            _ if is_boundary(src, data_end) => {
                pieces.push(piece);
                return Ok(cut(src, pieces, data_end, data_end));
            }
            _ => {
                // The chunk, as declared, runs over a separator into the next message: the
                // capture of this connection stopped there, partway through the chunk.
                if let Some(stop) = delimiter_within(src, data_start, data_end) {
                    return Ok(cut(src, pieces, at, stop));
                }
                return Err(ChunkError {
                    span: Span::new(data_end, data_end + line_at(src, data_end).len().min(1)),
                    message: format!("chunk data is not followed by a line end after {size} bytes"),
                });
            }
        };
        pieces.push(piece);
        at = next;
    }
}

/// A body cut at `stop`, whose complete chunks end at `whole`.
fn cut(src: &[u8], pieces: Vec<Piece>, whole: usize, stop: usize) -> Dechunked<'_> {
    Dechunked {
        bytes: join(src, &pieces),
        pieces,
        end: stop,
        cut: Some(whole),
    }
}

/// The first delimiter line (separator, start line) that starts in `from..to`.
fn delimiter_within(src: &[u8], from: usize, to: usize) -> Option<usize> {
    let first = if is_delimiter_line(src, from) {
        from
    } else {
        next_delimiter(src, from)
    };
    (first < to).then_some(first)
}

/// Parses a chunk-size line: hex digits, then optional `;name=value` extensions.
fn chunk_size(line: &[u8]) -> Result<usize, String> {
    let parsed: IResult<&[u8], &[u8]> =
        take_while_m_n(1, 15, |b: u8| b.is_ascii_hexdigit()).parse(line);
    let (rest, digits) = parsed.map_err(|_| {
        format!(
            "expected a hexadecimal chunk size, found `{}`",
            String::from_utf8_lossy(&line[..line.len().min(40)])
        )
    })?;
    let after_space: IResult<&[u8], &[u8]> =
        take_while(|b: u8| b == b' ' || b == b'\t').parse(rest);
    let rest = after_space.map_or(rest, |(rest, _)| rest);
    if !rest.is_empty() && rest[0] != b';' {
        return Err("chunk size is followed by something other than a `;` extension".into());
    }
    let digits = std::str::from_utf8(digits).unwrap_or("0");
    usize::from_str_radix(digits, 16).map_err(|e| format!("chunk size {digits}: {e}"))
}

/// Skips trailer fields after the last chunk, up to and including the empty line. A file
/// that ends right after the last chunk is accepted: recorders often drop the final line.
fn skip_trailers(src: &[u8], mut at: usize) -> usize {
    while at < src.len() {
        let empty = line_at(src, at).is_empty();
        at = next_line(src, at);
        if empty {
            break;
        }
    }
    at
}

fn join<'s>(src: &'s [u8], pieces: &[Piece]) -> Cow<'s, [u8]> {
    match pieces {
        [] => Cow::Borrowed(&[]),
        [one] => Cow::Borrowed(&src[one.raw..one.raw + one.len]),
        many => {
            let mut joined = Vec::with_capacity(many.iter().map(|p| p.len).sum());
            for p in many {
                joined.extend_from_slice(&src[p.raw..p.raw + p.len]);
            }
            Cow::Owned(joined)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_chunks_with_extensions_and_trailers() {
        let src = b"4;name=x\r\nWiki\r\n5\r\npedia\r\n0\r\nExpires: never\r\n\r\nNEXT";
        let out = dechunk(src, 0).unwrap();
        assert_eq!(&*out.bytes, b"Wikipedia");
        assert_eq!(&src[out.end..], b"NEXT");
        assert_eq!(
            out.pieces[0],
            Piece {
                decoded: 0,
                raw: 10,
                len: 4
            }
        );
        assert_eq!(
            out.pieces[1],
            Piece {
                decoded: 4,
                raw: 19,
                len: 5
            }
        );
    }

    #[test]
    fn accepts_lf_only_and_a_missing_final_line() {
        let out = dechunk(b"3\nabc\n0\n", 0).unwrap();
        assert_eq!(&*out.bytes, b"abc");
        assert_eq!(out.end, 8);
    }

    #[test]
    fn reports_where_framing_breaks() {
        let err = dechunk(b"zz\r\nabc\r\n0\r\n\r\n", 0).unwrap_err();
        assert_eq!(err.span, Span::new(0, 2));
        let err = dechunk(b"3\r\nabcdef\r\n0\r\n\r\n", 0).unwrap_err();
        assert_eq!(err.span, Span::new(6, 7));
        assert!(err.message.contains("not followed by a line end"));
        // A bad size line between chunks, with more of the body after it.
        let err = dechunk(b"3\r\nabc\r\nnot a size\r\n3\r\ndef\r\n0\r\n\r\n", 0).unwrap_err();
        assert_eq!(err.span, Span::new(8, 18));
        assert!(
            err.message.contains("hexadecimal chunk size"),
            "{}",
            err.message
        );
    }

    /// The content, the end of the whole chunks and where reading goes on.
    fn cut_at(src: &[u8]) -> (String, Option<usize>, usize) {
        let out = dechunk(src, 0).unwrap();
        (
            String::from_utf8_lossy(&out.bytes).into_owned(),
            out.cut,
            out.end,
        )
    }

    #[test]
    fn a_body_that_stops_before_its_last_chunk_is_cut() {
        let ping = b"3\r\nabc\r\n6\r\n: ping";
        // After a complete chunk and its line end, at the end of the input.
        assert_eq!(cut_at(b"3\r\nabc\r\n"), ("abc".into(), Some(8), 8));
        // Without the last chunk's line end.
        assert_eq!(cut_at(ping), ("abc: ping".into(), Some(17), 17));
        // At a `###` separator or a start line, with or without a line end before it.
        let src = b"3\r\nabc\r\n### next\r\nGET / HTTP/1.1\r\n\r\n";
        assert_eq!(cut_at(src), ("abc".into(), Some(8), 8));
        let src = b"3\r\nabc### next\r\n";
        assert!(dechunk(src, 0).is_err(), "a separator starts a line");
        let src = b"3\r\nabc\nHTTP/1.1 200 OK\r\n\r\n";
        assert_eq!(cut_at(src), ("abc".into(), Some(7), 7));
        let src = b"a\r\n: ping\r\n\r\n### next\r\n";
        assert_eq!(cut_at(src), (": ping\r\n\r\n".into(), Some(13), 13));
        let src = b"6\r\n: ping\r\n\r\n### next\r\n";
        assert_eq!(cut_at(src), (": ping".into(), Some(11), 11));
        // Inside a chunk's data: the half chunk is not content.
        assert_eq!(
            cut_at(b"3\r\nabc\r\nff\r\n: pi"),
            ("abc".into(), Some(8), 16)
        );
        assert_eq!(cut_at(b"3\r\nabc\r\nff"), ("abc".into(), Some(8), 10));
        let src = b"3\r\nabc\r\nff\r\n: pi\n### next\nGET / HTTP/1.1\n\n";
        assert_eq!(cut_at(src), ("abc".into(), Some(8), 17));
        let src = b"3\r\nabc\r\n11\r\n: pi\n### next\nGET / HTTP/1.1\n\n";
        assert_eq!(cut_at(src), ("abc".into(), Some(8), 17));
        // Before any chunk.
        assert_eq!(cut_at(b""), (String::new(), Some(0), 0));
    }

    #[test]
    fn chunk_sizes_decide_over_lines_that_look_like_delimiters() {
        let src = b"11\r\n# Title\n### Part\n\r\n0\r\n\r\n";
        let out = dechunk(src, 0).unwrap();
        assert_eq!(&*out.bytes, b"# Title\n### Part\n");
        assert_eq!(out.cut, None);
    }
}
