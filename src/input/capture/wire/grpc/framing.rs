//! The gRPC message framing: a body is a run of Length-Prefixed-Messages, each a
//! compressed flag byte, a 4-byte big-endian length, and that many bytes.

use std::io::Read;
use std::ops::Range;

use crate::input::proto::MAX_MESSAGE_BYTES;

/// One message of a body: where its bytes are, and whether the sender compressed it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Framed {
    /// From the flag byte to the message's last byte, in the body.
    pub whole: Range<usize>,
    /// The message bytes after the 5-byte prefix.
    pub payload: Range<usize>,
    pub compressed: bool,
}

/// The messages of `body`; and, when its last bytes are not a whole message, why.
pub fn split_messages(body: &[u8]) -> (Vec<Framed>, Option<String>) {
    let mut messages = Vec::new();
    let mut at = 0;
    while at < body.len() {
        let Some(prefix) = body.get(at..at + 5) else {
            let left = body.len() - at;
            return (
                messages,
                Some(format!(
                    "{left} bytes after the last message are not a whole 5-byte message prefix"
                )),
            );
        };
        let flag = prefix[0];
        if flag > 1 {
            let reason = format!(
                "the compressed-flag byte of message {} is {flag:#04x}, not 0 or 1",
                messages.len() + 1
            );
            return (messages, Some(reason));
        }
        let len = u32::from_be_bytes([prefix[1], prefix[2], prefix[3], prefix[4]]) as usize;
        let start = at + 5;
        let Some(end) = start.checked_add(len).filter(|&end| end <= body.len()) else {
            let reason = format!(
                "message {} declares {len} bytes but the body holds {} after its prefix",
                messages.len() + 1,
                body.len() - start
            );
            return (messages, Some(reason));
        };
        messages.push(Framed {
            whole: at..end,
            payload: start..end,
            compressed: flag == 1,
        });
        at = end;
    }
    (messages, None)
}

/// Undoes `grpc-encoding` on one compressed message, refusing to inflate past
/// [`MAX_MESSAGE_BYTES`] (a compression bomb stops there).
pub fn decompress(encoding: &str, bytes: &[u8]) -> Result<Vec<u8>, String> {
    let limit = MAX_MESSAGE_BYTES as u64 + 1;
    let mut out = Vec::new();
    let read = match encoding.trim().to_ascii_lowercase().as_str() {
        "gzip" => flate2::read::GzDecoder::new(bytes)
            .take(limit)
            .read_to_end(&mut out),
        // gRPC's "deflate" is the zlib format (RFC 1950).
        "deflate" => flate2::read::ZlibDecoder::new(bytes)
            .take(limit)
            .read_to_end(&mut out),
        "" | "identity" => {
            return Err(
                "the message is flagged compressed but grpc-encoding is identity or absent".into(),
            );
        }
        other => {
            return Err(format!(
                "a2alint does not know the grpc-encoding \"{other}\""
            ));
        }
    };
    read.map_err(|e| format!("the message does not inflate: {e}"))?;
    if out.len() > MAX_MESSAGE_BYTES {
        return Err(format!(
            "the message inflates past {} MiB; a2alint decodes no more",
            MAX_MESSAGE_BYTES >> 20
        ));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn a_body_splits_into_its_prefixed_messages() {
        let body = [0, 0, 0, 0, 2, b'a', b'b', 1, 0, 0, 0, 0];
        let (messages, problem) = split_messages(&body);
        assert_eq!(problem, None);
        assert_eq!(messages.len(), 2);
        assert_eq!(
            (messages[0].payload.clone(), messages[0].compressed),
            (5..7, false)
        );
        assert_eq!(
            (messages[1].payload.clone(), messages[1].compressed),
            (12..12, true)
        );
    }

    #[test]
    fn a_cut_or_bad_prefix_is_a_reason_and_keeps_what_came_before() {
        let (messages, problem) = split_messages(&[0, 0, 0, 0, 1, b'a', 0, 0]);
        assert_eq!(messages.len(), 1);
        assert!(problem.unwrap().contains("2 bytes"));
        let (_, problem) = split_messages(&[0, 0, 0, 0, 9, b'a']);
        assert!(problem.unwrap().contains("declares 9 bytes"));
        let (_, problem) = split_messages(&[7, 0, 0, 0, 0]);
        assert!(problem.unwrap().contains("0x07"));
        let (_, problem) = split_messages(&[0, 0xff, 0xff, 0xff, 0xff]);
        assert!(problem.is_some());
    }

    #[test]
    fn gzip_and_deflate_inflate_and_a_bomb_stops_at_the_limit() {
        let mut gzip = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        gzip.write_all(b"hello").unwrap();
        assert_eq!(
            decompress("gzip", &gzip.finish().unwrap()).unwrap(),
            b"hello"
        );
        let mut zlib = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
        zlib.write_all(b"hi").unwrap();
        assert_eq!(
            decompress("deflate", &zlib.finish().unwrap()).unwrap(),
            b"hi"
        );
        let mut bomb = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        bomb.write_all(&vec![0; MAX_MESSAGE_BYTES + 10]).unwrap();
        let bomb = bomb.finish().unwrap();
        assert!(bomb.len() < 100_000);
        assert!(decompress("gzip", &bomb).unwrap_err().contains("past"));
        assert!(decompress("snappy", b"x").unwrap_err().contains("snappy"));
        assert!(decompress("gzip", b"not gzip").is_err());
        assert!(decompress("identity", b"x").is_err());
    }
}
