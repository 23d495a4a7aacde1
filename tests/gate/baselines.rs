//! Baselines, `--files-from`, exit codes per format, and shell completions.

use predicates::str::contains;
use std::fs;

use super::*;

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
    check_concise(&dir, ["--baseline", "baseline.json", "x.http"])
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
        check_concise(&dir, ["--files-from", "-"])
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
