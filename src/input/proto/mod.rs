//! Protobuf knowledge shared by the reader and classification: the A2A v1.0 service
//! (`lf.a2a.v1.A2AService`, A2A §10) and `google.rpc.Status` with its details, each
//! message decoded into the proto3 JSON people read and rules match on.

mod a2a;
mod codes;
mod status;

pub use a2a::{GrpcMethod, Rpc, grpc_method};
pub use codes::code_name;
pub use status::decode_status;

/// The largest protobuf message decoded: gRPC's own default receive limit (4 MiB). A
/// capture may hold more, but past this size a message is reported, not decoded.
pub const MAX_MESSAGE_BYTES: usize = 4 << 20;

/// The most fields, nested ones counted, a message may hold to be decoded. Each decoded
/// field costs a struct of tens to hundreds of bytes, so 2-byte empty entries of a
/// repeated field (a gzip message can hold millions) would take a hundred times their
/// size in memory; real A2A messages hold a few thousand at most.
pub const MAX_MESSAGE_FIELDS: usize = 100_000;

/// Nesting levels [`field_count`] looks into: deeper payloads are counted as one field.
const COUNT_DEPTH: usize = 12;

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
    if field_count(bytes, COUNT_DEPTH) > MAX_MESSAGE_FIELDS {
        return Err(failure(format!(
            "the message holds more than {MAX_MESSAGE_FIELDS} fields; a2alint decodes no more"
        )));
    }
    // prost bounds nesting depth (100 levels) and checks every length against the
    // bytes left, so hostile input fails here rather than exhausting the stack.
    let message = T::decode(bytes).map_err(|e| failure(e.to_string()))?;
    serde_json::to_value(&message).map_err(|e| failure(e.to_string()))
}

/// How many fields `bytes` holds, read as protobuf wire format without a schema: every
/// tag counts, and a length-delimited payload that reads as a whole message is counted
/// into (up to `depth` levels), as it may be one. Stops early past the limit; bytes that
/// are not wire format end the count there (prost then says what is wrong).
fn field_count(bytes: &[u8], depth: usize) -> usize {
    let mut count = 0;
    let mut at = 0;
    while at < bytes.len() && count <= MAX_MESSAGE_FIELDS {
        let Some((key, next)) = varint(bytes, at) else {
            break;
        };
        at = next;
        count += 1;
        let skip = match key & 7 {
            0 => varint(bytes, at).map(|(_, n)| n - at),
            1 => Some(8),
            5 => Some(4),
            2 => varint(bytes, at).and_then(|(len, n)| {
                let len = usize::try_from(len).ok()?;
                let payload = bytes.get(n..n.checked_add(len)?)?;
                if depth > 0 && whole_message(payload) {
                    count += field_count(payload, depth - 1);
                }
                Some(n - at + len)
            }),
            // Group markers are fields of their own; the fields inside come next.
            3 | 4 => Some(0),
            _ => None,
        };
        match skip {
            Some(skip) => at += skip,
            None => break,
        }
    }
    count
}

/// Does `bytes` read as a run of whole fields (so it may be a nested message)?
fn whole_message(bytes: &[u8]) -> bool {
    let mut at = 0;
    while at < bytes.len() {
        let Some((key, next)) = varint(bytes, at) else {
            return false;
        };
        let end = match key & 7 {
            0 => varint(bytes, next).map(|(_, n)| n),
            1 => next.checked_add(8),
            5 => next.checked_add(4),
            2 => varint(bytes, next).and_then(|(len, n)| n.checked_add(usize::try_from(len).ok()?)),
            3 | 4 => Some(next),
            _ => None,
        };
        match end.filter(|&end| end <= bytes.len() && key >> 3 != 0) {
            Some(end) => at = end,
            None => return false,
        }
    }
    true
}

/// A base-128 varint at `at`: its value and where the next byte is.
fn varint(bytes: &[u8], at: usize) -> Option<(u64, usize)> {
    let mut value = 0u64;
    for (i, &byte) in bytes.get(at..)?.iter().take(10).enumerate() {
        value |= u64::from(byte & 0x7f) << (7 * i);
        if byte & 0x80 == 0 {
            return Some((value, at + i + 1));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_counted_through_nested_messages() {
        // Field 1 = 5; field 2 = a message holding field 1 = 1 twice; field 3 = "ab".
        let bytes = [0x08, 5, 0x12, 4, 0x08, 1, 0x08, 1, 0x1a, 2, b'a', b'b'];
        // 3 top-level fields, 2 inside field 2; "ab" is not a whole message (field 12,
        // wire type 1, needs 8 bytes), so it counts as one.
        assert_eq!(field_count(&bytes, COUNT_DEPTH), 5);
        assert_eq!(field_count(&bytes, 0), 3);
    }

    #[test]
    fn millions_of_empty_entries_are_refused_before_decoding() {
        // A Task whose `history` (field 4) holds 200,000 empty messages.
        let bytes: Vec<u8> = std::iter::repeat_n([0x22, 0x00], 200_000)
            .flatten()
            .collect();
        assert!(field_count(&bytes, COUNT_DEPTH) > MAX_MESSAGE_FIELDS);
        let failure = decode_as::<a2a_pb::protojson::Task>("lf.a2a.v1.Task", &bytes).unwrap_err();
        assert!(
            failure.reason.contains("more than 100000 fields"),
            "{failure:?}"
        );
    }
}
