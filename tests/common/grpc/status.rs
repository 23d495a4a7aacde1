//! A gRPC call's status trailers, and the `google.rpc` details of the rich error model.
//!
//! `grpc-status`, a percent-encoded `grpc-message`, and a serialized `google.rpc.Status`
//! in `grpc-status-details-bin` (base64, padded or not, or true binary).

use base64::Engine;
use base64::engine::general_purpose::{STANDARD, STANDARD_NO_PAD};
use prost::Message;
use prost_types::{Any, Duration};
use tonic_types::pb::{
    BadRequest, DebugInfo, ErrorInfo, LocalizedMessage, RetryInfo, Status, bad_request,
};

use super::Field;

/// The gRPC status codes (the `google.rpc.Code` values).
pub mod code {
    pub const OK: i32 = 0;
    pub const CANCELLED: i32 = 1;
    pub const UNKNOWN: i32 = 2;
    pub const INVALID_ARGUMENT: i32 = 3;
    pub const DEADLINE_EXCEEDED: i32 = 4;
    pub const NOT_FOUND: i32 = 5;
    pub const ALREADY_EXISTS: i32 = 6;
    pub const PERMISSION_DENIED: i32 = 7;
    pub const RESOURCE_EXHAUSTED: i32 = 8;
    pub const FAILED_PRECONDITION: i32 = 9;
    pub const ABORTED: i32 = 10;
    pub const OUT_OF_RANGE: i32 = 11;
    pub const UNIMPLEMENTED: i32 = 12;
    pub const INTERNAL: i32 = 13;
    pub const UNAVAILABLE: i32 = 14;
    pub const DATA_LOSS: i32 = 15;
    pub const UNAUTHENTICATED: i32 = 16;
}

/// The `ErrorInfo.domain` of A2A errors (A2A §10.6).
pub const A2A_DOMAIN: &str = "a2a-protocol.org";
/// The prefix of every well-known type URL.
pub const TYPE_URL_PREFIX: &str = "type.googleapis.com/";
/// The name of the trailer holding a serialized `google.rpc.Status`.
pub const DETAILS_BIN: &str = "grpc-status-details-bin";

/// How the value of a `-bin` metadata field is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum BinEncoding {
    /// Base64 with `=` padding. gRPC HTTP/2 spec: receivers MUST accept padded values.
    Padded,
    /// Base64 without padding, what the spec says senders should emit.
    #[default]
    Unpadded,
    /// gRPC's true binary metadata (proposal G1): a 0x00 byte, then the raw bytes. Only
    /// allowed when both peers sent SETTINGS parameter 0xfe03 = 1; the writer does not
    /// check that, so a test can write it un-negotiated.
    TrueBinary,
}

/// `raw` as the value of a `-bin` field, written as `encoding` says.
pub fn bin_value(raw: &[u8], encoding: BinEncoding) -> Vec<u8> {
    match encoding {
        BinEncoding::Padded => STANDARD.encode(raw).into_bytes(),
        BinEncoding::Unpadded => STANDARD_NO_PAD.encode(raw).into_bytes(),
        BinEncoding::TrueBinary => [&[0u8][..], raw].concat(),
    }
}

/// `message` percent-encoded for `grpc-message` (gRPC HTTP/2 spec): its UTF-8 bytes, each
/// outside 0x20..=0x7E, and `%` itself, as `%XX` (upper-case hex).
pub fn percent_encode(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    for &b in message.as_bytes() {
        if (0x20..=0x7e).contains(&b) && b != b'%' {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// What a call's status trailers say.
#[derive(Clone, Debug, PartialEq)]
pub struct GrpcStatus {
    /// `grpc-status`, a [`code`].
    pub code: i32,
    /// `grpc-message` before percent-encoding; none for no field.
    pub message: Option<String>,
    /// The protobuf bytes of `grpc-status-details-bin` before [`BinEncoding`]: usually a
    /// `google.rpc.Status` (see [`GrpcStatus::with_details`]), any bytes for a broken one.
    pub details: Option<Vec<u8>>,
    /// How `details` is written.
    pub encoding: BinEncoding,
}

impl GrpcStatus {
    /// `grpc-status: 0` and nothing else.
    pub fn ok() -> Self {
        GrpcStatus::new(code::OK, None)
    }

    /// This code and message, no details.
    pub fn new(code: i32, message: Option<&str>) -> Self {
        GrpcStatus {
            code,
            message: message.map(str::to_string),
            details: None,
            encoding: BinEncoding::default(),
        }
    }

    /// This code and message with a `google.rpc.Status` of the same code and message
    /// holding `details` — the rich error model A2A's gRPC binding uses (A2A §10.6).
    pub fn rich(code: i32, message: &str, details: Vec<Any>) -> Self {
        GrpcStatus::new(code, Some(message)).with_details(&status(code, message, details))
    }

    /// `grpc-status-details-bin` holding `status` (its code and message may differ from
    /// the trailers', for mismatch tests).
    pub fn with_details(mut self, status: &Status) -> Self {
        self.details = Some(status.encode_to_vec());
        self
    }

    /// `grpc-status-details-bin` holding these bytes as they are.
    pub fn with_raw_details(mut self, bytes: &[u8]) -> Self {
        self.details = Some(bytes.to_vec());
        self
    }

    /// The details written as `encoding` says.
    pub fn encoded(mut self, encoding: BinEncoding) -> Self {
        self.encoding = encoding;
        self
    }

    /// The trailer fields, in the order of the gRPC spec's Trailers: `grpc-status`,
    /// `grpc-message`, then the details as custom metadata.
    pub fn fields(&self) -> Vec<Field> {
        let mut fields = vec![field("grpc-status", self.code.to_string())];
        if let Some(message) = &self.message {
            fields.push(field("grpc-message", percent_encode(message)));
        }
        if let Some(details) = &self.details {
            fields.push(field(DETAILS_BIN, bin_value(details, self.encoding)));
        }
        fields
    }
}

/// One field with any value bytes.
pub fn field(name: &str, value: impl AsRef<[u8]>) -> Field {
    (name.to_string(), value.as_ref().to_vec())
}

/// A `google.rpc.Status`.
pub fn status(code: i32, message: &str, details: Vec<Any>) -> Status {
    Status {
        code,
        message: message.to_string(),
        details,
    }
}

/// `message` packed in an `Any` under `type.googleapis.com/<type_name>`.
pub fn any_of<M: Message>(type_name: &str, message: &M) -> Any {
    Any {
        type_url: format!("{TYPE_URL_PREFIX}{type_name}"),
        value: message.encode_to_vec(),
    }
}

/// An `Any` with this type URL and value, as is (an empty or unknown URL).
pub fn any_raw(type_url: &str, value: &[u8]) -> Any {
    Any {
        type_url: type_url.to_string(),
        value: value.to_vec(),
    }
}

/// An `Any` with an empty type URL over an ErrorInfo's bytes: a reader cannot tell what
/// it holds.
pub fn any_without_type_url(reason: &str) -> Any {
    any_raw(
        "",
        &error_info_message(reason, A2A_DOMAIN, &[]).encode_to_vec(),
    )
}

/// An `Any` of a type no one knows.
pub fn any_unknown() -> Any {
    any_raw("type.googleapis.com/example.Unknown", b"\x0a\x03abc")
}

/// A `google.rpc.ErrorInfo`.
pub fn error_info_message(reason: &str, domain: &str, metadata: &[(&str, &str)]) -> ErrorInfo {
    ErrorInfo {
        reason: reason.to_string(),
        domain: domain.to_string(),
        metadata: (metadata.iter())
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
    }
}

/// A `google.rpc.ErrorInfo` in an `Any`.
pub fn error_info(reason: &str, domain: &str, metadata: &[(&str, &str)]) -> Any {
    any_of(
        "google.rpc.ErrorInfo",
        &error_info_message(reason, domain, metadata),
    )
}

/// An A2A error's ErrorInfo: `reason` (e.g. `TASK_NOT_FOUND`) in the A2A domain, which A2A
/// §10.6 says A2A-specific errors MUST carry.
pub fn a2a_error_info(reason: &str, metadata: &[(&str, &str)]) -> Any {
    error_info(reason, A2A_DOMAIN, metadata)
}

/// A `google.rpc.BadRequest` with one violation per `(field, description)`, in an `Any`.
pub fn bad_request(violations: &[(&str, &str)]) -> Any {
    let field_violations = (violations.iter())
        .map(|(field, description)| bad_request::FieldViolation {
            field: field.to_string(),
            description: description.to_string(),
            ..Default::default()
        })
        .collect();
    any_of("google.rpc.BadRequest", &BadRequest { field_violations })
}

/// A `google.rpc.RetryInfo` asking to wait this long, in an `Any`.
pub fn retry_info(seconds: i64, nanos: i32) -> Any {
    let retry_delay = Some(Duration { seconds, nanos });
    any_of("google.rpc.RetryInfo", &RetryInfo { retry_delay })
}

/// A `google.rpc.DebugInfo`, in an `Any`.
pub fn debug_info(stack_entries: &[&str], detail: &str) -> Any {
    let info = DebugInfo {
        stack_entries: stack_entries.iter().map(|s| s.to_string()).collect(),
        detail: detail.to_string(),
    };
    any_of("google.rpc.DebugInfo", &info)
}

/// A `google.rpc.LocalizedMessage`, in an `Any`.
pub fn localized_message(locale: &str, message: &str) -> Any {
    let message = LocalizedMessage {
        locale: locale.to_string(),
        message: message.to_string(),
    };
    any_of("google.rpc.LocalizedMessage", &message)
}

/// A2A's TaskNotFoundError over gRPC: NOT_FOUND with an ErrorInfo `TASK_NOT_FOUND`
/// (A2A §10.6) naming the task in its metadata.
pub fn task_not_found(task_id: &str) -> GrpcStatus {
    let info = a2a_error_info("TASK_NOT_FOUND", &[("taskId", task_id)]);
    GrpcStatus::rich(code::NOT_FOUND, "Task not found", vec![info])
}
