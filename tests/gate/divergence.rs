//! Run-level findings across files, and output that is the same at any thread count.

use assert_cmd::Command;
use predicates::prelude::*;
use predicates::str::contains;

use super::*;

#[test]
fn binding_divergence_compares_files_of_one_run() {
    let rpc = "POST /a2a HTTP/1.1\nContent-Type: application/json\nA2A-Version: 1.0\n\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"GetTask\",\"params\":{\"id\":\"t-9\"}}\nHTTP/1.1 200 OK\nContent-Type: application/json\n\n{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32001,\"message\":\"Task not found\",\"data\":[{\"@type\":\"type.googleapis.com/google.rpc.ErrorInfo\",\"reason\":\"TASK_NOT_FOUND\",\"domain\":\"a2a-protocol.org\"}]}}\n";
    let rest = "GET /tasks/t-9 HTTP/1.1\nA2A-Version: 1.0\n\nHTTP/1.1 200 OK\nContent-Type: application/a2a+json\n\n{\"id\":\"t-9\",\"contextId\":\"c\",\"status\":{\"state\":\"TASK_STATE_COMPLETED\"}}\n";
    let dir = project(&[("jsonrpc.http", rpc), ("rest.http", rest)]);
    check_concise(&dir, ["jsonrpc.http", "rest.http"])
        .assert()
        .code(1)
        .stdout(
            contains("rest.http:4:1: warning[binding-divergence]")
                .and(contains("over JSON-RPC (jsonrpc.http:6)")),
        );
    // Each file alone is fine.
    check_concise(&dir, ["rest.http"]).assert().code(0);
}

/// In HAR files, both answers wait to be placed until a divergence is reported; the
/// JSON-RPC answer is then named by the line of its response in the HAR file.
#[test]
fn binding_divergence_places_answers_in_har_files() {
    let entry = |method: &str, url: &str, request: &str, response: &str| {
        serde_json::json!({
            "request": {"method": method, "url": url, "httpVersion": "HTTP/1.1",
                "headers": [{"name": "A2A-Version", "value": "1.0"}],
                "postData": {"mimeType": "application/json", "text": request}},
            "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1",
                "headers": [{"name": "Content-Type", "value": "application/json"}],
                "content": {"mimeType": "application/json", "text": response}}
        })
    };
    let har = |entries: Vec<serde_json::Value>| {
        serde_json::to_string_pretty(
            &serde_json::json!({"log": {"version": "1.2", "entries": entries}}),
        )
        .unwrap()
    };
    let rpc = har(vec![
        entry("GET", "http://agent/.well-known/agent-card.json", "", "{}"),
        entry(
            "POST",
            "http://agent/a2a",
            r#"{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"t-9"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32001,"message":"Task not found","data":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"TASK_NOT_FOUND","domain":"a2a-protocol.org"}]}}"#,
        ),
    ]);
    let rest = har(vec![entry(
        "GET",
        "http://agent/tasks/t-9",
        "",
        r#"{"id":"t-9","contextId":"c","status":{"state":"TASK_STATE_COMPLETED"}}"#,
    )]);
    // The line of the second entry's `"status": 200`, which stands for its status line.
    let rpc_line = rpc
        .lines()
        .enumerate()
        .filter(|(_, line)| line.trim_start().starts_with("\"status\": 200"))
        .nth(1)
        .map(|(i, _)| i + 1)
        .unwrap();
    let rest_line = rest
        .lines()
        .position(|line| line.trim_start().starts_with("\"status\": 200"))
        .unwrap()
        + 1;
    let dir = project(&[("jsonrpc.har", &rpc), ("rest.har", &rest)]);
    check_concise(&dir, ["--select", "binding-divergence", "."])
        .assert()
        .code(1)
        .stdout(
            contains(format!("rest.har:{rest_line}:"))
                .and(contains(format!("over JSON-RPC (jsonrpc.har:{rpc_line})"))),
        );
}

#[test]
fn every_format_is_byte_identical_across_runs_and_thread_counts() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    for format in [
        "human", "concise", "json", "sarif", "github", "gitlab", "junit",
    ] {
        let run = |threads: &str| {
            let mut cmd = Command::cargo_bin("a2alint").unwrap();
            cmd.current_dir(root)
                .env_remove("GITHUB_STEP_SUMMARY")
                .args([
                    "check",
                    "-q",
                    "--no-config",
                    "--format",
                    format,
                    "-j",
                    threads,
                    "samples",
                    "tests/fixtures",
                ]);
            cmd.output().unwrap().stdout
        };
        let first = run("1");
        assert!(!first.is_empty(), "{format}");
        assert_eq!(first, run("2"), "{format}: -j 1 vs -j 2");
        assert_eq!(first, run("2"), "{format}: two runs");
    }
}
