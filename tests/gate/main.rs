//! CI gating: configuration discovery and errors, rule selection, ignores, inline
//! suppressions, baselines, `--files-from` and exit codes.

#[path = "../common/mod.rs"]
mod common;

use std::fs;

use assert_cmd::Command;
use predicates::prelude::*;
use predicates::str::contains;

mod baselines;
mod divergence;

/// A TaskNotFound error without ErrorInfo: `error-info-missing` (warning under `spec`).
pub(crate) const NO_ERROR_INFO: &str = "POST /a2a HTTP/1.1\nContent-Type: application/json\nA2A-Version: 1.0\n\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"GetTask\",\"params\":{\"id\":\"t\"}}\nHTTP/1.1 200 OK\nContent-Type: application/json\n\n{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32001,\"message\":\"Task not found\"}}\n";

pub(crate) fn a2alint(dir: &tempfile::TempDir) -> Command {
    let mut cmd = common::a2alint();
    cmd.current_dir(dir.path());
    cmd
}

/// `a2alint check --format concise -q` in `dir`, then `args`.
pub(crate) fn check_concise<const N: usize>(dir: &tempfile::TempDir, args: [&str; N]) -> Command {
    let mut cmd = a2alint(dir);
    cmd.args(["check", "--format", "concise", "-q"]).args(args);
    cmd
}

pub(crate) fn project(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir(dir.path().join(".git")).unwrap();
    for (name, text) in files {
        let path = dir.path().join(name);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    }
    dir
}

pub(crate) fn concise(cmd: &mut Command) -> String {
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
    check_concise(&dir, ["--no-config", "captures/x.http"])
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
    let out = concise(&mut check_concise(
        &dir,
        ["--config", "ci/a2alint.toml", "."],
    ));
    assert!(
        out.contains("legacy/old.http"),
        "globs are relative to ci/: {out}"
    );
}

#[test]
fn select_and_ignore_flags() {
    let dir = project(&[("x.http", NO_ERROR_INFO)]);
    let out = concise(&mut check_concise(&dir, ["--select", "capture", "x.http"]));
    assert_eq!(out, "");
    let out = concise(&mut check_concise(
        &dir,
        ["--ignore", "error-info-missing", "x.http"],
    ));
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
    let out = concise(&mut check_concise(&dir, ["--no-ignores", "x.http"]));
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
    check_concise(&dir, ["--no-ignores", "x.http"])
        .assert()
        .code(1)
        .stdout(contains("error-info-missing").and(contains("unused-suppression").not()));
}
