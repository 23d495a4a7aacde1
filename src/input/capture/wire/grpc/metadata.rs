//! gRPC metadata on HTTP/2 fields: which content types are gRPC, `-bin` values (base64,
//! padded or not, or raw after a 0x00 byte when both peers allow true binary), and the
//! percent-encoding of `grpc-message`.

use base64::Engine;
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};

/// Is `content_type` gRPC's, `application/grpc` or `application/grpc+<format>`? gRPC-Web
/// (`application/grpc-web`) is another protocol.
pub fn is_grpc(content_type: &[u8]) -> bool {
    let value = String::from_utf8_lossy(content_type).to_ascii_lowercase();
    let essence = value.split(';').next().unwrap_or("").trim();
    essence == "application/grpc" || essence.starts_with("application/grpc+")
}

/// gRPC senders may leave base64 padding out and receivers must accept both.
const LENIENT: GeneralPurpose = GeneralPurpose::new(
    &base64::alphabet::STANDARD,
    GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent),
);

/// The bytes of a `-bin` value: raw after a leading 0x00 when `true_binary` (both peers
/// sent setting 0xfe03), else base64.
pub fn decode_bin(value: &[u8], true_binary: bool) -> Result<Vec<u8>, String> {
    if true_binary && value.first() == Some(&0) {
        return Ok(value[1..].to_vec());
    }
    let trimmed = value.trim_ascii();
    LENIENT
        .decode(trimmed)
        .map_err(|e| format!("the value is not base64 ({e})"))
}

/// `grpc-message` with its `%XX` escapes undone and read as UTF-8; a `%` not followed by
/// two hex digits stays as it is, as gRPC receivers do.
pub fn percent_decode(value: &[u8]) -> String {
    let mut out = Vec::with_capacity(value.len());
    let mut i = 0;
    while i < value.len() {
        let hex = value.get(i + 1..i + 3).and_then(|h| {
            std::str::from_utf8(h)
                .ok()
                .and_then(|h| u8::from_str_radix(h, 16).ok())
        });
        match (value[i], hex) {
            (b'%', Some(byte)) => {
                out.push(byte);
                i += 3;
            }
            (byte, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grpc_content_types_and_not_grpc_web() {
        assert!(is_grpc(b"application/grpc"));
        assert!(is_grpc(b"Application/GRPC+proto; charset=x"));
        assert!(!is_grpc(b"application/grpc-web"));
        assert!(!is_grpc(b"application/json"));
    }

    #[test]
    fn bin_values_decode_padded_unpadded_and_true_binary() {
        assert_eq!(decode_bin(b"aGk=", false).unwrap(), b"hi");
        assert_eq!(decode_bin(b"aGk", false).unwrap(), b"hi");
        assert_eq!(decode_bin(b"\x00\x01\x02", true).unwrap(), [1, 2]);
        assert!(decode_bin(b"\x00\x01", false).is_err());
        assert!(decode_bin(b"not base64!", false).is_err());
    }

    #[test]
    fn grpc_message_escapes_undo_and_stray_percents_stay() {
        assert_eq!(percent_decode(b"task%20not%20found"), "task not found");
        assert_eq!(percent_decode(b"caf%C3%A9"), "café");
        assert_eq!(percent_decode(b"100% sure%2"), "100% sure%2");
    }
}
