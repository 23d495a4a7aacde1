//! Undoes chunked `Transfer-Encoding`, keeping a map from decoded bytes back to the chunk
//! data in the capture so findings inside a de-chunked body still point at raw bytes.

use std::borrow::Cow;

use nom::bytes::complete::{take_while, take_while_m_n};
use nom::{IResult, Parser};

use crate::capture::lines::{line_at, next_line};
use crate::capture::model::Piece;
use crate::source::Span;

/// A de-chunked body.
#[derive(Debug)]
pub struct Dechunked<'s> {
    pub bytes: Cow<'s, [u8]>,
    pub pieces: Vec<Piece>,
    /// Offset just past the last chunk and its trailer section.
    pub end: usize,
}

/// Where and why chunked framing broke.
#[derive(Debug, PartialEq, Eq)]
pub struct ChunkError {
    pub span: Span,
    pub message: String,
}

/// Decodes the chunked body that starts at `start`.
pub fn dechunk(src: &[u8], start: usize) -> Result<Dechunked<'_>, ChunkError> {
    let mut pieces = Vec::new();
    let mut at = start;
    loop {
        let line = line_at(src, at);
        let line_span = Span::new(at, at + line.len());
        if at >= src.len() {
            return Err(ChunkError {
                span: Span::new(src.len(), src.len()),
                message: "chunked body ends before its last (zero-size) chunk".into(),
            });
        }
        let size = chunk_size(line).map_err(|message| ChunkError {
            span: line_span,
            message,
        })?;
        let data_start = next_line(src, at);
        if size == 0 {
            let end = skip_trailers(src, data_start);
            return Ok(Dechunked {
                bytes: join(src, &pieces),
                pieces,
                end,
            });
        }
        let data_end = data_start
            .checked_add(size)
            .filter(|&end| end <= src.len())
            .ok_or_else(|| ChunkError {
                span: line_span,
                message: format!(
                    "chunk declares {size} bytes but only {} remain in the capture",
                    src.len() - data_start
                ),
            })?;
        pieces.push(Piece {
            decoded: pieces.last().map_or(0, |p: &Piece| p.decoded + p.len),
            raw: data_start,
            len: size,
        });
        at = match &src[data_end..] {
            [b'\r', b'\n', ..] => data_end + 2,
            [b'\n', ..] => data_end + 1,
            _ => {
                return Err(ChunkError {
                    span: Span::new(data_end, data_end + line_at(src, data_end).len().min(1)),
                    message: format!("chunk data is not followed by a line end after {size} bytes"),
                });
            }
        };
    }
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
        let err = dechunk(b"ff\r\nabc", 0).unwrap_err();
        assert!(err.message.contains("only 3 remain"), "{}", err.message);
        let err = dechunk(b"3\r\nabc\r\n", 0).unwrap_err();
        assert!(err.message.contains("zero-size"));
    }
}
