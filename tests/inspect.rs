//! `a2alint inspect`: snapshots of both formats over a capture holding every A2A error,
//! and over a gRPC capture holding each kind of status.

#[allow(dead_code)]
#[path = "common/grpc/mod.rs"]
mod grpc;
#[allow(dead_code)]
#[path = "common/h2.rs"]
mod h2;
#[allow(dead_code)]
#[path = "common/pcap/mod.rs"]
mod pcap;

use std::path::Path;

use a2alint::Profile;
use a2alint::protocol::inspect::{Advice, inspect_source, write_json, write_table};

fn rows() -> Vec<a2alint::protocol::inspect::Row> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/every-a2a-error.http");
    let bytes = std::fs::read(path).unwrap();
    inspect_source("tests/data/every-a2a-error.http", &bytes, Profile::Spec)
}

#[test]
fn table_snapshot_fits_100_columns() {
    let mut out = Vec::new();
    write_table(&rows(), &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    for line in text.lines() {
        assert!(line.chars().count() <= 100, "too wide: {line}");
    }
    insta::assert_snapshot!(text);
}

#[test]
fn json_snapshot() {
    let mut out = Vec::new();
    write_json(&rows(), &mut out).unwrap();
    insta::assert_snapshot!(String::from_utf8(out).unwrap());
}

#[test]
fn advice_follows_the_error_semantics() {
    let advice: Vec<(Option<String>, Advice)> = rows()
        .into_iter()
        .map(|r| (r.reason.or(r.error), r.advice))
        .collect();
    let of = |reason: &str| {
        advice
            .iter()
            .find(|(r, _)| r.as_deref() == Some(reason))
            .map(|(_, a)| *a)
    };
    assert_eq!(of("TASK_NOT_FOUND"), Some(Advice::Stop));
    assert_eq!(of("TASK_NOT_CANCELABLE"), Some(Advice::StartNewTask));
    assert_eq!(
        of("PUSH_NOTIFICATION_NOT_SUPPORTED"),
        Some(Advice::RereadAgentCard)
    );
    assert_eq!(of("UNSUPPORTED_OPERATION"), Some(Advice::RereadAgentCard));
    assert_eq!(
        of("CONTENT_TYPE_NOT_SUPPORTED"),
        Some(Advice::FixTheRequest)
    );
    assert_eq!(of("VERSION_NOT_SUPPORTED"), Some(Advice::FixTheRequest));
    assert_eq!(of("UNAVAILABLE"), Some(Advice::RetryWithBackoff));
    assert_eq!(of("UNAUTHENTICATED"), Some(Advice::RefreshCredentials));
    let last = advice.last().unwrap();
    assert_eq!(
        last.1,
        Advice::RetryWithBackoff,
        "no response: the connection dropped"
    );
}

#[test]
fn cli_inspect_exits_zero_and_prints_the_matrix() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    assert_cmd::Command::cargo_bin("a2alint")
        .unwrap()
        .current_dir(root)
        .args(["inspect", "tests/data/every-a2a-error.http"])
        .assert()
        .code(0)
        .stdout(predicates::str::contains("ERRORS BY BINDING"));
}

#[test]
fn har_rows_name_entries() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/har/browser-export.har");
    let bytes = std::fs::read(path).unwrap();
    let rows = inspect_source("browser-export.har", &bytes, Profile::Spec);
    let entries: Vec<_> = rows.iter().map(|r| (r.line, r.entry)).collect();
    assert_eq!(entries, [(None, Some(0)), (None, Some(1)), (None, Some(2))]);
    assert_eq!(
        rows[2].advice,
        Advice::RetryWithBackoff,
        "the response was never received"
    );
}

// ---- gRPC (A2A §10): rows read `grpc-status`, the call's outcome ----

#[path = "inspect/support.rs"]
mod support;

use support::{grpc_rows, matrix_line, real_grpc, table_of};

#[test]
fn grpc_table_snapshot_fits_100_columns() {
    let text = table_of(&grpc_rows());
    for line in text.lines() {
        assert!(line.chars().count() <= 100, "too wide: {line}");
    }
    insta::assert_snapshot!(text);
}

#[test]
fn grpc_json_snapshot() {
    let mut out = Vec::new();
    write_json(&grpc_rows(), &mut out).unwrap();
    insta::assert_snapshot!(String::from_utf8(out).unwrap());
}

#[test]
fn grpc_rows_show_the_status_by_name_and_number() {
    let rows = grpc_rows();
    assert!(rows.iter().all(|r| r.binding == "gRPC"), "{rows:?}");
    let first = &rows[0];
    assert_eq!(
        (
            first.operation,
            first.status,
            first.grpc_status,
            first.grpc_status_name
        ),
        (Some("SendMessage"), Some(200), Some(0), Some("OK"))
    );
    assert_eq!(
        (first.error.as_deref(), first.advice),
        (None, Advice::Proceed)
    );
    let table = table_of(&rows);
    let line = |needle: &str| {
        table
            .lines()
            .find(|l| l.contains(needle))
            .unwrap()
            .to_string()
    };
    assert!(line("f").contains("OK (0)"), "{table}");
    assert!(line("TASK_NOT_FOUND").contains("NOT_FOUND (5)"), "{table}");
    assert!(
        line("TASK_NOT_CANCELABLE").contains("FAILED_PRECONDITION (9)"),
        "{table}"
    );
    assert!(
        line("UNAUTHENTICATED").contains("UNAUTHENTICATED (16)"),
        "{table}"
    );
    // A code outside the seventeen has no name: the number alone.
    assert!(line("grpc-status 42").contains("  42  "), "{table}");
}

#[test]
fn grpc_errors_are_named_by_reason_else_by_an_unambiguous_status() {
    let rows = grpc_rows();
    let named: Vec<(Option<&str>, Option<&str>)> = (rows.iter())
        .map(|r| (r.error.as_deref(), r.reason.as_deref()))
        .collect();
    assert_eq!(
        named[1],
        (Some("TaskNotFoundError"), Some("TASK_NOT_FOUND"))
    );
    // NOT_FOUND without ErrorInfo: only TaskNotFoundError maps to it (A2A §5.4).
    assert_eq!(named[2], (Some("TaskNotFoundError"), None));
    assert_eq!(
        named[3],
        (Some("TaskNotCancelableError"), Some("TASK_NOT_CANCELABLE"))
    );
    // FAILED_PRECONDITION is six A2A errors: without a reason it stays a status.
    assert_eq!(named[4], (Some("FAILED_PRECONDITION"), None));
    // A standard reason names the standard error, as JSON-RPC's -32602 does.
    assert_eq!(
        named[5],
        (Some("InvalidParamsError"), Some("INVALID_PARAMS"))
    );
    assert_eq!(named[14], (Some("grpc-status 42"), None));
    assert_eq!(named[15], (Some("UNIMPLEMENTED"), None));
    assert_eq!(named[17], (Some("no grpc-status"), None));
    assert_eq!(rows[17].grpc_status, None);
}

#[test]
fn grpc_advice_follows_the_status_code_semantics() {
    let advice: Vec<(Option<&str>, Advice)> = (grpc_rows().iter())
        .map(|r| (r.grpc_status_name, r.advice))
        .collect();
    let expected = [
        (Some("OK"), Advice::Proceed),
        (Some("NOT_FOUND"), Advice::Stop),
        (Some("NOT_FOUND"), Advice::Stop),
        (Some("FAILED_PRECONDITION"), Advice::StartNewTask),
        (Some("FAILED_PRECONDITION"), Advice::CheckState),
        (Some("INVALID_ARGUMENT"), Advice::FixTheRequest),
        (Some("UNAVAILABLE"), Advice::RetryWithBackoff),
        (Some("RESOURCE_EXHAUSTED"), Advice::RetryWithBackoff),
        (Some("DEADLINE_EXCEEDED"), Advice::CheckThenRetry),
        (Some("UNAUTHENTICATED"), Advice::RefreshCredentials),
        (Some("PERMISSION_DENIED"), Advice::CheckPermissions),
        (Some("CANCELLED"), Advice::Cancelled),
        (Some("ABORTED"), Advice::RetrySequence),
        (Some("DATA_LOSS"), Advice::ReportToOperator),
        // An unknown code is UNKNOWN to a gRPC client: transient.
        (None, Advice::RetryWithBackoff),
        (Some("UNIMPLEMENTED"), Advice::FixTheRequest),
        (Some("OK"), Advice::Proceed),
        // The stream ended without trailers: the call never finished.
        (None, Advice::RetryWithBackoff),
    ];
    assert_eq!(advice, expected);
}

#[test]
fn grpc_rows_carry_retry_info_where_http_rows_carry_retry_after() {
    let grpc = grpc_rows();
    let delays: Vec<_> = (grpc.iter())
        .filter_map(|r| r.retry_delay.as_deref().map(|d| (r.grpc_status_name, d)))
        .collect();
    assert_eq!(
        delays,
        [
            (Some("UNAVAILABLE"), "30s"),
            (Some("RESOURCE_EXHAUSTED"), "1.5s")
        ]
    );
    assert!(grpc.iter().all(|r| r.retry_after.is_none()));
    let table = table_of(&grpc);
    assert!(
        table.contains("-> retry with backoff, honouring RetryInfo (retryDelay: 1.5s)"),
        "{table}"
    );
    // HTTP rows keep their words and their header.
    assert!(table_of(&rows()).contains("honouring Retry-After (Retry-After: 30)"));
}

#[test]
fn grpc_json_adds_keys_and_keeps_the_old_ones() {
    let mut out = Vec::new();
    write_json(&grpc_rows(), &mut out).unwrap();
    let document: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let exchanges = document["exchanges"].as_array().unwrap();
    let not_found = &exchanges[1];
    assert_eq!(not_found["binding"], "gRPC");
    assert_eq!(not_found["status"], 200);
    assert_eq!(not_found["grpc_status"], 5);
    assert_eq!(not_found["grpc_status_name"], "NOT_FOUND");
    assert_eq!(not_found["error"], "TaskNotFoundError");
    assert_eq!(not_found["advice"], "stop");
    assert_eq!(exchanges[7]["retry_delay"], "1.5s");
    assert_eq!(exchanges[0]["grpc_status_name"], "OK");
    assert_eq!(
        document["errors_by_binding"]["TaskNotFoundError"]["gRPC"],
        2
    );
    // Every key an HTTP row had is there too; HTTP rows gain none.
    let old = [
        "path",
        "line",
        "entry",
        "binding",
        "operation",
        "status",
        "error",
        "reason",
    ];
    for key in old.iter().chain(&["retry_after", "advice"]) {
        assert!(exchanges.iter().all(|e| e.get(key).is_some()), "{key}");
    }
    let mut out = Vec::new();
    write_json(&rows(), &mut out).unwrap();
    let http = String::from_utf8(out).unwrap();
    assert!(!http.contains("grpc_status") && !http.contains("retry_delay"));
}

#[test]
fn the_matrix_counts_grpc_in_its_own_column() {
    let mut rows = rows();
    rows.extend(grpc_rows());
    let table = table_of(&rows);
    assert!(
        table
            .contains("ERRORS BY BINDING                         JSON-RPC  HTTP+JSON  gRPC  OTHER"),
        "{table}"
    );
    // The same A2A error lands on one line whatever the binding.
    assert_eq!(
        matrix_line(&table, "TaskNotFoundError"),
        Some(vec![1, 1, 2, 0])
    );
    assert_eq!(
        matrix_line(&table, "TaskNotCancelableError"),
        Some(vec![1, 1, 1, 0])
    );
    assert_eq!(
        matrix_line(&table, "InvalidParamsError"),
        Some(vec![1, 0, 1, 0])
    );
    assert_eq!(matrix_line(&table, "UNAVAILABLE"), Some(vec![0, 1, 1, 0]));
    assert_eq!(
        matrix_line(&table, "no grpc-status"),
        Some(vec![0, 0, 1, 0])
    );
}

#[test]
fn real_grpc_captures_read_as_grpc() {
    let rows = real_grpc("grpc.pcap");
    assert!(
        rows.iter()
            .all(|r| r.binding == "gRPC" && r.grpc_status.is_some())
    );
    let ok = rows.iter().filter(|r| r.grpc_status_name == Some("OK"));
    assert!(ok.clone().count() > 0 && ok.clone().all(|r| r.advice == Advice::Proceed));
    let table = table_of(&rows);
    assert_eq!(
        matrix_line(&table, "TaskNotFoundError"),
        Some(vec![0, 0, 2, 0])
    );
    assert_eq!(
        matrix_line(&table, "InvalidParamsError"),
        Some(vec![0, 0, 4, 0])
    );
    assert_eq!(
        matrix_line(&table, "TaskNotCancelableError"),
        Some(vec![0, 0, 1, 0])
    );
    for line in table.lines() {
        assert!(line.chars().count() <= 100, "too wide: {line}");
    }
    let unknown = real_grpc("get-task-unknown.pcap");
    assert_eq!(
        (unknown[0].grpc_status_name, unknown[0].advice),
        (Some("NOT_FOUND"), Advice::Stop)
    );
    let stream = real_grpc("stream-error.pcap");
    assert_eq!(
        (stream[0].grpc_status_name, stream[0].advice),
        (Some("UNKNOWN"), Advice::RetryWithBackoff)
    );
}

#[test]
fn cli_inspect_reads_a_grpc_pcap() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    assert_cmd::Command::cargo_bin("a2alint")
        .unwrap()
        .current_dir(root)
        .args([
            "inspect",
            "samples/real/a2a-python/grpc/get-task-unknown.pcap",
        ])
        .assert()
        .code(0)
        .stdout(predicates::str::contains("gRPC      GetTask"))
        .stdout(predicates::str::contains("NOT_FOUND (5)  TASK_NOT_FOUND"));
}

#[test]
fn a_call_cancelled_at_the_clients_deadline_is_checked_before_a_resend() {
    // a2a-go v2.4.0 (grpc-go) resets a call past its `grpc-timeout` with CANCEL.
    let path = "samples/real/a2a-go/grpc/deadline.pcap";
    let bytes = std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap();
    let rows = inspect_source(path, &bytes, Profile::Spec);
    let [row] = &rows[..] else { panic!("{rows:?}") };
    assert_eq!((row.binding, row.advice), ("gRPC", Advice::CheckThenRetry));
}
