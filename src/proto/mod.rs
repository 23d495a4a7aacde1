//! Protobuf knowledge shared by the reader and classification: the A2A v1.0 service
//! (`lf.a2a.v1.A2AService`, A2A §10) and `google.rpc.Status` with its details, each
//! message decoded into the proto3 JSON people read and rules match on.

mod a2a;
mod codes;
mod status;

pub use a2a::{GrpcMethod, Rpc, grpc_method};
pub use codes::code_name;
pub use status::decode_status;

/// The largest protobuf message decoded: gRPC's default receive limit is 4 MiB; a
/// capture may hold more, but past this size a message is reported, not decoded.
pub const MAX_MESSAGE_BYTES: usize = 16 << 20;

/// Why a message could not be read as its type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeFailure {
    /// The protobuf type it was read as (`lf.a2a.v1.SendMessageRequest`).
    pub type_name: &'static str,
    pub reason: String,
}

/// Decodes `bytes` as the prost type `T` and writes it as proto3 JSON (camelCase names,
/// enums by name, default values left out, as the canonical JSON mapping does).
fn decode_as<T>(type_name: &'static str, bytes: &[u8]) -> Result<serde_json::Value, DecodeFailure>
where
    T: prost::Message + Default + serde::Serialize,
{
    let failure = |reason: String| DecodeFailure { type_name, reason };
    if bytes.len() > MAX_MESSAGE_BYTES {
        return Err(failure(format!(
            "the message is {} bytes, past the {} MiB a2alint decodes",
            bytes.len(),
            MAX_MESSAGE_BYTES >> 20
        )));
    }
    // prost bounds nesting depth (100 levels) and checks every length against the
    // bytes left, so hostile input fails here rather than exhausting the stack.
    let message = T::decode(bytes).map_err(|e| failure(e.to_string()))?;
    serde_json::to_value(&message).map_err(|e| failure(e.to_string()))
}
