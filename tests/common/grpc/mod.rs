//! Writes gRPC calls over HTTP/2 (the gRPC "PROTOCOL-HTTP2" spec) for tests, as bytes or pcaps.
//!
//! A [`GrpcCall`] is one request (headers and Length-Prefixed-Messages) and its
//! [`Response`]: headers, messages and trailers; Trailers-Only; or a stream that stops
//! without trailers ([`End`]). A [`GrpcConnection`] puts calls on streams 1, 3, 5, … of
//! one prior-knowledge HTTP/2 connection, optionally with true binary metadata
//! negotiated, and writes it as a pcap through `tests/common/pcap`. [`read_frames`] and
//! its helpers read such bytes back, for tests that check what was sent.
//!
//! It builds on `crate::h2` and `crate::pcap`, so a test binary declares them too:
//!
//! ```ignore
//! #[allow(dead_code)]
//! #[path = "common/h2.rs"]
//! mod h2;
//! #[allow(dead_code)]
//! #[path = "common/pcap/mod.rs"]
//! mod pcap;
//! #[allow(dead_code)]
//! #[path = "common/grpc/mod.rs"]
//! mod grpc;
//!
//! let call = GrpcCall::a2a("GetTask", &get_task("t-1"), Response::trailers_only(&task_not_found("t-1")));
//! let path = GrpcConnection::new(vec![call]).write_pcap(&dir, "get-task.pcap");
//! ```

// Each test binary uses a part of what is re-exported here.
#![allow(unused_imports)]

mod framing;
mod messages;
mod read;
mod status;
mod wire;

pub use framing::{Compression, compressed_frame, message_frame, prefixed, raw_message};
pub use messages::*;
pub use read::{
    ReadFrame, field_lines, first_settings, grpc_messages, on_stream, read_frames, value,
};
pub use status::{
    A2A_DOMAIN, BinEncoding, DETAILS_BIN, GrpcStatus, TYPE_URL_PREFIX, a2a_error_info, any_of,
    any_raw, any_unknown, any_without_type_url, bad_request, bin_value, code, debug_info,
    error_info, error_info_message, field, localized_message, percent_encode, retry_info, status,
    task_not_found,
};
pub use wire::{
    GrpcConnection, SETTINGS_GRPC_ALLOW_TRUE_BINARY_METADATA, fixtures_dir, grpc_pcap,
    write_grpc_pcap,
};

/// One header or trailer field: a name, and a value of any bytes (true binary metadata is
/// not text).
pub type Field = (String, Vec<u8>);

/// The gRPC content type unless a call says otherwise.
pub const CONTENT_TYPE: &str = "application/grpc";
/// The `:authority` unless a call says otherwise.
pub const AUTHORITY: &str = "agent";
/// The `a2a-version` metadata unless a call says otherwise (A2A §10.2).
pub const A2A_VERSION: &str = "1.0";

/// HTTP/2 error codes for RST_STREAM and GOAWAY (RFC 9113 §7).
pub mod h2_code {
    pub const NO_ERROR: u32 = 0x0;
    pub const PROTOCOL_ERROR: u32 = 0x1;
    pub const INTERNAL_ERROR: u32 = 0x2;
    pub const REFUSED_STREAM: u32 = 0x7;
    pub const CANCEL: u32 = 0x8;
    pub const ENHANCE_YOUR_CALM: u32 = 0xb;
}

/// One gRPC call: the client's request, then the server's [`Response`].
#[derive(Clone, Debug)]
pub struct GrpcCall {
    /// `:path`, `/Service/Method`.
    pub path: String,
    pub authority: String,
    /// The request's `content-type` (`application/grpc`, `application/grpc+proto`, …).
    pub content_type: String,
    /// `a2a-version` metadata; none for no field.
    pub a2a_version: Option<String>,
    /// `grpc-encoding`: how the request messages flagged compressed are compressed.
    pub grpc_encoding: Option<String>,
    /// More request metadata, after the gRPC fields (`authorization`, `x-…-bin`, …).
    pub metadata: Vec<Field>,
    /// The request's Length-Prefixed-Messages ([`message_frame`], [`raw_message`], …),
    /// each in DATA frames of its own, the last ending the stream. None: the HEADERS frame
    /// ends it.
    pub messages: Vec<Vec<u8>>,
    pub response: Response,
    /// Write every HPACK string literal of the call Huffman-coded.
    pub huffman: bool,
}

impl GrpcCall {
    /// A call to `path` sending these framed messages.
    pub fn new(path: &str, messages: Vec<Vec<u8>>, response: Response) -> Self {
        GrpcCall {
            path: path.to_string(),
            authority: AUTHORITY.to_string(),
            content_type: CONTENT_TYPE.to_string(),
            a2a_version: Some(A2A_VERSION.to_string()),
            grpc_encoding: None,
            metadata: Vec::new(),
            messages,
            response,
            huffman: false,
        }
    }

    /// A call of the A2A rpc `method` (e.g. `GetTask`) sending `request`.
    pub fn a2a<M: prost::Message>(method: &str, request: &M, response: Response) -> Self {
        GrpcCall::new(&method_path(method), vec![message_frame(request)], response)
    }

    /// The request's content type.
    pub fn content_type(mut self, content_type: &str) -> Self {
        self.content_type = content_type.to_string();
        self
    }

    /// The `a2a-version` sent; none for no field.
    pub fn a2a_version(mut self, version: Option<&str>) -> Self {
        self.a2a_version = version.map(str::to_string);
        self
    }

    /// Says `grpc-encoding` for the request; its compressed messages come from
    /// [`compressed_frame`] with the same [`Compression`].
    pub fn grpc_encoding(mut self, compression: Compression) -> Self {
        self.grpc_encoding = Some(compression.name().to_string());
        self
    }

    /// One more request metadata field (a `-bin` one's value from [`bin_value`]).
    pub fn metadata(mut self, name: &str, value: impl AsRef<[u8]>) -> Self {
        self.metadata.push(field(name, value));
        self
    }

    /// Every string literal Huffman-coded.
    pub fn huffman(mut self) -> Self {
        self.huffman = true;
        self
    }

    /// The request's header fields: the gRPC spec's Request-Headers order (pseudo-headers
    /// first, as RFC 9113 §8.3 wants), then A2A's service parameters, then the rest.
    pub fn request_headers(&self) -> Vec<Field> {
        let mut fields = vec![
            field(":method", "POST"),
            field(":scheme", "http"),
            field(":path", &self.path),
            field(":authority", &self.authority),
            // gRPC spec: "te: trailers" detects proxies that would drop the trailers.
            field("te", "trailers"),
            field("content-type", &self.content_type),
        ];
        if let Some(encoding) = &self.grpc_encoding {
            fields.push(field("grpc-encoding", encoding));
        }
        if let Some(version) = &self.a2a_version {
            fields.push(field("a2a-version", version));
        }
        fields.extend(self.metadata.iter().cloned());
        fields
    }
}

/// How the server's side of a stream stops.
#[derive(Clone, Debug, PartialEq)]
pub enum End {
    /// A HEADERS frame with END_STREAM holding these fields: trailers, or, when the
    /// response has no headers, the whole Trailers-Only response.
    Trailers(Vec<Field>),
    /// The last DATA frame carries END_STREAM (an empty one if there are no messages):
    /// the stream ends without a status.
    DataEndStream,
    /// The server resets the stream with this HTTP/2 error code ([`h2_code`]).
    ServerReset(u32),
    /// The client resets the stream with CANCEL after what the server sent: how a gRPC
    /// client cancels a call.
    ClientCancel,
    /// The server sends GOAWAY (last stream = this one) with this error code, and nothing
    /// more on the stream. Later calls are still written, as a peer that ignores it would.
    GoAway(u32),
    /// Nothing more: the capture ends with the stream open.
    Open,
}

/// The server's answer to a call.
#[derive(Clone, Debug, PartialEq)]
pub struct Response {
    /// The Response-Headers; none for a Trailers-Only response or no answer.
    pub headers: Option<Vec<Field>>,
    /// The response's Length-Prefixed-Messages, each in DATA frames of its own.
    pub messages: Vec<Vec<u8>>,
    pub end: End,
}

/// `:status: 200` and the content type: the start of every gRPC response.
fn response_start() -> Vec<Field> {
    vec![field(":status", "200"), field("content-type", CONTENT_TYPE)]
}

impl Response {
    /// These messages, then `grpc-status: 0`.
    pub fn ok(messages: Vec<Vec<u8>>) -> Self {
        Response::with_status(messages, &GrpcStatus::ok())
    }

    /// One message, then `grpc-status: 0`: a unary call's success.
    pub fn unary<M: prost::Message>(message: &M) -> Self {
        Response::ok(vec![message_frame(message)])
    }

    /// Headers, these messages, then trailers saying `status`: a server stream that ends
    /// with a status, or an error after headers.
    pub fn with_status(messages: Vec<Vec<u8>>, status: &GrpcStatus) -> Self {
        Response {
            headers: Some(response_start()),
            messages,
            end: End::Trailers(status.fields()),
        }
    }

    /// Headers and trailers saying `status`, no message.
    pub fn error(status: &GrpcStatus) -> Self {
        Response::with_status(Vec::new(), status)
    }

    /// Trailers-Only (gRPC spec): one HEADERS frame with END_STREAM holding `:status`,
    /// `content-type` and the status fields.
    pub fn trailers_only(status: &GrpcStatus) -> Self {
        let mut fields = response_start();
        fields.extend(status.fields());
        Response {
            headers: None,
            messages: Vec::new(),
            end: End::Trailers(fields),
        }
    }

    /// No answer at all (with [`End::ClientCancel`], a call the client gave up on).
    pub fn none(end: End) -> Self {
        Response {
            headers: None,
            messages: Vec::new(),
            end,
        }
    }

    /// Ends the stream another way (replacing the trailers).
    pub fn end(mut self, end: End) -> Self {
        self.end = end;
        self
    }

    /// The first block's fields: the headers, or the Trailers-Only block.
    fn first_block(&mut self) -> Option<&mut Vec<Field>> {
        match (&mut self.headers, &mut self.end) {
            (Some(headers), _) => Some(headers),
            (None, End::Trailers(fields)) => Some(fields),
            (None, _) => None,
        }
    }

    /// One more field in the first block (`grpc-encoding`, custom metadata, …); nothing
    /// if the server sends no HEADERS.
    pub fn header(mut self, name: &str, value: impl AsRef<[u8]>) -> Self {
        if let Some(fields) = self.first_block() {
            fields.push(field(name, value));
        }
        self
    }

    /// One more trailer field; nothing if the stream does not end with trailers.
    pub fn trailer(mut self, name: &str, value: impl AsRef<[u8]>) -> Self {
        if let End::Trailers(fields) = &mut self.end {
            fields.push(field(name, value));
        }
        self
    }

    /// The value of `name` in the first block replaced (e.g. `:status` or
    /// `content-type`); a field of that name is added if there is none.
    pub fn set_header(mut self, name: &str, value: impl AsRef<[u8]>) -> Self {
        if let Some(fields) = self.first_block() {
            match fields.iter_mut().find(|(n, _)| n == name) {
                Some(found) => found.1 = value.as_ref().to_vec(),
                None => fields.push(field(name, value)),
            }
        }
        self
    }
}
