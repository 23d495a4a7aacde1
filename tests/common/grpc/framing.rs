//! gRPC Length-Prefixed-Messages: the 5-byte prefix, and compressed messages.

use std::io::Write;

use flate2::Compression as Level;
use flate2::write::{GzEncoder, ZlibEncoder};

/// How a message's bytes are compressed, and the `grpc-encoding` name that says so.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compression {
    /// `gzip`: RFC 1952.
    Gzip,
    /// `deflate`: as the HTTP content coding of that name, i.e. the zlib format of RFC 1950
    /// around RFC 1951 data (what gRPC implementations send under this name).
    Deflate,
}

impl Compression {
    /// The value of `grpc-encoding` (and of an entry of `grpc-accept-encoding`).
    pub fn name(self) -> &'static str {
        match self {
            Compression::Gzip => "gzip",
            Compression::Deflate => "deflate",
        }
    }

    /// `bytes` compressed this way.
    pub fn compress(self, bytes: &[u8]) -> Vec<u8> {
        match self {
            Compression::Gzip => {
                let mut encoder = GzEncoder::new(Vec::new(), Level::default());
                encoder.write_all(bytes).unwrap();
                encoder.finish().unwrap()
            }
            Compression::Deflate => {
                let mut encoder = ZlibEncoder::new(Vec::new(), Level::default());
                encoder.write_all(bytes).unwrap();
                encoder.finish().unwrap()
            }
        }
    }
}

/// A Length-Prefixed-Message with the given Compressed-Flag byte, whatever `payload` is:
/// the flag (gRPC HTTP/2 spec: 0 = not compressed, 1 = compressed with the
/// `grpc-encoding`; anything else is a protocol error), then the payload's length as
/// four big-endian bytes, then the payload. Gives malformed messages too (a flag of 2,
/// a flag of 1 over plain bytes).
pub fn prefixed(flag: u8, payload: &[u8]) -> Vec<u8> {
    let len = u32::try_from(payload.len()).expect("a gRPC message is under 4 GiB");
    let mut out = Vec::with_capacity(5 + payload.len());
    out.push(flag);
    out.extend(len.to_be_bytes());
    out.extend(payload);
    out
}

/// `payload` as an uncompressed Length-Prefixed-Message: for bytes that are not a valid
/// protobuf encoding (malformed-message tests) or are one made elsewhere.
pub fn raw_message(payload: &[u8]) -> Vec<u8> {
    prefixed(0, payload)
}

/// `message`'s protobuf encoding as an uncompressed Length-Prefixed-Message.
pub fn message_frame<M: prost::Message>(message: &M) -> Vec<u8> {
    prefixed(0, &message.encode_to_vec())
}

/// `message`'s protobuf encoding compressed with `compression`, Compressed-Flag 1. The
/// call must say `grpc-encoding` with [`Compression::name`] for a reader to undo it.
pub fn compressed_frame<M: prost::Message>(message: &M, compression: Compression) -> Vec<u8> {
    prefixed(1, &compression.compress(&message.encode_to_vec()))
}
