//! `a2alint inspect`: snapshots of both formats over a capture holding every A2A error.

use std::path::Path;

use a2alint::Profile;
use a2alint::inspect::{Advice, inspect_source, write_json, write_table};

fn rows() -> Vec<a2alint::inspect::Row> {
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
