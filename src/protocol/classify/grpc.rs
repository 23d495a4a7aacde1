//! The gRPC binding in the view (A2A §10): which rpc a call is, its messages as JSON
//! documents (each server-stream message an event), and the Status its trailers carry.

use std::borrow::Cow;

use crate::input::capture::{Event, Header, Message, Piece};
use crate::input::proto::{GrpcMethod, grpc_method};
use crate::protocol::classify::{EventView, JsonBody, Operation, Payloads};

/// What a call's `:path` names, for classification.
pub struct CallPath {
    pub operation: Option<Operation>,
    /// The 0.3 service, package `a2a.v1` (A2A §10.1 moved it to `lf.a2a.v1`).
    pub legacy: bool,
    pub server_streaming: bool,
}

impl CallPath {
    pub fn of(path: &str) -> CallPath {
        let by_name = |name: &str| match crate::protocol::classify::method_name(name) {
            crate::protocol::classify::MethodName::Current(op) => Some(op),
            _ => None,
        };
        match grpc_method(path) {
            GrpcMethod::Current(rpc) => CallPath {
                operation: by_name(rpc.name),
                legacy: false,
                server_streaming: rpc.server_streaming,
            },
            GrpcMethod::Legacy(name) => CallPath {
                // 0.3 rpc names are the 1.0 ones but for two (`TaskSubscription`,
                // `GetAgentCard`), which name no 1.0 operation.
                operation: by_name(name),
                legacy: true,
                server_streaming: matches!(name, "SendStreamingMessage" | "TaskSubscription"),
            },
            GrpcMethod::UnknownMethod(_) | GrpcMethod::OtherService => CallPath {
                operation: None,
                legacy: false,
                server_streaming: false,
            },
        }
    }
}

/// The status fields of a gRPC response (gRPC over HTTP/2: in the trailers, or in the
/// only HEADERS frame of a trailers-only response).
#[derive(Debug)]
pub struct GrpcStatusView<'m> {
    pub status: &'m Header<'m>,
    /// `grpc-status` as a number, when it is one.
    pub code: Option<i64>,
    pub message: Option<&'m Header<'m>>,
    /// `grpc-message` with its percent-escapes undone.
    pub message_text: Option<String>,
    pub details: Option<&'m Header<'m>>,
    /// The Status decoded from `grpc-status-details-bin`.
    pub details_json: JsonBody,
}

impl<'m> GrpcStatusView<'m> {
    pub fn read(message: &'m Message<'m>) -> Option<GrpcStatusView<'m>> {
        let field = |name: &str| {
            (message.trailers.iter())
                .find(|h| h.name.eq_ignore_ascii_case(name))
                .or_else(|| message.header(name))
        };
        let status = field("grpc-status")?;
        let code = std::str::from_utf8(status.value)
            .ok()
            .and_then(|v| v.trim().parse().ok());
        let grpc_message = field("grpc-message");
        let details_json = match message.grpc.as_ref().and_then(|g| g.status.as_ref()) {
            Some(content) => JsonBody::decode(Some(&content.bytes), true, Payloads::Full),
            None => JsonBody::Absent,
        };
        Some(GrpcStatusView {
            status,
            code,
            message: grpc_message,
            message_text: grpc_message
                .map(|h| crate::input::capture::wire::grpc::percent_decode(h.value)),
            details: field("grpc-status-details-bin"),
            details_json,
        })
    }

    /// The name of the code (`NOT_FOUND`), when it is one of the seventeen.
    pub fn code_name(&self) -> Option<&'static str> {
        self.code.and_then(crate::input::proto::code_name)
    }
}

/// A gRPC message's first message as a JSON document (a unary request or response).
pub fn first_message(message: &Message<'_>, payloads: Payloads) -> JsonBody {
    let (Some(grpc), Some(content)) = (&message.grpc, &message.body.content) else {
        return JsonBody::Absent;
    };
    match grpc.messages.first() {
        Some(&(span, true)) => JsonBody::decode(content.bytes.get(span.range()), true, payloads),
        _ => JsonBody::Absent,
    }
}

/// The messages of a server stream, each as an event whose data is its JSON: the stream
/// rules read them as they read server-sent events (A2A §10.5).
pub fn stream_messages<'a>(message: &'a Message<'_>, payloads: Payloads) -> Vec<EventView<'a>> {
    let (Some(grpc), Some(content)) = (&message.grpc, &message.body.content) else {
        return Vec::new();
    };
    (grpc.messages.iter().enumerate())
        .filter(|(_, (_, json))| *json)
        .take(crate::protocol::classify::MAX_STREAM_EVENTS)
        .filter_map(|(index, &(span, _))| {
            let data = content.bytes.get(span.range())?;
            let event = Event {
                index,
                kind: None,
                data: Cow::Borrowed(data),
                pieces: vec![Piece {
                    decoded: 0,
                    raw: span.start,
                    len: span.len(),
                }],
                span,
                complete: true,
            };
            let json = JsonBody::decode(Some(data), true, payloads);
            Some(EventView { event, json })
        })
        .collect()
}
