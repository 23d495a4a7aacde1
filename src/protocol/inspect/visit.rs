//! Walks a capture's exchanges as `inspect` reads them, handing each one's row, its text
//! and the details of its error to a visitor (the rows of `inspect`, the HTML explorer).

use serde_json::Value;

use crate::input::capture::wire::read_pcap;
use crate::input::capture::{Exchange, HttpReader, Kind, for_each_entry};
use crate::input::source::{LineIndex, Span};
use crate::protocol::classify::{ErrorView, Payloads, Sends, classify};
use crate::protocol::inspect::{Place, Row, row_of};
use crate::protocol::profile::Profile;

/// One exchange as `inspect` read it.
pub struct Visited<'a> {
    /// 0-based, numbered across the file as `check` numbers it (`Diagnostic::exchange`).
    pub index: usize,
    pub row: Row,
    /// The text the exchange was read from: the `.http` file itself, a HAR entry written
    /// as HTTP/1.1, or a pcap exchange's text view.
    pub text: &'a [u8],
    /// Whether `text` is the capture file's own bytes (spans in it are the file's).
    pub text_is_file: bool,
    /// The request's and the response's bytes in `text`.
    pub request: Option<Span>,
    pub response: Option<Span>,
    /// What the first error of the answer says, when it carries one.
    pub error: Option<ErrorDetail>,
}

/// The fields that tell errors apart, as the error view reads them in any binding.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ErrorDetail {
    /// The JSON-RPC code, the HTTP+JSON `error.code` or the gRPC status number.
    pub code: Option<i64>,
    /// `error.status` or the name of `grpc-status`.
    pub status: Option<String>,
    pub message: Option<String>,
    /// Each `google.rpc.ErrorInfo` detail as compact JSON.
    pub infos: Vec<String>,
}

/// Calls `visit` for each exchange of a capture, in file order.
pub fn visit_source(path: &str, bytes: &[u8], profile: Profile, visit: &mut dyn FnMut(Visited)) {
    match Kind::of(path, bytes) {
        Kind::Http => {
            let lines = LineIndex::new(bytes);
            for exchange in HttpReader::new(bytes) {
                let place = Place {
                    line: Some(lines.line_col(bytes, exchange.start()).line),
                    ..Place::default()
                };
                let index = exchange.index;
                visit(visited(path, &exchange, bytes, true, index, profile, place));
            }
        }
        Kind::Har => {
            let mut index = 0;
            for_each_entry(bytes, &mut |entry| {
                for exchange in HttpReader::new(entry.text) {
                    let place = Place {
                        entry: Some(entry.index),
                        ..Place::default()
                    };
                    visit(visited(
                        path, &exchange, entry.text, false, index, profile, place,
                    ));
                    index += 1;
                }
            });
        }
        Kind::Pcap => {
            read_pcap(bytes, &mut |wire| {
                let place = Place {
                    frame: wire.origins.first().map(|o| o.frame),
                    stream: wire.stream,
                    ..Place::default()
                };
                let (text, index) = (&wire.text[..], wire.index);
                match wire.http2_exchange() {
                    Some(exchange) => {
                        visit(visited(path, &exchange, text, false, index, profile, place))
                    }
                    None => HttpReader::new(text)
                        .for_each(|e| visit(visited(path, &e, text, false, index, profile, place))),
                }
            });
        }
    }
}

fn visited<'a>(
    path: &str,
    exchange: &Exchange<'_>,
    text: &'a [u8],
    text_is_file: bool,
    index: usize,
    profile: Profile,
    place: Place,
) -> Visited<'a> {
    Visited {
        index,
        row: row_of(path, exchange, profile, place),
        text,
        text_is_file,
        request: exchange.request.as_ref().map(|m| m.span),
        response: exchange.response.as_ref().map(|m| m.span),
        error: error_detail(exchange, profile),
    }
}

fn error_detail(exchange: &Exchange<'_>, profile: Profile) -> Option<ErrorDetail> {
    let no_sends = Sends::default();
    let view = classify(exchange, profile, &no_sends, Payloads::Hollow);
    let errors = view.errors();
    let error: &ErrorView<'_> = errors.first()?;
    let infos = (error.details.iter())
        .filter(|d| {
            d.type_url
                .is_some_and(|t| t.rsplit('/').next() == Some("google.rpc.ErrorInfo"))
        })
        .map(|d| compact(d.value))
        .collect();
    Some(ErrorDetail {
        code: error.code(),
        status: error.status().map(str::to_string),
        message: error.message().map(str::to_string),
        infos,
    })
}

fn compact(value: &Value) -> String {
    serde_json::to_string(value).unwrap_or_default()
}
