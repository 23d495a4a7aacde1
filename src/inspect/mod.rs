//! `a2alint inspect`: what a capture holds, one row per exchange (binding, operation,
//! status, A2A error) with what a client should do next, and a matrix of errors by binding.

mod advice;
mod render;

pub use advice::{Advice, advise};
pub use render::{write_json, write_table};

use serde::Serialize;

use crate::capture::wire::{is_pcap, read_pcap};
use crate::capture::{Exchange, HttpReader, for_each_entry, is_har};
use crate::classify::{Binding, Payloads, Sends, classify};
use crate::profile::Profile;
use crate::source::LineIndex;

/// One exchange, as `inspect` shows it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Row {
    pub path: String,
    /// 1-based line of the exchange's first message in a `.http` capture.
    pub line: Option<usize>,
    /// 0-based entry index in a HAR file.
    pub entry: Option<usize>,
    /// In a pcap file: the frame of the exchange's first bytes (1-based, as Wireshark
    /// numbers frames) and its HTTP/2 stream.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub frame: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stream: Option<u32>,
    pub binding: &'static str,
    pub operation: Option<&'static str>,
    pub status: Option<u16>,
    /// The A2A or standard error's name (`TaskNotFoundError`), or the HTTP error class.
    pub error: Option<String>,
    pub reason: Option<String>,
    /// `Retry-After`, when the answer gives one.
    pub retry_after: Option<String>,
    pub advice: Advice,
}

/// The rows of one capture: a `.http` file, or a HAR file read entry by entry as the text
/// each entry describes, as `check` reads it (rows then name entries rather than lines).
pub fn inspect_source(path: &str, bytes: &[u8], profile: Profile) -> Vec<Row> {
    if is_har(path, bytes) {
        let mut rows = Vec::new();
        for_each_entry(bytes, &mut |entry| {
            rows.extend(HttpReader::new(entry.text).map(|exchange| {
                let place = Place {
                    entry: Some(entry.index),
                    ..Place::default()
                };
                row_of(path, &exchange, profile, place)
            }));
        });
        return rows;
    }
    if is_pcap(bytes) {
        let mut rows = Vec::new();
        read_pcap(bytes, &mut |wire| {
            let place = Place {
                frame: wire.origins.first().map(|o| o.frame),
                stream: wire.stream,
                ..Place::default()
            };
            match wire.http2_exchange() {
                Some(exchange) => rows.push(row_of(path, &exchange, profile, place)),
                None => rows
                    .extend(HttpReader::new(&wire.text).map(|e| row_of(path, &e, profile, place))),
            }
        });
        return rows;
    }
    let index = LineIndex::new(bytes);
    HttpReader::new(bytes)
        .map(|exchange| {
            let place = Place {
                line: Some(index.line_col(bytes, exchange.start()).line),
                ..Place::default()
            };
            row_of(path, &exchange, profile, place)
        })
        .collect()
}

/// Where a row's exchange is in its file, in the terms of the file's format.
#[derive(Clone, Copy, Default)]
struct Place {
    line: Option<usize>,
    entry: Option<usize>,
    frame: Option<u32>,
    stream: Option<u32>,
}

fn row_of(path: &str, exchange: &Exchange<'_>, profile: Profile, place: Place) -> Row {
    // Inspect shows each exchange on its own: no rule compares it with earlier sends.
    let no_sends = Sends::default();
    {
        {
            let view = classify(exchange, profile, &no_sends, Payloads::Hollow);
            let errors = view.errors();
            let error = errors.first();
            let status = view.response.as_ref().and_then(|r| r.message.status());
            let name = error.and_then(|e| {
                e.a2a_error()
                    .map(|a| a.name.clone())
                    .or_else(|| {
                        e.code()
                            .and_then(|c| crate::table::table().by_code(c))
                            .map(|k| k.name().to_string())
                    })
                    .or_else(|| e.status().map(str::to_string))
            });
            let name = name.or_else(|| status.filter(|s| *s >= 400).map(|s| format!("HTTP {s}")));
            Row {
                path: path.to_string(),
                line: place.line,
                entry: place.entry,
                frame: place.frame,
                stream: place.stream,
                binding: binding_name(view.binding),
                operation: view.operation.map(|op| op.method_name()),
                status,
                error: name,
                reason: error.and_then(|e| e.reason()).map(str::to_string),
                retry_after: view
                    .response
                    .as_ref()
                    .and_then(|r| r.header("retry-after"))
                    .and_then(|h| h.value_str())
                    .map(|v| v.trim().to_string()),
                advice: advise(status, error),
            }
        }
    }
}

pub fn binding_name(binding: Binding) -> &'static str {
    match binding {
        Binding::JsonRpc => "JSON-RPC",
        Binding::HttpJson => "HTTP+JSON",
        Binding::Grpc => "gRPC",
        Binding::Discovery => "discovery",
        Binding::Other => "other",
    }
}
