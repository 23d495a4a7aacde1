//! A deterministic, seeded generator of recorded A2A traffic, for the benchmarks.
//!
//! Shared by `examples/corpus.rs` (writes corpora to disk, which `examples/json_floor.rs`
//! reads), `tests/payloads.rs` and `benches/lint.rs` (criterion); `pcap.rs` writes the
//! same exchanges as a pcap file, for `examples/pcap_corpus.rs` and `benches/pcap.rs`.
//! Nothing it makes is committed.
//!
//! What it makes: JSON-RPC and HTTP+JSON exchanges in a realistic mix: successes (sends,
//! task reads, lists, cancels, agent cards, push configs), every A2A error answered right
//! over both bindings, standard JSON-RPC errors, and errors answered wrong in the ways
//! real agents get them wrong (no ErrorInfo, wrong domain or reason, the v1.0.0 status
//! table, problem+json, HTML error pages, wrong ids, legacy method names, broken JSON...),
//! A2A 0.3 traffic, and server-sent event streams in both SDK framings (a2a-python: CRLF
//! lines, Python-spaced JSON, `event: error`; a2a-js: LF lines, compact JSON-RPC
//! responses). Bodies are framed by `Content-Length`, chunked, or gzip-compressed; files
//! are CRLF or LF, recorded as exact wire bytes or hand-edited with `###` separators.
//! The same exchanges can be written as HAR 1.2 entries.
//!
//! Where each part lives: `scenarios` (the generator and its tables of which exchange
//! comes how often), `content` (texts, messages, tasks, headers), `errors` (the A2A error
//! table and error bodies), `jsonrpc` and `rest` (each binding's requests, responses and
//! scenarios), `stream` (SSE streams in both SDKs' framings), `wrong_rpc` and `wrong_rest`
//! (errors answered wrong), `message`, `rng`, `json_text`; the writers `http`, `har` and
//! `pcap`; `plan` (corpora of many files).
//!
//! Everything depends only on the seed: the same seed gives the same bytes.

// Each bench, example and test that includes this tree uses a different part of it and
// of the names re-exported below.
#![allow(dead_code, unused_imports)]

mod content;
mod errors;
mod har;
mod http;
mod json_text;
mod jsonrpc;
mod message;
pub mod pcap;
mod plan;
mod rest;
mod rng;
mod scenarios;
mod stream;
mod wrong_rest;
mod wrong_rpc;

pub use har::har_file;
pub use http::{http_file, http_file_and_streams, wire_message};
pub use json_text::{compact, python_json};
pub use message::{Exchange, Framing, Message, Start, Style};
pub use plan::{FilePlan, file_and_streams, file_bytes, parse_size, plan};
pub use rng::Rng;
pub use scenarios::{Generator, Mix};
