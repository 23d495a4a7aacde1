//! Undoes `Content-Encoding` (gzip, deflate, br) so rules see the bytes a client would,
//! with a cap on the decoded size so a compression bomb cannot exhaust memory.

use std::cell::RefCell;
use std::io::{Cursor, Read};

use flate2::bufread::{DeflateDecoder, GzDecoder, ZlibDecoder};

/// Decoded bodies larger than this are refused.
pub const MAX_DECODED_BYTES: u64 = 256 << 20;

/// Why a body could not be decoded.
#[derive(Debug, PartialEq, Eq)]
pub struct DecodeFailure {
    pub coding: String,
    pub reason: String,
}

/// Decodes `bytes` encoded with the comma-separated `codings`, applied in the order
/// listed (so undone in reverse). `Ok(None)` means there was nothing to undo.
pub fn decode(codings: &str, bytes: &[u8]) -> Result<Option<Vec<u8>>, DecodeFailure> {
    let codings: Vec<String> = codings
        .split(',')
        .map(|c| c.trim().to_ascii_lowercase())
        .filter(|c| !c.is_empty() && c != "identity")
        .collect();
    let mut current: Option<Vec<u8>> = None;
    for coding in codings.iter().rev() {
        let input = current.as_deref().unwrap_or(bytes);
        let decoded = decode_one(coding, input).map_err(|reason| DecodeFailure {
            coding: coding.clone(),
            reason,
        })?;
        current = Some(decoded);
    }
    Ok(current)
}

fn decode_one(coding: &str, input: &[u8]) -> Result<Vec<u8>, String> {
    match coding {
        "gzip" | "x-gzip" => INFLATERS.with_borrow_mut(|i| i.gzip.inflate(input, &mut i.spare)),
        // RFC 9110 §8.4.1.2: "deflate" is a zlib stream, but some servers send raw
        // deflate data; accept both, as browsers do.
        "deflate" => INFLATERS.with_borrow_mut(|i| {
            i.zlib
                .inflate(input, &mut i.spare)
                .or_else(|_| i.raw.inflate(input, &mut i.spare))
        }),
        "br" => read_capped(brotli::Decompressor::new(input, 4096)),
        other => Err(format!(
            "a2alint cannot decode the `{other}` content coding"
        )),
    }
}

/// The compressed bytes a kept decoder reads: its own copy of the body, as a decoder kept
/// for the next body cannot borrow this one.
type Compressed = Cursor<Vec<u8>>;

/// Copies of compressed bodies larger than this, and the decoders that read them, are let
/// go after use: between bodies a thread keeps at most a few MiB for its decoders.
const KEEP_BYTES: usize = 1 << 20;

thread_local! {
    /// One decoder of each deflate kind per thread, reset for every body: a new one zeroes
    /// and moves about 40 KiB of state, which cost more than inflating a typical body
    /// (BENCHMARKS.md, "Inflating bodies").
    static INFLATERS: RefCell<Inflaters> = const { RefCell::new(Inflaters {
        gzip: Kept(None),
        zlib: Kept(None),
        raw: Kept(None),
        spare: Vec::new(),
    }) };
}

struct Inflaters {
    gzip: Kept<GzDecoder<Compressed>>,
    zlib: Kept<ZlibDecoder<Compressed>>,
    raw: Kept<DeflateDecoder<Compressed>>,
    /// The copy of the body before last, its buffer used again for the next body.
    spare: Vec<u8>,
}

/// What the kept decoders share: made on compressed bytes, reset to others.
trait Inflater: Read + Sized {
    fn make(compressed: Compressed) -> Self;
    fn reset(&mut self, compressed: Compressed) -> Compressed;
    /// Whether bytes are left after the stream read so far: another gzip member (RFC 1952
    /// §2.2) follows, to be read on as one body. Other streams end the body.
    fn another_member(&self) -> bool {
        false
    }
}

impl Inflater for GzDecoder<Compressed> {
    fn make(compressed: Compressed) -> Self {
        GzDecoder::new(compressed)
    }
    fn reset(&mut self, compressed: Compressed) -> Compressed {
        GzDecoder::reset(self, compressed)
    }
    fn another_member(&self) -> bool {
        let read = self.get_ref();
        (read.position() as usize) < read.get_ref().len()
    }
}

impl Inflater for ZlibDecoder<Compressed> {
    fn make(compressed: Compressed) -> Self {
        ZlibDecoder::new(compressed)
    }
    fn reset(&mut self, compressed: Compressed) -> Compressed {
        ZlibDecoder::reset(self, compressed)
    }
}

impl Inflater for DeflateDecoder<Compressed> {
    fn make(compressed: Compressed) -> Self {
        DeflateDecoder::new(compressed)
    }
    fn reset(&mut self, compressed: Compressed) -> Compressed {
        DeflateDecoder::reset(self, compressed)
    }
}

/// A decoder made on first use and reset (to a new body) on every later one.
struct Kept<D>(Option<D>);

impl<D: Inflater> Kept<D> {
    /// `input` inflated from its start, whatever this decoder read before.
    fn inflate(&mut self, input: &[u8], spare: &mut Vec<u8>) -> Result<Vec<u8>, String> {
        let mut copy = std::mem::take(spare);
        copy.clear();
        copy.extend_from_slice(input);
        let decoder = match &mut self.0 {
            Some(decoder) => {
                *spare = decoder.reset(Cursor::new(copy)).into_inner();
                decoder
            }
            None => self.0.insert(D::make(Cursor::new(copy))),
        };
        let mut out = Vec::with_capacity(input.len().saturating_mul(4).min(KEEP_BYTES));
        let mut inflated = read_capped_into(&mut *decoder, &mut out);
        while inflated.is_ok() && decoder.another_member() {
            // Started afresh where the member before ended.
            let rest = decoder.reset(Cursor::default());
            decoder.reset(rest);
            inflated = read_capped_into(&mut *decoder, &mut out);
        }
        if input.len() > KEEP_BYTES {
            self.0 = None;
        }
        if spare.capacity() > KEEP_BYTES {
            *spare = Vec::new();
        }
        inflated.map(|()| out)
    }
}

/// Everything `reader` gives, refused past [`MAX_DECODED_BYTES`].
fn read_capped(reader: impl Read) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    read_capped_into(reader, &mut out).map(|()| out)
}

/// Everything `reader` gives appended to `out`, refused once `out` would pass
/// [`MAX_DECODED_BYTES`].
fn read_capped_into(reader: impl Read, out: &mut Vec<u8>) -> Result<(), String> {
    let room = (MAX_DECODED_BYTES + 1).saturating_sub(out.len() as u64);
    reader
        .take(room)
        .read_to_end(out)
        .map_err(|e| e.to_string())?;
    if out.len() as u64 > MAX_DECODED_BYTES {
        return Err(format!(
            "decoded body is larger than {} MiB",
            MAX_DECODED_BYTES >> 20
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn gzip(data: &[u8]) -> Vec<u8> {
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        encoder.write_all(data).unwrap();
        encoder.finish().unwrap()
    }

    #[test]
    fn decodes_each_coding() {
        assert_eq!(decode("gzip", &gzip(b"{}")).unwrap().unwrap(), b"{}");
        let mut zlib = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
        zlib.write_all(b"zlib").unwrap();
        assert_eq!(
            decode("deflate", &zlib.finish().unwrap()).unwrap().unwrap(),
            b"zlib"
        );
        let mut raw = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::fast());
        raw.write_all(b"raw").unwrap();
        assert_eq!(
            decode("Deflate", &raw.finish().unwrap()).unwrap().unwrap(),
            b"raw"
        );
        let mut br = Vec::new();
        brotli::BrotliCompress(&mut &b"brotli"[..], &mut br, &Default::default()).unwrap();
        assert_eq!(decode("br", &br).unwrap().unwrap(), b"brotli");
        assert_eq!(decode("identity", b"x").unwrap(), None);
    }

    /// The decoders a thread keeps give each body what a new decoder would: after a
    /// corrupt body, one cut short, a raw deflate fallback and a body too large to keep.
    #[test]
    fn kept_decoders_start_afresh_for_every_body() {
        let large: Vec<u8> = (0..3 * KEEP_BYTES as u32)
            .flat_map(|n| n.to_le_bytes())
            .collect();
        let whole = gzip(b"{\"a\": 1}");
        let mut raw = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::fast());
        raw.write_all(b"raw").unwrap();
        let raw = raw.finish().unwrap();
        for _ in 0..2 {
            assert_eq!(decode("gzip", &whole).unwrap().unwrap(), b"{\"a\": 1}");
            assert!(decode("gzip", &whole[..whole.len() / 2]).is_err());
            assert!(decode("gzip", b"not gzip").is_err());
            assert_eq!(decode("gzip", &whole).unwrap().unwrap(), b"{\"a\": 1}");
            assert_eq!(decode("deflate", &raw).unwrap().unwrap(), b"raw");
            assert_eq!(decode("gzip", &gzip(&large)).unwrap().unwrap(), large);
            assert_eq!(
                decode("gzip", &[whole.clone(), gzip(b"!")].concat())
                    .unwrap()
                    .unwrap(),
                b"{\"a\": 1}!"
            );
        }
    }

    /// Read member by member, a kept gzip decoder agrees with a new multi-member decoder
    /// on every body, whole or not: concatenated members, trailing bytes, a member cut.
    #[test]
    fn gzip_members_are_read_as_a_new_multi_member_decoder_reads_them() {
        let (one, two) = (gzip(b"one "), gzip(b"two"));
        let bodies = [
            [one.clone(), two.clone()].concat(),
            [one.clone(), b"junk".to_vec()].concat(),
            [one.clone(), vec![0; 12]].concat(),
            [one.clone(), two[..two.len() - 3].to_vec()].concat(),
            [one.clone(), two.clone(), one.clone()].concat(),
        ];
        for body in &bodies {
            let mut fresh = Vec::new();
            let fresh = flate2::read::MultiGzDecoder::new(&body[..])
                .read_to_end(&mut fresh)
                .map(|_| fresh);
            let kept = decode("gzip", body).map(Option::unwrap);
            assert_eq!(kept.is_ok(), fresh.is_ok(), "{body:?}");
            if let (Ok(kept), Ok(fresh)) = (kept, fresh) {
                assert_eq!(kept, fresh);
            }
        }
    }

    #[test]
    fn undoes_stacked_codings_in_reverse() {
        let twice = gzip(&gzip(b"inner"));
        assert_eq!(decode("gzip, gzip", &twice).unwrap().unwrap(), b"inner");
    }

    #[test]
    fn reports_unknown_and_corrupt_codings() {
        let err = decode("zstd", b"x").unwrap_err();
        assert_eq!(err.coding, "zstd");
        let err = decode("gzip", b"not gzip").unwrap_err();
        assert_eq!(err.coding, "gzip");
    }
}
