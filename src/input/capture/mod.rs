//! The first pipeline stage: turns the bytes of a capture file into exchanges whose every
//! part carries its byte span.

mod chunked;
mod encoding;
pub mod har;
mod head;
mod http;
mod lines;
pub mod model;
mod sse;
pub mod wire;

pub use encoding::MAX_DECODED_BYTES;
pub use har::{
    EntryText, HarCapture, HarLog, HarProblem, NotHar, for_each_entry, is_har, read_har,
};
pub use http::{HttpReader, read_http};
pub use model::{
    Body, Capture, Closed, Content, Ending, Exchange, GrpcBody, Header, Message, Origin, Piece,
    ReadProblem, Side, StartLine, Version, map_pieces,
};
pub use sse::{Event, parse_events};
