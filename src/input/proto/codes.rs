//! The gRPC status codes by number (the `google.rpc.Code` enum that `grpc-status`
//! carries as a decimal integer).

const NAMES: [&str; 17] = [
    "OK",
    "CANCELLED",
    "UNKNOWN",
    "INVALID_ARGUMENT",
    "DEADLINE_EXCEEDED",
    "NOT_FOUND",
    "ALREADY_EXISTS",
    "PERMISSION_DENIED",
    "RESOURCE_EXHAUSTED",
    "FAILED_PRECONDITION",
    "ABORTED",
    "OUT_OF_RANGE",
    "UNIMPLEMENTED",
    "INTERNAL",
    "UNAVAILABLE",
    "DATA_LOSS",
    "UNAUTHENTICATED",
];

/// The name of status code `code`, `None` outside 0..=16.
pub fn code_name(code: i64) -> Option<&'static str> {
    usize::try_from(code)
        .ok()
        .and_then(|i| NAMES.get(i))
        .copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_the_code_numbers() {
        assert_eq!(code_name(0), Some("OK"));
        assert_eq!(code_name(5), Some("NOT_FOUND"));
        assert_eq!(code_name(9), Some("FAILED_PRECONDITION"));
        assert_eq!(code_name(12), Some("UNIMPLEMENTED"));
        assert_eq!(code_name(16), Some("UNAUTHENTICATED"));
        assert_eq!(code_name(17), None);
        assert_eq!(code_name(-1), None);
    }
}
