//! The second pipeline stage: turns an exchange into the view rules read. Protocol
//! knowledge lives here: the binding, the operation, the version, the JSON-RPC envelope
//! and the error. JSON bodies are decoded here, once; rules never parse bytes.

mod error;
mod grpc;
mod history;
mod json;
mod json_skim;
pub(crate) mod json_span;
mod jsonrpc;
mod labels;
mod media;
mod route;
mod shape;

pub use error::{Detail, ErrorForm, ErrorInfo, ErrorView, problem_members};
pub use grpc::GrpcStatusView;
pub use history::{SendRecord, Sends};
pub use json::{JsonBody, Payloads, kind_of};
pub use jsonrpc::{InvalidRequest, RequestId, RpcRequest, looks_like_response};
pub use labels::Doc;
pub use media::MediaType;
pub use route::{MethodName, Operation, method_name};
pub use shape::Generation;

use crate::capture::{Event, Exchange, Message, Side, parse_events};
use crate::profile::Profile;
use crate::source::Span;

/// How an exchange travels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Binding {
    /// JSON-RPC 2.0 over HTTP (A2A §9).
    JsonRpc,
    /// The HTTP+JSON/REST binding (A2A §11).
    HttpJson,
    /// gRPC over HTTP/2 (A2A §10): `application/grpc` calls to `/<service>/<rpc>`.
    Grpc,
    /// Agent card discovery, `/.well-known/agent-card.json` (A2A §8.2).
    Discovery,
    /// Nothing A2A recognisably: an unknown route, a favicon.
    Other,
}

/// What rules see of one exchange.
#[derive(Debug)]
pub struct ExchangeView<'a, 's> {
    pub exchange: &'a Exchange<'s>,
    pub profile: Profile,
    pub request: Option<MessageView<'a, 's>>,
    pub response: Option<MessageView<'a, 's>>,
    pub binding: Binding,
    /// The A2A operation, when the method name or route names one.
    pub operation: Option<Operation>,
    /// Whether the exchange looks like A2A 0.3 or 1.0.
    pub generation: Generation,
    /// The sends earlier in the same capture.
    pub earlier_sends: &'a Sends,
}

/// What rules see of one message.
#[derive(Debug)]
pub struct MessageView<'a, 's> {
    pub message: &'a Message<'s>,
    pub exchange_index: usize,
    pub side: Side,
    pub media_type: Option<MediaType>,
    pub json: JsonBody,
    /// For a `text/event-stream` body: its events, each with its data decoded as JSON.
    pub events: Vec<EventView<'a>>,
    /// Credentials stored in the decoded body (JWTs, credential JSON members), as ranges
    /// of it; found here once for `secret-in-capture`.
    pub body_secrets: Vec<std::ops::Range<usize>>,
    /// For a gRPC response: the status fields and the Status they carry.
    pub grpc_status: Option<GrpcStatusView<'a>>,
}

/// One server-sent event and its data read as JSON (A2A §9.4.2, §11.7).
#[derive(Debug)]
pub struct EventView<'a> {
    pub event: Event<'a>,
    pub json: JsonBody,
}

/// Builds the view of one exchange. Views are built and dropped one at a time, so decoded
/// JSON never accumulates over a large capture.
pub fn classify<'a, 's>(
    exchange: &'a Exchange<'s>,
    profile: Profile,
    earlier_sends: &'a Sends,
    payloads: Payloads,
) -> ExchangeView<'a, 's> {
    let call = grpc_call(exchange);
    let streaming = call.as_ref().is_some_and(|c| c.server_streaming);
    let request = exchange
        .request
        .as_ref()
        .map(|m| view(m, exchange.index, Side::Request, Payloads::Full, false));
    let response = exchange
        .response
        .as_ref()
        .map(|m| view(m, exchange.index, Side::Response, payloads, streaming));
    let mut view = ExchangeView {
        exchange,
        profile,
        request,
        response,
        binding: Binding::Other,
        operation: None,
        generation: Generation::Unknown,
        earlier_sends,
    };
    match call {
        Some(call) => {
            view.binding = Binding::Grpc;
            view.operation = call.operation;
            // The service's package is the version the call is shaped as (A2A §10.1),
            // whatever `a2a-version` it declares.
            view.generation = if call.legacy {
                Generation::V0_3
            } else {
                Generation::V1_0
            };
        }
        None => {
            view.decide_binding();
            view.generation = view.detect_generation();
        }
    }
    view
}

/// The call's path, when the exchange is gRPC: its request (or, with no request, its
/// response) is `application/grpc`.
fn grpc_call(exchange: &Exchange<'_>) -> Option<grpc::CallPath> {
    let is_grpc = |m: &Message<'_>| m.grpc.is_some();
    match &exchange.request {
        Some(request) if is_grpc(request) => match request.start_line {
            crate::capture::StartLine::Request { target, .. } => Some(grpc::CallPath::of(target)),
            crate::capture::StartLine::Response { .. } => None,
        },
        Some(_) => None,
        None => exchange
            .response
            .as_ref()
            .filter(|r| is_grpc(r))
            .map(|_| grpc::CallPath::of("")),
    }
}

fn view<'a, 's>(
    message: &'a Message<'s>,
    exchange_index: usize,
    side: Side,
    payloads: Payloads,
    server_streaming: bool,
) -> MessageView<'a, 's> {
    let media_type = MediaType::of(message);
    let declared_json = media_type.as_ref().is_some_and(MediaType::is_json);
    let is_stream = media_type
        .as_ref()
        .is_some_and(|m| m.essence == "text/event-stream");
    // A success response's payloads are read by no rule: they are checked, not built.
    let payloads = match message.status() {
        Some(200..=299) => payloads,
        _ => Payloads::Full,
    };
    let cut = message.body.cut;
    let (json, events) = match message.body.bytes() {
        // gRPC bodies are their messages as JSON, one document each (A2A §10.5).
        Some(_) if message.grpc.is_some() && server_streaming => {
            (JsonBody::Absent, grpc::stream_messages(message, payloads))
        }
        Some(_) if message.grpc.is_some() => (grpc::first_message(message, payloads), Vec::new()),
        Some(bytes) if is_stream => (JsonBody::Absent, stream_events(bytes, cut, payloads)),
        // Half a document says nothing about the agent; the reader has noted the cut.
        Some(_) if cut => (JsonBody::Absent, Vec::new()),
        bytes => (JsonBody::decode(bytes, declared_json, payloads), Vec::new()),
    };
    MessageView {
        message,
        exchange_index,
        side,
        media_type,
        json,
        events,
        body_secrets: message
            .body
            .bytes()
            .map(crate::secrets::find_in_text)
            .unwrap_or_default(),
        grpc_status: match side {
            Side::Response if message.grpc.is_some() => GrpcStatusView::read(message),
            _ => None,
        },
    }
}

/// The events of a stream; each event's data is a JSON document in both bindings.
/// Streams longer than this many events are checked up to it: decoding every event of a
/// hostile multi-gigabyte stream would cost time and memory for nothing.
pub const MAX_STREAM_EVENTS: usize = 100_000;

/// The events of a stream body, each read as JSON. In a `cut` body the event after the
/// last blank line is half an event (the connection closed inside it): it is not judged.
fn stream_events(body: &[u8], cut: bool, payloads: Payloads) -> Vec<EventView<'_>> {
    parse_events(body)
        .into_iter()
        .filter(|event| event.complete || !cut)
        .take(MAX_STREAM_EVENTS)
        .map(|event| {
            let json = JsonBody::decode(Some(&event.data), true, payloads);
            EventView { event, json }
        })
        .collect()
}

impl<'a, 's> ExchangeView<'a, 's> {
    /// JSON-RPC when the request body is shaped as a JSON-RPC request (any path), or the
    /// answer is a JSON-RPC response to a POST (a request the server could not parse);
    /// HTTP+JSON when the method and path suffix name an operation.
    fn decide_binding(&mut self) {
        let Some(request) = self.exchange.request.as_ref() else {
            self.binding = match self
                .response_json()
                .is_some_and(jsonrpc::looks_like_response)
            {
                true => Binding::JsonRpc,
                false => Binding::Other,
            };
            return;
        };
        let (method, target) = match request.start_line {
            crate::capture::StartLine::Request { method, target } => (method, target),
            crate::capture::StartLine::Response { .. } => return,
        };
        let request_json = self.request.as_ref().and_then(|r| r.json.value());
        let rpc_shaped = request_json.is_some_and(jsonrpc::looks_like_request);
        let rpc_answer = method == "POST"
            && self
                .response_json()
                .is_some_and(jsonrpc::looks_like_response);
        if method == "POST" && rpc_shaped {
            self.binding = Binding::JsonRpc;
        } else if let Some(route) = route::http_json_route(method, target) {
            self.binding = Binding::HttpJson;
            self.operation = Some(route.operation);
            return;
        } else if rpc_answer {
            self.binding = Binding::JsonRpc;
        } else if route::is_agent_card(method, target) {
            self.binding = Binding::Discovery;
            return;
        } else {
            return;
        }
        self.operation = match RpcRequest::read(request_json).method.map(method_name) {
            Some(MethodName::Current(op) | MethodName::Legacy(op)) => Some(op),
            _ => None,
        };
    }

    pub fn messages(&self) -> impl Iterator<Item = &MessageView<'a, 's>> {
        self.request.iter().chain(self.response.iter())
    }

    /// For JSON-RPC exchanges: the request's id, method and validity.
    pub fn rpc(&self) -> Option<RpcRequest<'_>> {
        (self.binding == Binding::JsonRpc)
            .then(|| RpcRequest::read(self.request.as_ref().and_then(|r| r.json.value())))
    }

    fn response_json(&self) -> Option<&serde_json::Value> {
        self.response.as_ref().and_then(|r| r.json.value())
    }

    /// Every error the response carries in its binding's form: the body's, and each
    /// error event of a stream (error events go through every error rule).
    pub fn errors(&self) -> Vec<ErrorView<'_>> {
        let Some(response) = &self.response else {
            return Vec::new();
        };
        let form = match self.binding {
            Binding::JsonRpc => ErrorForm::JsonRpc,
            Binding::HttpJson => ErrorForm::Status,
            // A gRPC call has one error, in its status fields, after any messages.
            Binding::Grpc => return response.grpc_error().into_iter().collect(),
            _ => return Vec::new(),
        };
        let status = response.message.status().unwrap_or(200);
        let mut errors = Vec::new();
        if let Some(body) = response
            .json
            .value()
            .filter(|_| form == ErrorForm::JsonRpc || status >= 400)
        {
            errors.extend(ErrorView::read(body, form, status, response.doc(None)));
        }
        for event in &response.events {
            if let Some(data) = event.json.value() {
                // A stream answers 200 before any error; an HTTP+JSON error event carries
                // the status it stands for in `error.code`.
                let status = data
                    .get("error")
                    .and_then(|error| error.get("code"))
                    .and_then(serde_json::Value::as_u64)
                    .and_then(|c| u16::try_from(c).ok())
                    .filter(|c| (100..600).contains(c) && form == ErrorForm::Status)
                    .unwrap_or(status);
                errors.extend(ErrorView::read(
                    data,
                    form,
                    status,
                    response.doc(Some(&event.event)),
                ));
            }
        }
        errors
    }

    /// The JSON documents that stand for errors on the HTTP+JSON binding, whatever their
    /// shape: the body of a 4xx/5xx response, and stream events typed `error` or holding an
    /// `error` member.
    pub fn rest_error_documents(&self) -> Vec<(Doc<'_>, &serde_json::Value)> {
        let (Binding::HttpJson, Some(response)) = (self.binding, &self.response) else {
            return Vec::new();
        };
        let mut documents = Vec::new();
        if let (Some(_), Some(body)) = (self.error_status(), response.json.value()) {
            documents.push((response.doc(None), body));
        }
        for event in &response.events {
            let Some(data) = event.json.value() else {
                continue;
            };
            if event.event.kind == Some("error") || data.get("error").is_some() {
                documents.push((response.doc(Some(&event.event)), data));
            }
        }
        documents
    }

    /// Is the request body unusable as a request: not valid JSON, or (JSON-RPC) not a
    /// single valid Request object? Errors answering it have no field to name, and their
    /// code is judged by `invalid-request-code`.
    pub fn request_is_malformed(&self) -> bool {
        let unparsable = self
            .request
            .as_ref()
            .is_some_and(|r| matches!(r.json, JsonBody::Invalid { .. }));
        unparsable || self.is_invalid_rpc_request()
    }

    /// Is the request JSON but not a single valid JSON-RPC Request object (or a batch)?
    pub fn is_invalid_rpc_request(&self) -> bool {
        self.rpc()
            .is_some_and(|rpc| rpc.invalid.is_some() || rpc.batch)
    }

    /// Is this an exchange with an A2A agent: a JSON-RPC call or an HTTP+JSON operation?
    pub fn is_a2a_operation(&self) -> bool {
        matches!(
            self.binding,
            Binding::JsonRpc | Binding::HttpJson | Binding::Grpc
        )
    }

    /// The response of a gRPC call, for the rules of the gRPC status itself.
    pub fn grpc_response(&self) -> Option<&MessageView<'a, 's>> {
        self.response
            .as_ref()
            .filter(|_| self.binding == Binding::Grpc)
    }

    /// Was the request answered with success: a 2xx response carrying no error and, over
    /// gRPC, ending with `grpc-status: 0` (a call that ends without one did not succeed).
    pub fn succeeded(&self) -> bool {
        let Some(response) = &self.response else {
            return false;
        };
        let status = response.message.status().unwrap_or(0);
        let grpc_ok = self.binding != Binding::Grpc
            || (response.grpc_status.as_ref()).is_some_and(|s| s.code == Some(0));
        (200..300).contains(&status) && grpc_ok && self.errors().is_empty()
    }

    /// The response's HTTP status when it is an error (4xx or 5xx).
    pub fn error_status(&self) -> Option<u16> {
        self.response
            .as_ref()?
            .message
            .status()
            .filter(|s| *s >= 400)
    }

    /// The `A2A-Version` the request declares (header, or query parameter per §3.6.1).
    pub fn declared_version(&self) -> Option<(&str, Span)> {
        let request = self.exchange.request.as_ref()?;
        // An empty value is the same as none: both mean 0.3 (A2A §3.6.2).
        if let Some(header) = request.header("a2a-version") {
            let value = header.value_str().unwrap_or("").trim();
            return (!value.is_empty()).then_some((value, header.value_span));
        }
        let target = match request.start_line {
            crate::capture::StartLine::Request { target, .. } => target,
            crate::capture::StartLine::Response { .. } => return None,
        };
        let query = target.split_once('?')?.1;
        let pair = query.split('&').find(|p| {
            p.split('=')
                .next()
                .is_some_and(|k| k.eq_ignore_ascii_case("a2a-version"))
        })?;
        let value = pair.split_once('=').map_or("", |(_, v)| v);
        if value.is_empty() {
            return None;
        }
        let offset = pair.as_ptr() as usize - target.as_ptr() as usize;
        let span = request.start_line_span;
        let start = span.start + request_target_offset(request) + offset + pair.len() - value.len();
        Some((value, Span::new(start, start + value.len())))
    }
}

/// Offset of the request target within the start line.
fn request_target_offset(request: &Message<'_>) -> usize {
    request.method().map_or(0, |m| m.len() + 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::capture::read_http;

    fn data(events: &[EventView<'_>]) -> Vec<String> {
        events
            .iter()
            .map(|e| String::from_utf8_lossy(&e.event.data).into_owned())
            .collect()
    }

    #[test]
    fn a_cut_stream_drops_only_its_half_event() {
        let body = b"data: {\"a\":1}\n\ndata: not json\n\ndata: {\"b\":";
        let whole = stream_events(body, false, Payloads::Full);
        assert_eq!(data(&whole), ["{\"a\":1}", "not json", "{\"b\":"]);
        let cut = stream_events(body, true, Payloads::Full);
        assert_eq!(data(&cut), ["{\"a\":1}", "not json"]);
        assert!(matches!(cut[1].json, JsonBody::Invalid { .. }));
    }

    #[test]
    fn a_cut_body_is_not_read_as_a_json_document() {
        let src = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{\"a\":\r\n";
        let capture = read_http(src);
        let message = capture.exchanges[0].response.as_ref().unwrap();
        assert!(message.body.cut);
        let view = view(message, 0, Side::Response, Payloads::Full, false);
        assert!(matches!(view.json, JsonBody::Absent));
    }
}
