//! Hostile input: size limits, header limits, deep JSON, compression bombs, invalid UTF-8
//! and non-UTF-8 paths give clear findings or errors, never a crash.

use std::fs;
use std::io::Write;

use a2alint::{Options, lint_source};
use assert_cmd::Command;
use predicates::prelude::*;

fn rules_fired(bytes: &[u8]) -> Vec<(String, String)> {
    lint_source("x.http", bytes, &Options::default())
        .diagnostics
        .into_iter()
        .map(|d| (d.rule.slug().to_string(), d.message))
        .collect()
}

#[test]
fn files_over_max_file_size_are_skipped_with_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let big = format!(
        "GET /tasks/t HTTP/1.1\nA2A-Version: 1.0\nX-Pad: {}\n\n",
        "a".repeat(4096)
    );
    fs::write(dir.path().join("big.http"), big).unwrap();
    fs::write(
        dir.path().join("small.http"),
        "GET /tasks/t HTTP/1.1\nA2A-Version: 1.0\n\n",
    )
    .unwrap();
    Command::cargo_bin("a2alint")
        .unwrap()
        .current_dir(dir.path())
        .args(["check", "--format", "concise", "--max-file-size", "1K", "."])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "big.http: larger than --max-file-size",
        ))
        .stdout(predicate::str::contains(
            "small.http:1:1: warning[unpaired-message]",
        ));
}

#[test]
fn too_many_headers_and_endless_heads_are_syntax_findings() {
    let many: String = (0..5000).map(|i| format!("X-H{i}: v\n")).collect();
    let capture = format!("GET /tasks/t HTTP/1.1\n{many}\n");
    let fired = rules_fired(capture.as_bytes());
    assert!(
        fired
            .iter()
            .any(|(r, m)| r == "capture-syntax" && m.contains("more than 4096 header lines")),
        "{fired:?}"
    );

    let endless = format!("GET /tasks/t HTTP/1.1\nX-Long: {}\n", "a".repeat(2 << 20));
    let fired = rules_fired(endless.as_bytes());
    assert!(
        fired
            .iter()
            .any(|(r, m)| r == "capture-syntax" && m.contains("longer than")),
        "{fired:?}"
    );
}

#[test]
fn deeply_nested_json_is_reported_not_overflowed() {
    for depth in [200, 100_000] {
        let body = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        let capture = format!(
            "GET /tasks/t HTTP/1.1\nA2A-Version: 1.0\n\nHTTP/1.1 200 OK\nContent-Type: application/json\n\n{body}\n"
        );
        let fired = rules_fired(capture.as_bytes());
        assert!(
            fired
                .iter()
                .any(|(r, m)| r == "body-not-json" && m.contains("recursion limit")),
            "{depth}: {fired:?}"
        );
    }
}

#[test]
fn a_gzip_bomb_is_stopped() {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    let zeros = vec![0u8; 1 << 20];
    for _ in 0..(a2alint::input::capture::MAX_DECODED_BYTES >> 20) + 1 {
        encoder.write_all(&zeros).unwrap();
    }
    let bomb = encoder.finish().unwrap();
    let mut capture = format!(
        "GET /tasks/t HTTP/1.1\nA2A-Version: 1.0\n\nHTTP/1.1 200 OK\nContent-Type: application/json\nContent-Encoding: gzip\nContent-Length: {}\n\n",
        bomb.len()
    )
    .into_bytes();
    capture.extend_from_slice(&bomb);
    let fired = rules_fired(&capture);
    assert!(
        fired
            .iter()
            .any(|(r, m)| r == "undecodable-body" && m.contains("larger than 256 MiB")),
        "{fired:?}"
    );
}

#[test]
fn invalid_utf8_in_heads_and_bodies() {
    let capture = b"GET /tasks/\xff HTTP/1.1\nA2A-Version: 1.0\nX-Bin: \xfe\xfd\n\nHTTP/1.1 200 \xc3\x28\nContent-Type: application/json\n\n{\"id\": \"\xff\"}\n";
    let report = lint_source("x.http", capture, &Options::default());
    assert!(
        report
            .diagnostics
            .iter()
            .any(|d| d.rule.slug() == "body-not-json")
    );
    let mut out = Vec::new();
    let context = a2alint::output::report::Context::default();
    for format in [
        a2alint::output::report::Format::Human,
        a2alint::output::report::Format::Json,
        a2alint::output::report::Format::Sarif,
    ] {
        a2alint::output::report::write(format, std::slice::from_ref(&report), &context, &mut out)
            .unwrap();
    }
    assert!(
        String::from_utf8(out).is_ok(),
        "every format writes valid UTF-8"
    );
}

#[cfg(unix)]
#[test]
fn non_utf8_paths_are_linted_and_shown_lossily() {
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().unwrap();
    let name = std::ffi::OsStr::from_bytes(b"caf\xe9.http");
    fs::write(
        dir.path().join(name),
        "GET /tasks/t HTTP/1.1\nA2A-Version: 1.0\n\n",
    )
    .unwrap();
    Command::cargo_bin("a2alint")
        .unwrap()
        .current_dir(dir.path())
        .args(["check", "--format", "concise", "-q", "."])
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "caf\u{fffd}.http:1:1: warning[unpaired-message]",
        ));
}

#[test]
fn very_long_streams_are_checked_up_to_the_event_limit() {
    let limit = a2alint::protocol::classify::MAX_STREAM_EVENTS;
    let event = "data: {\"statusUpdate\":{\"taskId\":\"t\",\"contextId\":\"c\",\"status\":{\"state\":\"TASK_STATE_WORKING\"}}}\n\n";
    let mut capture = String::from(
        "POST /message:stream HTTP/1.1\nContent-Type: application/a2a+json\nA2A-Version: 1.0\n\n{\"message\":{\"messageId\":\"m\",\"role\":\"ROLE_USER\",\"parts\":[{\"text\":\"hi\"}]}}\nHTTP/1.1 200 OK\nContent-Type: text/event-stream\n\n",
    );
    capture.push_str(&event.repeat(limit + 10));
    let fired = rules_fired(capture.as_bytes());
    assert!(
        fired
            .iter()
            .any(|(r, m)| r == "stream-event-shape" && m.contains("more than 100000 events")),
        "{:?}",
        &fired[..fired.len().min(3)]
    );
}
