//! What a row calls an error, the A2A error behind it, and the retry delay its details ask for.

use serde_json::Value;

use crate::protocol::classify::{ErrorForm, ErrorView};
use crate::protocol::profile::Profile;
use crate::protocol::table::{A2aError, table};

/// An error's name in a row, and the A2A error it stands for (which the advice follows).
pub struct Named {
    pub name: String,
    pub a2a: Option<&'static A2aError>,
}

/// Status codes the standard errors share with A2A ones, so that they say nothing on
/// their own: a bad request (parse error, invalid request or params) is
/// INVALID_ARGUMENT, an internal error is INTERNAL, and a gRPC server answers a method it
/// does not serve with UNIMPLEMENTED (gRPC status codes: "Method not found at server").
const SHARED_WITH_STANDARD_ERRORS: [&str; 3] = ["INVALID_ARGUMENT", "INTERNAL", "UNIMPLEMENTED"];

/// The error's name, the same way on every binding:
/// 1. the A2A error its JSON-RPC code or ErrorInfo reason names (A2A §5.4);
/// 2. the standard error its JSON-RPC code or ErrorInfo reason names (A2A §9.5);
/// 3. with no ErrorInfo reason at all, the A2A error its status stands for, when exactly
///    one row of the profile's table has that status (NOT_FOUND is TaskNotFoundError in
///    both tables; FAILED_PRECONDITION is six errors in v1.0.1 and three in v1.0.0);
/// 4. the status name (`error.status` over HTTP+JSON, the name of `grpc-status` over
///    gRPC, A2A §10.6, §11.6);
/// 5. over gRPC, a `grpc-status` that is no code name, as it is.
///
/// The caller falls back to the HTTP status class.
pub fn name_of(error: &ErrorView<'_>, profile: Profile) -> Option<Named> {
    if let Some(a2a) = error.a2a_error() {
        return Some(named(&a2a.name, Some(a2a)));
    }
    let by_code = match error.form {
        ErrorForm::JsonRpc => error.code().and_then(|c| table().by_code(c)),
        // An HTTP+JSON `error.code` is the HTTP status, a gRPC one the status code.
        ErrorForm::Status | ErrorForm::Grpc => None,
    };
    let reason = error.reason();
    if let Some(known) = by_code.or_else(|| reason.and_then(|r| table().by_reason(r))) {
        return Some(named(known.name(), None));
    }
    let status = error.status();
    if error.form != ErrorForm::JsonRpc && reason.is_none() {
        if let Some(a2a) = status.and_then(|s| a2a_by_status(s, profile)) {
            return Some(named(&a2a.name, Some(a2a)));
        }
    }
    if let Some(status) = status {
        return Some(named(status, None));
    }
    match (error.form, error.code()) {
        (ErrorForm::Grpc, Some(code)) => Some(named(&format!("grpc-status {code}"), None)),
        (ErrorForm::Grpc, None) => Some(named("invalid grpc-status", None)),
        _ => None,
    }
}

fn named(name: &str, a2a: Option<&'static A2aError>) -> Named {
    Named {
        name: name.to_string(),
        a2a,
    }
}

/// The A2A error that a status code name means by itself under `profile`: the one row of
/// the profile's table mapping to it, when it is one and no standard error uses the code.
pub fn a2a_by_status(status: &str, profile: Profile) -> Option<&'static A2aError> {
    if SHARED_WITH_STANDARD_ERRORS.contains(&status) {
        return None;
    }
    let mut rows = table().a2a.iter().filter(|e| e.grpc(profile) == status);
    let only = rows.next()?;
    rows.next().is_none().then_some(only)
}

/// `retryDelay` of the first `google.rpc.RetryInfo` in the error's details: how long the
/// server asks the client to wait before retrying (google/rpc/error_details.proto). It
/// is a Duration in proto3 JSON (`"1.5s"`), however the details travelled (decoded from
/// `grpc-status-details-bin` over gRPC, A2A §10.6; JSON over HTTP+JSON and JSON-RPC).
pub fn retry_delay(error: &ErrorView<'_>) -> Option<String> {
    error
        .details
        .iter()
        .filter(|d| {
            d.type_url
                .is_some_and(|t| t.rsplit('/').next() == Some("google.rpc.RetryInfo"))
        })
        .find_map(|d| d.value.get("retryDelay").and_then(Value::as_str))
        .map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_not_found_stands_for_one_a2a_error() {
        for profile in [Profile::Spec, Profile::Spec100, Profile::Tck] {
            let a2a = a2a_by_status("NOT_FOUND", profile).map(|e| e.reason.as_str());
            assert_eq!(a2a, Some("TASK_NOT_FOUND"), "{profile:?}");
            for shared in [
                "FAILED_PRECONDITION",
                "INVALID_ARGUMENT",
                "INTERNAL",
                "UNIMPLEMENTED",
                "UNAVAILABLE",
            ] {
                assert!(a2a_by_status(shared, profile).is_none(), "{shared}");
            }
        }
    }
}
