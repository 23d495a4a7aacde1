//! `a2alint inspect`: what a capture holds, one row per exchange (binding, operation,
//! status, A2A error) with what a client should do next, and a matrix of errors by binding.

mod advice;
mod render;

pub use advice::{Advice, advise};
pub use render::{write_json, write_table};

use serde::Serialize;

use crate::capture::{HttpReader, for_each_entry, is_har};
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
            rows.extend(rows_of(path, entry.text, profile, |_| {
                (None, Some(entry.index))
            }));
        });
        return rows;
    }
    let index = LineIndex::new(bytes);
    rows_of(path, bytes, profile, |exchange| {
        (Some(index.line_col(bytes, exchange.start()).line), None)
    })
}

fn rows_of(
    path: &str,
    bytes: &[u8],
    profile: Profile,
    place: impl Fn(&crate::capture::Exchange<'_>) -> (Option<usize>, Option<usize>),
) -> Vec<Row> {
    // Inspect shows each exchange on its own: no rule compares it with earlier sends.
    let no_sends = Sends::default();
    HttpReader::new(bytes)
        .map(|exchange| {
            let view = classify(&exchange, profile, &no_sends, Payloads::Hollow);
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
            let (line, entry) = place(&exchange);
            Row {
                path: path.to_string(),
                line,
                entry,
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
        })
        .collect()
}

pub fn binding_name(binding: Binding) -> &'static str {
    match binding {
        Binding::JsonRpc => "JSON-RPC",
        Binding::HttpJson => "HTTP+JSON",
        Binding::Discovery => "discovery",
        Binding::Other => "other",
    }
}
