//! CI gating: configuration discovery and errors, rule selection, ignores, inline
//! suppressions, baselines, `--files-from` and exit codes.

mod common;

use std::fs;

use assert_cmd::Command;
use predicates::prelude::*;
use predicates::str::contains;

/// A TaskNotFound error without ErrorInfo: `error-info-missing` (warning under `spec`).
const NO_ERROR_INFO: &str = "POST /a2a HTTP/1.1\nContent-Type: application/json\nA2A-Version: 1.0\n\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"GetTask\",\"params\":{\"id\":\"t\"}}\nHTTP/1.1 200 OK\nContent-Type: application/json\n\n{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32001,\"message\":\"Task not found\"}}\n";

fn a2alint(dir: &tempfile::TempDir) -> Command {
    let mut cmd = common::a2alint();
    cmd.current_dir(dir.path());
    cmd
}

fn project(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir(dir.path().join(".git")).unwrap();
    for (name, text) in files {
        let path = dir.path().join(name);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    }
    dir
}

fn concise(cmd: &mut Command) -> String {
    String::from_utf8(cmd.output().unwrap().stdout).unwrap()
}

#[test]
fn config_is_found_upward_and_sets_levels() {
    let dir = project(&[
        (
            "a2alint.toml",
            "fail-on = \"error\"\n[rules]\nerror-info-missing = \"info\"\n",
        ),
        ("captures/x.http", NO_ERROR_INFO),
    ]);
    let mut cmd = a2alint(&dir);
    cmd.current_dir(dir.path().join("captures"))
        .args(["check", "--format", "concise", "-q", "x.http"]);
    cmd.assert()
        .code(0)
        .stdout(contains("info[error-info-missing]"));
    // --no-config ignores it: the default warning level and fail-on apply again.
    a2alint(&dir)
        .args([
            "check",
            "--format",
            "concise",
            "-q",
            "--no-config",
            "captures/x.http",
        ])
        .assert()
        .code(1)
        .stdout(contains("warning[error-info-missing]"));
}

#[test]
fn config_errors_name_the_line_and_exit_2() {
    for (config, expected) in [
        (
            "[rules]\nerror-info-missing = \"warning\"\nno-such-rule = \"off\"\n",
            "a2alint.toml:3: unknown rule `no-such-rule`",
        ),
        (
            "profile = \"spec\"\ncolour = \"red\"\n",
            "a2alint.toml:2: unknown field `colour`",
        ),
        (
            "[rules]\nerror-info-missing = \"loud\"\n",
            "a2alint.toml:2: unknown variant `loud`",
        ),
    ] {
        let dir = project(&[("a2alint.toml", config), ("x.http", NO_ERROR_INFO)]);
        a2alint(&dir)
            .args(["check", "x.http"])
            .assert()
            .code(2)
            .stderr(contains(expected));
    }
}

#[test]
fn overrides_excludes_and_explicit_config() {
    let config = "exclude = [\"vendor/**\"]\n[[overrides]]\nfiles = [\"legacy/*.http\"]\nrules = { error-info-missing = \"off\" }\n";
    let dir = project(&[
        ("ci/a2alint.toml", config),
        ("legacy/old.http", NO_ERROR_INFO),
        ("vendor/v.http", NO_ERROR_INFO),
        ("new.http", NO_ERROR_INFO),
    ]);
    // Globs are relative to the configuration file's directory.
    let dir_config = project(&[
        ("a2alint.toml", config),
        ("legacy/old.http", NO_ERROR_INFO),
        ("vendor/v.http", NO_ERROR_INFO),
        ("new.http", NO_ERROR_INFO),
    ]);
    let out = concise(a2alint(&dir_config).args(["check", "--format", "concise", "-q", "."]));
    assert!(
        out.contains("new.http") && !out.contains("legacy/old.http") && !out.contains("vendor/"),
        "{out}"
    );
    let out = concise(a2alint(&dir).args([
        "check",
        "--format",
        "concise",
        "-q",
        "--config",
        "ci/a2alint.toml",
        ".",
    ]));
    assert!(
        out.contains("legacy/old.http"),
        "globs are relative to ci/: {out}"
    );
}

#[test]
fn select_and_ignore_flags() {
    let dir = project(&[("x.http", NO_ERROR_INFO)]);
    let out = concise(a2alint(&dir).args([
        "check", "--format", "concise", "-q", "--select", "capture", "x.http",
    ]));
    assert_eq!(out, "");
    let out = concise(a2alint(&dir).args([
        "check",
        "--format",
        "concise",
        "-q",
        "--ignore",
        "error-info-missing",
        "x.http",
    ]));
    assert_eq!(out, "");
    a2alint(&dir)
        .args(["check", "--select", "nope", "x.http"])
        .assert()
        .code(2)
        .stderr(contains("unknown rule or group `nope`"));
}

#[test]
fn configured_ignores_by_file_rule_and_exchange() {
    let two = format!("{NO_ERROR_INFO}###\n{NO_ERROR_INFO}");
    let config = "[[ignore]]\nfiles = [\"x.http\"]\nrules = [\"error-info-missing\"]\nexchange = 1\nreason = \"vendor bug\"\n";
    let dir = project(&[("a2alint.toml", config), ("x.http", &two)]);
    let mut cmd = a2alint(&dir);
    cmd.args(["check", "--format", "concise", "x.http"]);
    let output = cmd.output().unwrap();
    let out = String::from_utf8(output.stdout).unwrap();
    assert_eq!(out.lines().count(), 1, "{out}");
    assert!(
        out.starts_with("x.http:9:"),
        "the first exchange is still reported: {out}"
    );
    assert!(
        String::from_utf8(output.stderr)
            .unwrap()
            .contains("1 suppressed")
    );
    let out = concise(a2alint(&dir).args([
        "check",
        "--format",
        "concise",
        "-q",
        "--no-ignores",
        "x.http",
    ]));
    assert_eq!(out.lines().count(), 2, "{out}");
}

#[test]
fn inline_suppressions_are_counted_and_no_ignores_shows_everything() {
    let suppressed = format!("# a2alint: ignore[error-info-missing] known\n{NO_ERROR_INFO}");
    let dir = project(&[("x.http", &suppressed)]);
    a2alint(&dir)
        .args(["check", "--format", "concise", "x.http"])
        .assert()
        .code(0)
        .stdout("")
        .stderr(contains("1 suppressed"));
    a2alint(&dir)
        .args([
            "check",
            "--format",
            "concise",
            "-q",
            "--no-ignores",
            "x.http",
        ])
        .assert()
        .code(1)
        .stdout(contains("error-info-missing").and(contains("unused-suppression").not()));
}

#[test]
fn baselines_survive_line_shifts_and_report_new_findings() {
    let dir = project(&[("x.http", NO_ERROR_INFO)]);
    a2alint(&dir)
        .args(["check", "--write-baseline", "baseline.json", "x.http"])
        .assert()
        .code(0)
        .stderr(contains("Wrote 1 findings to baseline.json"));
    // Lines shift (a comment and an unrelated exchange first): still baselined.
    let clean = "GET /tasks/a HTTP/1.1\nA2A-Version: 1.0\n\nHTTP/1.1 200 OK\nContent-Type: application/a2a+json\n\n{\"id\":\"a\",\"status\":{\"state\":\"TASK_STATE_COMPLETED\"}}\n###\n";
    fs::write(
        dir.path().join("x.http"),
        format!("# moved down\n\n{clean}{NO_ERROR_INFO}"),
    )
    .unwrap();
    a2alint(&dir)
        .args([
            "check",
            "--format",
            "concise",
            "--baseline",
            "baseline.json",
            "x.http",
        ])
        .assert()
        .code(0)
        .stdout("")
        .stderr(contains("1 in the baseline"));
    // A new finding elsewhere is reported.
    fs::write(
        dir.path().join("x.http"),
        format!(
            "{NO_ERROR_INFO}###\n{}",
            NO_ERROR_INFO
                .replace(
                    "GetTask\",\"params\":{\"id\":\"t\"}",
                    "CancelTask\",\"params\":{\"id\":\"u\"}"
                )
                .replace("POST /a2a", "POST /other")
        ),
    )
    .unwrap();
    a2alint(&dir)
        .args([
            "check",
            "--format",
            "concise",
            "-q",
            "--baseline",
            "baseline.json",
            "x.http",
        ])
        .assert()
        .code(1)
        .stdout(contains("x.http:19:"));
    // Fixed: the baseline entry is stale.
    fs::write(dir.path().join("x.http"), clean).unwrap();
    a2alint(&dir)
        .args(["check", "--baseline", "baseline.json", "x.http"])
        .assert()
        .code(0)
        .stderr(contains("1 stale baseline entries"));
}

#[test]
fn files_from_lints_exactly_the_listed_captures() {
    let dir = project(&[
        ("a.http", NO_ERROR_INFO),
        ("b.http", NO_ERROR_INFO),
        ("notes.md", "# not a capture"),
    ]);
    let out = concise(
        a2alint(&dir)
            .args(["check", "--format", "concise", "-q", "--files-from", "-"])
            .write_stdin("a.http\ndeleted.http\nnotes.md\n\n"),
    );
    assert_eq!(out.lines().count(), 1);
    assert!(out.starts_with("a.http:"), "{out}");
    // A change with no capture in it has nothing to lint and passes.
    a2alint(&dir)
        .args(["check", "--files-from", "-"])
        .write_stdin("notes.md\n")
        .assert()
        .code(0);
}

#[test]
fn exit_zero_and_fail_on_for_every_format() {
    let dir = project(&[("x.http", NO_ERROR_INFO)]);
    for format in [
        "human", "concise", "json", "sarif", "github", "gitlab", "junit",
    ] {
        a2alint(&dir)
            .args(["check", "-q", "--format", format, "x.http"])
            .assert()
            .code(1);
        a2alint(&dir)
            .args(["check", "-q", "--exit-zero", "--format", format, "x.http"])
            .assert()
            .code(0);
        a2alint(&dir)
            .args([
                "check",
                "-q",
                "--fail-on",
                "error",
                "--format",
                format,
                "x.http",
            ])
            .assert()
            .code(0);
    }
}

#[test]
fn completions_for_each_shell() {
    let dir = project(&[]);
    for shell in ["bash", "zsh", "fish"] {
        a2alint(&dir)
            .args(["completions", shell])
            .assert()
            .code(0)
            .stdout(contains("check"));
    }
}

#[test]
fn binding_divergence_compares_files_of_one_run() {
    let rpc = "POST /a2a HTTP/1.1\nContent-Type: application/json\nA2A-Version: 1.0\n\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"GetTask\",\"params\":{\"id\":\"t-9\"}}\nHTTP/1.1 200 OK\nContent-Type: application/json\n\n{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32001,\"message\":\"Task not found\",\"data\":[{\"@type\":\"type.googleapis.com/google.rpc.ErrorInfo\",\"reason\":\"TASK_NOT_FOUND\",\"domain\":\"a2a-protocol.org\"}]}}\n";
    let rest = "GET /tasks/t-9 HTTP/1.1\nA2A-Version: 1.0\n\nHTTP/1.1 200 OK\nContent-Type: application/a2a+json\n\n{\"id\":\"t-9\",\"contextId\":\"c\",\"status\":{\"state\":\"TASK_STATE_COMPLETED\"}}\n";
    let dir = project(&[("jsonrpc.http", rpc), ("rest.http", rest)]);
    a2alint(&dir)
        .args([
            "check",
            "--format",
            "concise",
            "-q",
            "jsonrpc.http",
            "rest.http",
        ])
        .assert()
        .code(1)
        .stdout(
            contains("rest.http:4:1: warning[binding-divergence]")
                .and(contains("over JSON-RPC (jsonrpc.http:6)")),
        );
    // Each file alone is fine.
    a2alint(&dir)
        .args(["check", "--format", "concise", "-q", "rest.http"])
        .assert()
        .code(0);
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
    a2alint(&dir)
        .args([
            "check",
            "--format",
            "concise",
            "-q",
            "--select",
            "binding-divergence",
            ".",
        ])
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
