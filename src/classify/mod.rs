//! The second pipeline stage: turns an exchange into the view rules read. Protocol
//! knowledge lives here: the binding, the operation, the version, the JSON-RPC envelope
//! and the error. JSON bodies are decoded here, once; rules never parse bytes.

mod error;
mod history;
mod json;
pub(crate) mod json_span;
mod jsonrpc;
mod media;
mod route;
mod shape;

pub use error::{Detail, ErrorForm, ErrorInfo, ErrorView, problem_members};
pub use history::SendRecord;
pub use json::{JsonBody, kind_of};
pub use jsonrpc::{InvalidRequest, RequestId, RpcRequest, looks_like_response};
pub use media::MediaType;
pub use route::{MethodName, Operation, method_name};
pub use shape::Generation;

use crate::capture::{Content, Event, Exchange, Header, Message, Side, parse_events};
use crate::finding::Label;
use crate::profile::Profile;
use crate::source::Span;

/// How an exchange travels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Binding {
    /// JSON-RPC 2.0 over HTTP (A2A §9).
    JsonRpc,
    /// The HTTP+JSON/REST binding (A2A §11).
    HttpJson,
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
    pub earlier_sends: &'a [SendRecord],
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
}

/// One server-sent event and its data read as JSON (A2A §9.4.2, §11.7).
#[derive(Debug)]
pub struct EventView<'a> {
    pub event: Event<'a>,
    pub json: JsonBody,
}

/// A JSON document of a message, the body or one event's data, that labels point into.
#[derive(Clone, Copy, Debug)]
pub struct Doc<'v> {
    exchange_index: usize,
    side: Side,
    content: Option<&'v Content<'v>>,
    event: Option<&'v Event<'v>>,
    start_line: Span,
    raw: Span,
}

impl Doc<'_> {
    /// A label on the value at `pointer`; on the document as a whole when it is absent.
    pub fn label(&self, pointer: &str, text: impl Into<String>) -> Label {
        self.locate(pointer, json_span::locate_value, text)
    }

    /// A label on the member name at `pointer` (`"data"` rather than its value).
    pub fn key_label(&self, pointer: &str, text: impl Into<String>) -> Label {
        self.locate(pointer, json_span::locate_key, text)
    }

    /// A label on the first byte of the value at `pointer`: the `{` of an object that
    /// lacks a member, say.
    pub fn opening_label(&self, pointer: &str, text: impl Into<String>) -> Label {
        let first_byte = |json: &[u8], pointer: &str| {
            json_span::locate_value(json, pointer)
                .map(|s| Span::new(s.start, (s.start + 1).min(s.end)))
        };
        self.locate(pointer, first_byte, text)
    }

    /// Is this an event of a stream rather than a whole body?
    pub fn in_stream(&self) -> bool {
        self.event.is_some()
    }

    fn locate(
        &self,
        pointer: &str,
        find: fn(&[u8], &str) -> Option<Span>,
        text: impl Into<String>,
    ) -> Label {
        let member = match self.event {
            Some(event) => format!("{}/events/{}{pointer}", self.side.name(), event.index),
            None => format!("{}{pointer}", self.side.name()),
        };
        let Some(content) = self.content else {
            return Label::at(self.start_line, text).member(member);
        };
        let (bytes, whole): (&[u8], Span) = match self.event {
            Some(event) => (&event.data, event.span),
            None => (&content.bytes, Span::new(0, content.bytes.len())),
        };
        let span = match (find(bytes, pointer), self.event) {
            (Some(span), Some(event)) => event.body_span(span),
            (Some(span), None) => span,
            (None, _) if self.event.is_none() => return Label::at(self.raw, text).member(member),
            (None, _) => whole,
        };
        Label::in_body(self.exchange_index, self.side, content, span, text).member(member)
    }
}

/// Builds the view of one exchange. Views are built and dropped one at a time, so decoded
/// JSON never accumulates over a large capture.
pub fn classify<'a, 's>(
    exchange: &'a Exchange<'s>,
    profile: Profile,
    earlier_sends: &'a [SendRecord],
) -> ExchangeView<'a, 's> {
    let request = exchange
        .request
        .as_ref()
        .map(|m| view(m, exchange.index, Side::Request));
    let response = exchange
        .response
        .as_ref()
        .map(|m| view(m, exchange.index, Side::Response));
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
    view.decide_binding();
    view.generation = view.detect_generation();
    view
}

fn view<'a, 's>(
    message: &'a Message<'s>,
    exchange_index: usize,
    side: Side,
) -> MessageView<'a, 's> {
    let media_type = MediaType::of(message);
    let declared_json = media_type.as_ref().is_some_and(MediaType::is_json);
    let is_stream = media_type
        .as_ref()
        .is_some_and(|m| m.essence == "text/event-stream");
    let (json, events) = match message.body.bytes() {
        Some(bytes) if is_stream => (JsonBody::Absent, stream_events(bytes)),
        bytes => (JsonBody::decode(bytes, declared_json), Vec::new()),
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
    }
}

/// The events of a stream; each event's data is a JSON document in both bindings.
fn stream_events(body: &[u8]) -> Vec<EventView<'_>> {
    parse_events(body)
        .into_iter()
        .map(|event| {
            let json = JsonBody::decode(Some(&event.data), true);
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
                    .pointer("/error/code")
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
        matches!(self.binding, Binding::JsonRpc | Binding::HttpJson)
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

impl<'a> MessageView<'a, '_> {
    /// The message body, or one of its stream events, as a document to label.
    pub fn doc<'v>(&'v self, event: Option<&'v Event<'v>>) -> Doc<'v> {
        Doc {
            exchange_index: self.exchange_index,
            side: self.side,
            content: self.message.body.content.as_ref(),
            event,
            start_line: self.message.start_line_span,
            raw: self.message.body.raw,
        }
    }

    /// A label on the JSON member at `pointer` of this message's body; on the body (or the
    /// start line, for a message without one) when the member is absent.
    pub fn label(&self, pointer: &str, text: impl Into<String>) -> Label {
        self.doc(None).label(pointer, text)
    }

    /// A label on the member name at `pointer` (`"data"` rather than its value).
    pub fn key_label(&self, pointer: &str, text: impl Into<String>) -> Label {
        self.doc(None).key_label(pointer, text)
    }

    /// A label on the first byte of the value at `pointer`.
    pub fn opening_label(&self, pointer: &str, text: impl Into<String>) -> Label {
        self.doc(None).opening_label(pointer, text)
    }

    /// A label on the start line (`HTTP/1.1 404 Not Found`).
    pub fn start_line_label(&self, text: impl Into<String>) -> Label {
        Label::at(self.message.start_line_span, text)
            .member(format!("{}/start-line", self.side.name()))
    }

    /// A label on the value of header `name`, or on the start line when it is absent.
    pub fn header_label(&self, name: &str, text: impl Into<String>) -> Label {
        match self.message.header(name) {
            Some(header) => Label::at(header.value_span, text).member(format!(
                "{}/header/{}",
                self.side.name(),
                name.to_ascii_lowercase()
            )),
            None => self.start_line_label(text),
        }
    }

    pub fn header(&self, name: &str) -> Option<&Header<'_>> {
        self.message.header(name)
    }
}
