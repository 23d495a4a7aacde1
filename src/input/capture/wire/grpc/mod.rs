//! gRPC over HTTP/2 as the reader sees it: the length-prefixed messages of a body, their
//! compression, `-bin` metadata and `grpc-message` escaping (gRPC's HTTP/2 protocol
//! document), and the text the view writes for them: each message as proto3 JSON.

mod framing;
mod metadata;
mod render;

pub use framing::{Framed, split_messages};
pub use metadata::{decode_bin, is_grpc, percent_decode};
pub use render::{RenderedBody, render_body, render_status};

/// HTTP/2 setting a gRPC C-core peer sends to accept `-bin` metadata as raw bytes after
/// a 0x00 byte instead of base64 (gRPC's "true binary metadata" extension).
pub const TRUE_BINARY_SETTING: u16 = 0xfe03;
