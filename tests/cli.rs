//! The command-line contract: exit codes, formats, stdin, walking and its errors.

mod common;

use std::fs;
use std::path::Path;

use common::a2alint;
use predicates::prelude::*;
use predicates::str::contains;

const CLEAN: &str = "POST /a2a HTTP/1.1\nContent-Type: application/json\nA2A-Version: 1.0\n\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"GetTask\",\"params\":{\"id\":\"t\"}}\nHTTP/1.1 200 OK\nContent-Type: application/json\n\n{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"id\":\"t\"}}\n";
/// Fires `unpaired-message` (a warning) only.
const WARNING_ONLY: &str = "GET /tasks/t HTTP/1.1\nA2A-Version: 1.0\n\n";
/// Fires `body-not-json` (an error).
const ERROR: &str = "GET /tasks/t HTTP/1.1\nA2A-Version: 1.0\n\nHTTP/1.1 200 OK\nContent-Type: application/a2a+json\n\n{oops}\n";

fn dir_with(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in files {
        let path = dir.path().join(name);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    }
    dir
}

#[test]
fn exit_zero_when_clean() {
    let dir = dir_with(&[("clean.http", CLEAN)]);
    a2alint()
        .args(["check", "--format", "concise"])
        .arg(dir.path())
        .assert()
        .code(0)
        .stdout("")
        .stderr(
            contains("Checked 1 file (1 exchange)").and(contains("0 errors, 0 warnings, 0 infos")),
        );
}

#[test]
fn exit_one_on_findings_at_or_above_fail_on() {
    let dir = dir_with(&[("w.http", WARNING_ONLY)]);
    a2alint()
        .args(["check", "-q"])
        .arg(dir.path())
        .assert()
        .code(1);
    a2alint()
        .args(["check", "-q", "--fail-on", "error"])
        .arg(dir.path())
        .assert()
        .code(0);
    let dir = dir_with(&[("e.http", ERROR)]);
    a2alint()
        .args(["check", "-q", "--fail-on", "error"])
        .arg(dir.path())
        .assert()
        .code(1);
}

#[test]
fn exit_two_when_the_tool_fails() {
    a2alint()
        .args(["check", "--format", "nonsense"])
        .assert()
        .code(2);
    a2alint()
        .args(["check", "does/not/exist.http"])
        .assert()
        .code(2)
        .stderr(contains("error: does/not/exist.http:"));
    let empty = tempfile::tempdir().unwrap();
    a2alint()
        .arg("check")
        .arg(empty.path())
        .assert()
        .code(2)
        .stderr(contains("no capture files (*.http, *.har) found"));
}

#[test]
fn concise_format_is_one_line_per_finding() {
    let dir = dir_with(&[("e.http", ERROR)]);
    a2alint()
        .current_dir(dir.path())
        .args(["check", "--format", "concise", "-q", "e.http"])
        .assert()
        .code(1)
        .stdout(
            "e.http:7:2: error[body-not-json] response body is declared `application/a2a+json` but is not valid JSON: key must be a string\n",
        );
}

#[test]
fn human_format_shows_the_window_rule_and_help() {
    let dir = dir_with(&[("e.http", ERROR)]);
    a2alint()
        .current_dir(dir.path())
        .args(["check", "-q", "e.http"])
        .assert()
        .code(1)
        .stdout(
            contains("body-not-json")
                .and(contains("╭─[e.http:7:2]"))
                .and(contains("7 │ {oops}"))
                .and(contains("see `a2alint explain body-not-json`"))
                .and(contains("\u{1b}[").not()),
        );
}

#[test]
fn reads_standard_input_under_the_given_name() {
    a2alint()
        .args([
            "check",
            "--format",
            "concise",
            "-q",
            "--stdin-filename",
            "piped.http",
            "-",
        ])
        .write_stdin(ERROR)
        .assert()
        .code(1)
        .stdout(contains("piped.http:7:2: error[body-not-json]"));
    a2alint()
        .args(["check", "--format", "concise", "-q", "-"])
        .write_stdin(CLEAN)
        .assert()
        .code(0);
}

#[test]
fn walks_directories_sorted_and_skips_hidden_target_and_node_modules() {
    let dir = dir_with(&[
        ("b.http", ERROR),
        ("a/z.http", ERROR),
        ("a/notes.txt", ERROR),
        (".hidden/x.http", ERROR),
        ("target/x.http", ERROR),
        ("node_modules/x.http", ERROR),
        ("explicit.capture", ERROR),
    ]);
    let output = a2alint()
        .current_dir(dir.path())
        .args([
            "check",
            "--format",
            "concise",
            "-q",
            ".",
            "explicit.capture",
        ])
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    let files: Vec<String> = String::from_utf8(output)
        .unwrap()
        .lines()
        .map(|l| l.split(':').next().unwrap().to_string())
        .collect();
    assert_eq!(files, ["a/z.http", "b.http", "explicit.capture"]);
}

#[cfg(unix)]
#[test]
fn unreadable_entries_are_reported_and_the_run_goes_on() {
    let dir = dir_with(&[("good.http", ERROR)]);
    std::os::unix::fs::symlink("missing-target.http", dir.path().join("dangling.http")).unwrap();
    fs::create_dir(dir.path().join("loop")).unwrap();
    std::os::unix::fs::symlink("..", dir.path().join("loop/back")).unwrap();
    a2alint()
        .current_dir(dir.path())
        .args(["check", "--format", "concise", "."])
        .assert()
        .code(2)
        .stdout(contains("good.http:7:2: error[body-not-json]"))
        .stderr(
            contains("error: dangling.http:")
                .and(contains("loop/back: symbolic link loop"))
                .and(contains("Checked 1 file")),
        );
}

#[test]
fn output_is_the_same_with_one_or_two_threads() {
    let samples = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples");
    let run = |threads: &str| {
        a2alint()
            .args(["check", "--format", "concise", "-q", "-j", threads])
            .arg(&samples)
            .output()
            .unwrap()
            .stdout
    };
    let one = run("1");
    assert!(!one.is_empty());
    assert_eq!(one, run("2"));
}

#[test]
fn colour_follows_the_flag_and_the_environment() {
    let dir = dir_with(&[("e.http", ERROR)]);
    let run = |args: &[&str], env: Option<(&str, &str)>| {
        let mut cmd = a2alint();
        cmd.current_dir(dir.path())
            .args(["check", "--format", "concise", "-q"])
            .args(args)
            .arg("e.http");
        if let Some((key, value)) = env {
            cmd.env(key, value);
        }
        String::from_utf8(cmd.output().unwrap().stdout).unwrap()
    };
    assert!(run(&["--color", "always"], None).contains("\u{1b}["));
    assert!(!run(&["--color", "never"], Some(("FORCE_COLOR", "1"))).contains("\u{1b}["));
    assert!(run(&[], Some(("FORCE_COLOR", "1"))).contains("\u{1b}["));
    assert!(!run(&[], Some(("NO_COLOR", "1"))).contains("\u{1b}["));
    assert!(
        !run(&[], None).contains("\u{1b}["),
        "not a terminal: no colour"
    );
}

#[test]
fn quiet_drops_the_summary() {
    let dir = dir_with(&[("clean.http", CLEAN)]);
    a2alint()
        .args(["check", "-q"])
        .arg(dir.path())
        .assert()
        .code(0)
        .stderr("");
}

#[test]
fn rules_and_explain() {
    a2alint()
        .arg("rules")
        .assert()
        .code(0)
        .stdout(contains("capture-syntax").and(contains("undecodable-body")));
    a2alint()
        .args(["explain", "body-not-json"])
        .assert()
        .code(0)
        .stdout(contains("# body-not-json").and(contains("## Why it matters")));
    a2alint()
        .args(["explain", "no-such-rule"])
        .assert()
        .code(2)
        .stderr(contains("unknown rule `no-such-rule`"));
}

#[test]
fn version_and_help() {
    a2alint()
        .arg("--version")
        .assert()
        .code(0)
        .stdout(contains(env!("CARGO_PKG_VERSION")));
    a2alint()
        .args(["check", "--help"])
        .assert()
        .code(0)
        .stdout(contains("--fail-on").and(contains("Exit status")));
}

#[test]
fn the_shipped_samples_fail_with_the_broken_capture_diagnostics() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    a2alint()
        .current_dir(root)
        .args(["check", "samples"])
        .assert()
        .code(1)
        .stdout(contains("samples/broken-capture.http").and(contains("content-length-mismatch")));
}

#[test]
fn credentials_shown_near_a_finding_are_masked() {
    let capture = "GET /tasks/t HTTP/1.1\nAuthorization: Bearer eyJhbGciOiJIUzI1NiJ9.c2VjcmV0.sig\nCookie: session=hunter2\n\nHTTP/1.1 200 OK\nSet-Cookie: sid=topsecret\nContent-Type: application/json\n\n{oops}\n";
    let dir = dir_with(&[("secret.http", capture)]);
    for format in ["human", "concise"] {
        a2alint()
            .current_dir(dir.path())
            .args(["check", "--format", format, "secret.http"])
            .assert()
            .code(1)
            .stdout(
                contains("eyJhbGciOiJIUzI1NiJ9")
                    .not()
                    .and(contains("hunter2").not())
                    .and(contains("topsecret").not()),
            );
    }
    a2alint()
        .current_dir(dir.path())
        .args(["check", "secret.http"])
        .assert()
        .stdout(contains("Set-Cookie: *************"));
}
