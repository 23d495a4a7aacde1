//! The second pipeline stage: turns an exchange into the view rules read. Protocol
//! knowledge lives here: the binding, the operation, the version, the JSON-RPC envelope
//! and the error. JSON bodies are decoded here, once; rules never parse bytes.

mod declared;
mod detail_pointer;
mod error;
mod grpc;
mod history;
mod json;
mod json_quick;
mod json_skim;
mod jsonrpc;
mod labels;
mod media;
mod message;
mod route;
mod shape;

pub use detail_pointer::DetailPointer;
pub use error::{Detail, ErrorForm, ErrorInfo, ErrorView, problem_members};
pub use grpc::GrpcStatusView;
pub use history::{SendRecord, Sends};
pub use json::{JsonBody, Payloads, kind_of};
pub use jsonrpc::{InvalidRequest, RequestId, RpcRequest, looks_like_response};
pub use labels::Doc;
pub use media::MediaType;
pub use message::{EventView, MAX_STREAM_EVENTS, MessageView};
pub use route::{MethodName, Operation, method_name};
pub use shape::Generation;

use crate::input::capture::{Exchange, Message, Side};
use crate::input::source::Span;
use crate::protocol::profile::Profile;

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

impl Binding {
    /// How reports name it.
    pub fn name(self) -> &'static str {
        match self {
            Binding::JsonRpc => "JSON-RPC",
            Binding::HttpJson => "HTTP+JSON",
            Binding::Grpc => "gRPC",
            Binding::Discovery => "discovery",
            Binding::Other => "other",
        }
    }
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
    /// The `A2A-Version` the request declares and where, read once: several rules and
    /// the generation ask for it.
    declared_version: Option<(&'a str, Span)>,
    /// The exchange's record as a send, once asked for ([`ExchangeView::send_record`]).
    send_record: std::cell::OnceCell<Option<history::SendRecord>>,
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
        .map(|m| message::view(m, exchange.index, Side::Request, Payloads::Full, false));
    let response = exchange
        .response
        .as_ref()
        .map(|m| message::view(m, exchange.index, Side::Response, payloads, streaming));
    let mut view = ExchangeView {
        exchange,
        profile,
        request,
        response,
        binding: Binding::Other,
        operation: None,
        generation: Generation::Unknown,
        earlier_sends,
        declared_version: declared::declared_version(exchange),
        send_record: std::cell::OnceCell::new(),
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
            crate::input::capture::StartLine::Request { target, .. } => {
                Some(grpc::CallPath::of(target))
            }
            crate::input::capture::StartLine::Response { .. } => None,
        },
        Some(_) => None,
        None => exchange
            .response
            .as_ref()
            .filter(|r| is_grpc(r))
            .map(|_| grpc::CallPath::of("")),
    }
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
            crate::input::capture::StartLine::Request { method, target } => (method, target),
            crate::input::capture::StartLine::Response { .. } => return,
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
        // A gRPC call has one error, in its status fields, after any messages.
        if self.binding == Binding::Grpc {
            return response.grpc_error().into_iter().collect();
        }
        let Some(form) = self.json_error_form() else {
            return Vec::new();
        };
        (self.error_documents(response, form))
            .filter_map(|(body, status, doc)| ErrorView::read(body, form, status, doc))
            .collect()
    }

    /// Does the response carry any error [`Self::errors`] would read? Answered without
    /// reading them: every success check asks it.
    fn has_errors(&self) -> bool {
        let Some(response) = &self.response else {
            return false;
        };
        if self.binding == Binding::Grpc {
            return response.grpc_error().is_some();
        }
        self.json_error_form().is_some_and(|form| {
            (self.error_documents(response, form))
                .any(|(body, ..)| ErrorView::object_in(body).is_some())
        })
    }

    /// The form a JSON error takes on this exchange's binding; `None` where JSON errors
    /// are not read (gRPC carries its error in status fields).
    fn json_error_form(&self) -> Option<ErrorForm> {
        match self.binding {
            Binding::JsonRpc => Some(ErrorForm::JsonRpc),
            Binding::HttpJson => Some(ErrorForm::Status),
            _ => None,
        }
    }

    /// The documents of `response` that are read for an error, each with the HTTP status
    /// it stands for and the document labels point into: the body, and each stream event.
    fn error_documents<'v>(
        &self,
        response: &'v MessageView<'a, 's>,
        form: ErrorForm,
    ) -> impl Iterator<Item = (&'v serde_json::Value, u16, Doc<'v>)> {
        let status = response.message.status().unwrap_or(200);
        let body = (response.json.value())
            .filter(|_| form == ErrorForm::JsonRpc || status >= 400)
            .map(|body| (body, status, response.doc(None)));
        let events = response.events.iter().filter_map(move |event| {
            let data = event.json.value()?;
            // A stream answers 200 before any error; an HTTP+JSON error event carries
            // the status it stands for in `error.code`.
            let status = data
                .get("error")
                .and_then(|error| error.get("code"))
                .and_then(serde_json::Value::as_u64)
                .and_then(|c| u16::try_from(c).ok())
                .filter(|c| (100..600).contains(c) && form == ErrorForm::Status)
                .unwrap_or(status);
            Some((data, status, response.doc(Some(&event.event))))
        });
        body.into_iter().chain(events)
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
        (200..300).contains(&status) && grpc_ok && !self.has_errors()
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
        self.declared_version
    }
}
