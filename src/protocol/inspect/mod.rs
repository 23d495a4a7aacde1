//! `a2alint inspect`: what a capture holds, one row per exchange (binding, operation,
//! status, A2A error) with what a client should do next, and a matrix of errors by binding.

mod advice;
mod name;
mod render;
mod visit;

pub use advice::{Advice, Answer, advise, advise_answer};
pub(crate) use render::{MATRIX_BINDINGS, delay_note, error_cell, matrix, place_cell, status_cell};
pub use render::{Style, write_json, write_table, write_table_styled};
pub use visit::{ErrorDetail, Visited, visit_source};

use name::{name_of, retry_delay};

use serde::Serialize;

use crate::input::capture::{Ending, Exchange};
use crate::protocol::classify::{Binding, GrpcStatusView, Payloads, Sends, classify};
use crate::protocol::profile::Profile;

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
    /// The HTTP status (over gRPC, 200 for any call the server answered).
    pub status: Option<u16>,
    /// Over gRPC: `grpc-status`, the call's outcome (A2A §10.6), as a number and as the
    /// name of that google.rpc.Code (`NOT_FOUND`); 0 and `OK` for a success.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub grpc_status: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub grpc_status_name: Option<&'static str>,
    /// The A2A or standard error's name (`TaskNotFoundError`), else the status name, the
    /// HTTP error class (`HTTP 502`), or `no grpc-status` for a gRPC call without one.
    pub error: Option<String>,
    pub reason: Option<String>,
    /// `Retry-After`, when the answer gives one.
    pub retry_after: Option<String>,
    /// RetryInfo's `retryDelay` (`1.5s`), when the error's details have one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retry_delay: Option<String>,
    pub advice: Advice,
}

/// The rows of one capture: a `.http` file, or a HAR file read entry by entry as the text
/// each entry describes, as `check` reads it (rows then name entries rather than lines).
pub fn inspect_source(path: &str, bytes: &[u8], profile: Profile) -> Vec<Row> {
    let mut rows = Vec::new();
    visit_source(path, bytes, profile, &mut |visited| rows.push(visited.row));
    rows
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
    let view = classify(exchange, profile, &no_sends, Payloads::Hollow);
    let errors = view.errors();
    let error = errors.first();
    let response = view.response.as_ref();
    let status = response.and_then(|r| r.message.status());
    // Over gRPC the outcome is in `grpc-status`, whatever the HTTP status (A2A §10.6).
    let grpc = response.and_then(|r| r.grpc_status.as_ref());
    let grpc_without_status = view.binding == Binding::Grpc && response.is_some() && grpc.is_none();
    let named = error.and_then(|e| name_of(e, profile));
    let a2a = named.as_ref().and_then(|n| n.a2a);
    let error_name = named
        .map(|n| n.name)
        .or_else(|| status.filter(|s| *s >= 400).map(|s| format!("HTTP {s}")))
        .or_else(|| grpc_without_status.then(|| "no grpc-status".to_string()));
    // A server gives up on a call past the client's deadline with RST_STREAM CANCEL.
    let deadline_expired = view.binding == Binding::Grpc
        && (exchange.request.as_ref()).is_some_and(|r| r.header("grpc-timeout").is_some())
        && matches!(
            exchange.ending,
            Some(Ending::Reset {
                code: 0x8,
                by_client: false
            })
        );
    let answer = Answer {
        http_status: status,
        error,
        a2a,
        grpc_without_status,
        deadline_expired,
    };
    Row {
        path: path.to_string(),
        line: place.line,
        entry: place.entry,
        frame: place.frame,
        stream: place.stream,
        binding: view.binding.name(),
        operation: view.operation.map(|op| op.method_name()),
        status,
        grpc_status: grpc.and_then(|g| g.code),
        grpc_status_name: grpc.and_then(GrpcStatusView::code_name),
        error: error_name,
        reason: error.and_then(|e| e.reason()).map(str::to_string),
        retry_after: response
            .and_then(|r| r.header("retry-after"))
            .and_then(|h| h.value_str())
            .map(|v| v.trim().to_string()),
        retry_delay: error.and_then(retry_delay),
        advice: advise_answer(&answer),
    }
}
