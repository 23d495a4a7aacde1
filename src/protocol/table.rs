//! The A2A error table (`rules/error-table.toml`), embedded and parsed once, with typed
//! look-ups by reason, JSON-RPC code and status for the profile in force.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use serde::Deserialize;

use crate::protocol::profile::Profile;

/// One A2A-specific error (A2A §3.3.2, §5.4).
#[derive(Debug, Deserialize)]
pub struct A2aError {
    pub name: String,
    pub reason: String,
    pub jsonrpc: i64,
    http: u16,
    http_1_0_0: u16,
    grpc: String,
    grpc_1_0_0: String,
    pub texts: Vec<String>,
}

impl A2aError {
    /// The HTTP+JSON status under `profile`.
    pub fn http(&self, profile: Profile) -> u16 {
        if profile.uses_v1_0_0_table() {
            self.http_1_0_0
        } else {
            self.http
        }
    }

    /// The HTTP status under the table `profile` does not use.
    pub fn other_http(&self, profile: Profile) -> u16 {
        if profile.uses_v1_0_0_table() {
            self.http
        } else {
            self.http_1_0_0
        }
    }

    /// The gRPC status name under `profile`.
    pub fn grpc(&self, profile: Profile) -> &str {
        if profile.uses_v1_0_0_table() {
            &self.grpc_1_0_0
        } else {
            &self.grpc
        }
    }

    pub fn other_grpc(&self, profile: Profile) -> &str {
        if profile.uses_v1_0_0_table() {
            &self.grpc
        } else {
            &self.grpc_1_0_0
        }
    }
}

/// One of the five standard JSON-RPC errors (A2A §9.5).
#[derive(Debug, Deserialize)]
pub struct StandardError {
    pub name: String,
    pub reason: String,
    pub jsonrpc: i64,
    /// The standard message text (A2A §9.5).
    pub message: String,
    /// JSON-RPC 2.0's own text for the code (JSON-RPC 2.0 §5.1).
    pub jsonrpc_message: String,
}

#[derive(Debug, Deserialize)]
struct Other {
    reasons: Vec<String>,
}

/// The whole table.
#[derive(Debug, Deserialize)]
pub struct ErrorTable {
    pub domain: String,
    pub a2a: Vec<A2aError>,
    pub standard: Vec<StandardError>,
    other: Other,
    grpc_http: BTreeMap<String, u16>,
}

static TABLE: LazyLock<ErrorTable> = LazyLock::new(|| {
    toml::from_str(include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/rules/error-table.toml"
    )))
    .expect("rules/error-table.toml is valid (checked by its unit test)")
});

/// The table, parsed on first use.
pub fn table() -> &'static ErrorTable {
    &TABLE
}

/// What an ErrorInfo reason or a JSON-RPC code names.
#[derive(Clone, Copy, Debug)]
pub enum Known {
    A2a(&'static A2aError),
    Standard(&'static StandardError),
}

impl Known {
    pub fn reason(self) -> &'static str {
        match self {
            Known::A2a(e) => &e.reason,
            Known::Standard(e) => &e.reason,
        }
    }

    pub fn jsonrpc(self) -> i64 {
        match self {
            Known::A2a(e) => e.jsonrpc,
            Known::Standard(e) => e.jsonrpc,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Known::A2a(e) => &e.name,
            Known::Standard(e) => &e.name,
        }
    }

    pub fn same_as(self, other: Known) -> bool {
        self.jsonrpc() == other.jsonrpc()
    }
}

impl ErrorTable {
    pub fn by_reason(&'static self, reason: &str) -> Option<Known> {
        self.a2a
            .iter()
            .find(|e| e.reason == reason)
            .map(Known::A2a)
            .or_else(|| {
                self.standard
                    .iter()
                    .find(|e| e.reason == reason)
                    .map(Known::Standard)
            })
    }

    pub fn by_code(&'static self, code: i64) -> Option<Known> {
        self.a2a
            .iter()
            .find(|e| e.jsonrpc == code)
            .map(Known::A2a)
            .or_else(|| {
                self.standard
                    .iter()
                    .find(|e| e.jsonrpc == code)
                    .map(Known::Standard)
            })
    }

    pub fn a2a_by_reason(&self, reason: &str) -> Option<&A2aError> {
        self.a2a.iter().find(|e| e.reason == reason)
    }

    /// Every reason an ErrorInfo with domain `a2a-protocol.org` may carry: the nine A2A
    /// reasons, the standard ones, and the auth ones SDKs use.
    pub fn known_reasons(&self) -> impl Iterator<Item = &str> {
        self.a2a
            .iter()
            .map(|e| e.reason.as_str())
            .chain(self.standard.iter().map(|e| e.reason.as_str()))
            .chain(self.other.reasons.iter().map(String::as_str))
    }

    /// The canonical HTTP status of a google.rpc.Code name.
    pub fn grpc_http(&self, grpc: &str) -> Option<u16> {
        self.grpc_http.get(grpc).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The facts of the reference notes on the spec (§5.4 of v1.0.1 and v1.0.0), restated
    /// independently of the data file: (reason, code, http 1.0.1, grpc 1.0.1, http 1.0.0, grpc 1.0.0).
    const SPEC: &[(&str, i64, u16, &str, u16, &str)] = &[
        ("TASK_NOT_FOUND", -32001, 404, "NOT_FOUND", 404, "NOT_FOUND"),
        (
            "TASK_NOT_CANCELABLE",
            -32002,
            400,
            "FAILED_PRECONDITION",
            409,
            "FAILED_PRECONDITION",
        ),
        (
            "PUSH_NOTIFICATION_NOT_SUPPORTED",
            -32003,
            400,
            "FAILED_PRECONDITION",
            400,
            "UNIMPLEMENTED",
        ),
        (
            "UNSUPPORTED_OPERATION",
            -32004,
            400,
            "FAILED_PRECONDITION",
            400,
            "UNIMPLEMENTED",
        ),
        (
            "CONTENT_TYPE_NOT_SUPPORTED",
            -32005,
            400,
            "INVALID_ARGUMENT",
            415,
            "INVALID_ARGUMENT",
        ),
        (
            "INVALID_AGENT_RESPONSE",
            -32006,
            500,
            "INTERNAL",
            502,
            "INTERNAL",
        ),
        (
            "EXTENDED_AGENT_CARD_NOT_CONFIGURED",
            -32007,
            400,
            "FAILED_PRECONDITION",
            400,
            "FAILED_PRECONDITION",
        ),
        (
            "EXTENSION_SUPPORT_REQUIRED",
            -32008,
            400,
            "FAILED_PRECONDITION",
            400,
            "FAILED_PRECONDITION",
        ),
        (
            "VERSION_NOT_SUPPORTED",
            -32009,
            400,
            "FAILED_PRECONDITION",
            400,
            "UNIMPLEMENTED",
        ),
    ];

    #[test]
    fn a2a_rows_match_the_spec() {
        let table = table();
        assert_eq!(table.domain, "a2a-protocol.org");
        assert_eq!(table.a2a.len(), SPEC.len());
        for (row, &(reason, code, http, grpc, http0, grpc0)) in table.a2a.iter().zip(SPEC) {
            assert_eq!((row.reason.as_str(), row.jsonrpc), (reason, code));
            assert_eq!(
                (row.http(Profile::Spec), row.grpc(Profile::Spec)),
                (http, grpc),
                "{reason}"
            );
            assert_eq!(
                (row.http(Profile::Spec100), row.grpc(Profile::Spec100)),
                (http0, grpc0),
                "{reason}"
            );
            // The test kit checks the v1.0.0 table in both columns (HTTP and gRPC).
            assert_eq!(
                (row.http(Profile::Tck), row.grpc(Profile::Tck)),
                (http0, grpc0),
                "{reason}"
            );
            // Each value of the other table is named as such in messages.
            assert_eq!(row.other_grpc(Profile::Spec), grpc0, "{reason}");
            assert_eq!(row.other_grpc(Profile::Spec100), grpc, "{reason}");
            // v1.0.1 statuses are exactly the canonical mapping of their gRPC code (PR #1627).
            assert_eq!(
                table.grpc_http(row.grpc(Profile::Spec)),
                Some(http),
                "{reason}"
            );
            assert!(!row.texts.is_empty());
        }
    }

    #[test]
    fn standard_rows_match_section_9_5() {
        let expected = [
            (-32700, "Invalid JSON payload"),
            (-32600, "Request payload validation error"),
            (-32601, "Method not found"),
            (-32602, "Invalid parameters"),
            (-32603, "Internal error"),
        ];
        let rows: Vec<(i64, &str)> = table()
            .standard
            .iter()
            .map(|s| (s.jsonrpc, s.message.as_str()))
            .collect();
        assert_eq!(rows, expected);
    }

    #[test]
    fn look_ups() {
        let table = table();
        assert_eq!(
            table.by_reason("TASK_NOT_CANCELABLE").unwrap().jsonrpc(),
            -32002
        );
        assert_eq!(table.by_code(-32602).unwrap().reason(), "INVALID_PARAMS");
        assert!(table.by_code(-32010).is_none());
        assert_eq!(table.grpc_http("UNAUTHENTICATED"), Some(401));
        assert_eq!(table.known_reasons().count(), 16);
    }
}
