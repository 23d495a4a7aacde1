//! Undoes `Content-Encoding` (gzip, deflate, br) so rules see the bytes a client would,
//! with a cap on the decoded size so a compression bomb cannot exhaust memory.

use std::io::Read;

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
        "gzip" | "x-gzip" => read_capped(flate2::read::MultiGzDecoder::new(input)),
        // RFC 9110 §8.4.1.2: "deflate" is a zlib stream, but some servers send raw
        // deflate data; accept both, as browsers do.
        "deflate" => read_capped(flate2::read::ZlibDecoder::new(input))
            .or_else(|_| read_capped(flate2::read::DeflateDecoder::new(input))),
        "br" => read_capped(brotli::Decompressor::new(input, 4096)),
        other => Err(format!(
            "a2alint cannot decode the `{other}` content coding"
        )),
    }
}

fn read_capped(reader: impl Read) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    reader
        .take(MAX_DECODED_BYTES + 1)
        .read_to_end(&mut out)
        .map_err(|e| e.to_string())?;
    if out.len() as u64 > MAX_DECODED_BYTES {
        return Err(format!(
            "decoded body is larger than {} MiB",
            MAX_DECODED_BYTES >> 20
        ));
    }
    Ok(out)
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
