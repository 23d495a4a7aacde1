//! The first pipeline stage: turns the bytes of a capture file into exchanges whose every
//! part carries its byte span.

mod chunked;
mod encoding;
pub mod har;
mod head;
mod http;
mod lines;
mod list;
pub mod model;
mod sse;
pub mod wire;

pub use encoding::MAX_DECODED_BYTES;
pub use har::{
    EntryText, HarCapture, HarLog, HarProblem, NotHar, for_each_entry, for_each_laid_out_entry,
    for_each_read_entry, is_har, read_har,
};
pub use http::{HttpReader, read_http};
pub use model::{
    Body, Capture, Closed, Content, Ending, Exchange, GrpcBody, Header, Message, Origin, Piece,
    ReadProblem, Side, StartLine, Version, map_pieces,
};
pub use sse::{Event, parse_events};

/// The capture formats a2alint reads. Every stage that treats formats differently
/// matches on this (the engine, `redact`, `inspect`), so a new format is a new variant
/// and the compiler lists each place it needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// HTTP/1.1 text: `.http` files, recorders' wire bytes (`read_http`).
    Http,
    /// A HAR 1.2 log, read entry by entry (`har`).
    Har,
    /// A pcap or pcapng capture: TCP, HTTP/1.x, HTTP/2 and gRPC (`wire`).
    Pcap,
}

impl Kind {
    /// A capture's format: a HAR log by its name or its first byte, a pcap by its magic
    /// number whatever it is called, HTTP text otherwise.
    pub fn of(path: &str, bytes: &[u8]) -> Kind {
        if is_har(path, bytes) {
            Kind::Har
        } else if wire::is_pcap(bytes) {
            Kind::Pcap
        } else {
            Kind::Http
        }
    }
}
