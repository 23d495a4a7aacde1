//! Locations relative to the repository root: the machine formats, fingerprints and
//! baselines name a capture the same way whatever directory a2alint runs in, while the
//! human and concise formats keep the path as typed.

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

/// A TaskNotFound error without ErrorInfo: `error-info-missing`.
const NO_ERROR_INFO: &str = "POST /a2a HTTP/1.1\nContent-Type: application/json\nA2A-Version: 1.0\n\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"GetTask\",\"params\":{\"id\":\"t\"}}\nHTTP/1.1 200 OK\nContent-Type: application/json\n\n{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32001,\"message\":\"Task not found\"}}\n";

/// Task t-9 not found over JSON-RPC...
const RPC_NOT_FOUND: &str = "POST /a2a HTTP/1.1\nContent-Type: application/json\nA2A-Version: 1.0\n\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"GetTask\",\"params\":{\"id\":\"t-9\"}}\nHTTP/1.1 200 OK\nContent-Type: application/json\n\n{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32001,\"message\":\"Task not found\",\"data\":[{\"@type\":\"type.googleapis.com/google.rpc.ErrorInfo\",\"reason\":\"TASK_NOT_FOUND\",\"domain\":\"a2a-protocol.org\"}]}}\n";

/// ...and found over HTTP+JSON, in a HAR file: a `binding-divergence` that is resolved
/// late, from the file read again.
fn rest_found_har() -> String {
    serde_json::to_string_pretty(&serde_json::json!({"log": {"version": "1.2", "entries": [{
        "request": {"method": "GET", "url": "http://agent/tasks/t-9", "httpVersion": "HTTP/1.1",
            "headers": [{"name": "A2A-Version", "value": "1.0"}]},
        "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1",
            "headers": [{"name": "Content-Type", "value": "application/a2a+json"}],
            "content": {"mimeType": "application/a2a+json",
                "text": "{\"id\":\"t-9\",\"contextId\":\"c\",\"status\":{\"state\":\"TASK_STATE_COMPLETED\"}}"}}
    }]}}))
    .unwrap()
}

/// [`NO_ERROR_INFO`] as a HAR file.
fn no_error_info_har() -> String {
    serde_json::to_string_pretty(&serde_json::json!({"log": {"version": "1.2", "entries": [{
        "request": {"method": "POST", "url": "http://agent/a2a", "httpVersion": "HTTP/1.1",
            "headers": [{"name": "A2A-Version", "value": "1.0"},
                        {"name": "Content-Type", "value": "application/json"}],
            "postData": {"mimeType": "application/json",
                "text": "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"GetTask\",\"params\":{\"id\":\"t\"}}"}},
        "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1",
            "headers": [{"name": "Content-Type", "value": "application/json"}],
            "content": {"mimeType": "application/json",
                "text": "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32001,\"message\":\"Task not found\"}}"}}
    }]}}))
    .unwrap()
}

const MACHINE_FORMATS: [&str; 5] = ["json", "sarif", "gitlab", "junit", "github"];

/// A repository (a `.git` directory is all a2alint looks for) holding `captures/`, and
/// `divergence/`, whose two files are compared by `binding-divergence`.
fn repository() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir(dir.path().join(".git")).unwrap();
    write_captures(&dir.path().join("captures"));
    let divergence = dir.path().join("divergence");
    fs::create_dir_all(&divergence).unwrap();
    fs::write(divergence.join("rpc.http"), RPC_NOT_FOUND).unwrap();
    fs::write(divergence.join("rest.har"), rest_found_har()).unwrap();
    dir
}

fn write_captures(dir: &Path) {
    fs::create_dir_all(dir).unwrap();
    fs::write(dir.join("x.http"), NO_ERROR_INFO).unwrap();
    fs::write(dir.join("y.har"), no_error_info_har()).unwrap();
}

/// The directory as the operating system names it (a2alint's current directory does).
fn real(path: &Path) -> PathBuf {
    path.canonicalize().unwrap()
}

fn a2alint(cwd: &Path) -> Command {
    let mut cmd = common::a2alint();
    cmd.current_dir(cwd);
    cmd
}

/// `check -q --format FORMAT ARGS...` in `cwd`: standard output, after checking the exit
/// status (1: there are warnings) and, for SARIF, the schema.
fn check(cwd: &Path, format: &str, args: &[&str]) -> String {
    let output = a2alint(cwd)
        .args(["check", "-q", "--no-progress", "--format", format])
        .args(args)
        .output()
        .unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert_eq!(
        output.status.code(),
        Some(1),
        "{format} in {}: {}",
        cwd.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    if format == "sarif" {
        common::validate_sarif(&stdout);
    }
    stdout
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap()
}

/// (path, rule, fingerprint) of every diagnostic of a json report.
fn fingerprints(report: &str) -> Vec<(String, String, String)> {
    json(report)["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            let field = |name: &str| d[name].as_str().unwrap().to_string();
            (field("path"), field("rule"), field("fingerprint"))
        })
        .collect()
}

#[test]
fn every_machine_format_is_the_same_from_the_root_and_from_a_subdirectory() {
    let repo = repository();
    let root = repo.path();
    let sub = root.join("captures");
    for format in MACHINE_FORMATS {
        let from_root = check(root, format, &["captures"]);
        assert_eq!(
            from_root,
            check(&sub, format, &["."]),
            "{format}: a directory"
        );
        let files = ["x.http", "y.har"];
        assert_eq!(from_root, check(&sub, format, &files), "{format}: files");
        let above = ["../captures/x.http", "./y.har"];
        assert_eq!(
            from_root,
            check(&sub, format, &above),
            "{format}: ../ and ./"
        );
        // Named from outside the root, absolutely, with the root given.
        let outside = tempfile::tempdir().unwrap();
        let absolute = sub.to_string_lossy().to_string();
        let root_flag = root.to_string_lossy().to_string();
        assert_eq!(
            from_root,
            check(outside.path(), format, &["--root", &root_flag, &absolute]),
            "{format}: from outside with --root"
        );
    }

    // The paths and fingerprints that stayed the same are the root's.
    let report = check(&sub, "json", &["."]);
    let found = fingerprints(&report);
    let paths: Vec<&str> = found.iter().map(|(path, _, _)| path.as_str()).collect();
    assert_eq!(paths, ["captures/x.http", "captures/y.har"]);
    assert!(
        found
            .iter()
            .all(|(_, rule, _)| rule == "error-info-missing")
    );
    let document = json(&report);
    let files: Vec<&str> = document["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    assert_eq!(files, ["captures/x.http", "captures/y.har"]);

    let sarif = json(&check(&sub, "sarif", &["x.http"]));
    let run = &sarif["runs"][0];
    let artifact = &run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"];
    assert_eq!(artifact["uri"], "captures/x.http");
    assert_eq!(artifact["uriBaseId"], "%SRCROOT%");
    assert_eq!(
        run["originalUriBaseIds"]["%SRCROOT%"]["uri"],
        a2alint::input::repo_root::file_uri(&real(root).to_string_lossy(), true).as_str()
    );
    let gitlab = json(&check(&sub, "gitlab", &["x.http"]));
    assert_eq!(gitlab[0]["location"]["path"], "captures/x.http");
    let github = check(&sub, "github", &["x.http"]);
    assert!(github.contains("file=captures/x.http,"), "{github}");
    let junit = check(&sub, "junit", &["x.http"]);
    assert!(
        junit.contains(r#"<testsuite name="captures/x.http""#),
        "{junit}"
    );
}

/// A run-level finding about one file that names another (`binding-divergence`, resolved
/// late from the file read again) keeps its fingerprint and location from any directory;
/// its message names the other file as typed, as the human format shows it.
#[test]
fn run_level_findings_keep_their_fingerprints_from_any_directory() {
    let repo = repository();
    let root = repo.path();
    let sub = root.join("divergence");
    let place = |report: &str| -> Vec<(String, String, String, Value)> {
        json(report)["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| {
                let field = |name: &str| d[name].as_str().unwrap().to_string();
                (
                    field("path"),
                    field("rule"),
                    field("fingerprint"),
                    d["location"].clone(),
                )
            })
            .collect()
    };
    let from_root = check(root, "json", &["divergence"]);
    let found = place(&from_root);
    assert_eq!(found.len(), 1, "{from_root}");
    assert_eq!(found[0].0, "divergence/rest.har");
    assert_eq!(found[0].1, "binding-divergence");
    assert!(from_root.contains("over JSON-RPC (divergence/rpc.http:6)"));
    let from_sub = check(&sub, "json", &["."]);
    assert_eq!(place(&from_sub), found);
    assert!(from_sub.contains("over JSON-RPC (rpc.http:6)"));
    // So a baseline written at the root holds here too.
    let baseline = root.join("baseline.json");
    a2alint(root)
        .args(["check", "-q", "--write-baseline"])
        .arg(&baseline)
        .arg("divergence")
        .assert()
        .code(0);
    a2alint(&sub)
        .args(["check", "-q", "--baseline"])
        .arg(&baseline)
        .assert()
        .code(0)
        .stdout("");
}

#[test]
fn human_and_concise_keep_the_path_as_typed() {
    let repo = repository();
    let sub = repo.path().join("captures");
    let concise = check(&sub, "concise", &["x.http"]);
    assert!(concise.starts_with("x.http:"), "{concise}");
    let human = check(&sub, "human", &["--color", "never", "x.http"]);
    assert!(human.contains("[x.http:"), "{human}");
    assert!(!human.contains("captures/x.http"), "{human}");
}

#[test]
fn a_baseline_written_in_one_directory_holds_in_another() {
    let repo = repository();
    let root = repo.path();
    let sub = root.join("captures");
    for (written_in, written_with, checked_in, checked_with) in [
        (root.to_path_buf(), "captures", sub.clone(), "."),
        (sub.clone(), ".", root.to_path_buf(), "captures"),
    ] {
        let baseline = root.join("baseline.json");
        a2alint(&written_in)
            .args(["check", "-q", "--write-baseline"])
            .arg(&baseline)
            .arg(written_with)
            .assert()
            .code(0);
        let written: Value = json(&fs::read_to_string(&baseline).unwrap());
        let entries = written["findings"].as_array().unwrap();
        assert!(entries.len() >= 2);
        for entry in entries {
            assert!(
                entry["path"].as_str().unwrap().starts_with("captures/"),
                "{entry}"
            );
        }
        let output = a2alint(&checked_in)
            .args(["check", "--format", "concise", "--baseline"])
            .arg(&baseline)
            .arg(checked_with)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(0), "{stderr}");
        assert!(output.stdout.is_empty(), "{stderr}");
        assert!(
            stderr.contains(&format!("{} in the baseline", entries.len())),
            "{stderr}"
        );
        assert!(!stderr.contains("stale"), "{stderr}");
    }
}

#[test]
fn root_overrides_the_repository() {
    let repo = repository();
    let root = repo.path();
    let sub = root.join("captures");
    let default = check(&sub, "json", &["x.http"]);
    let rooted_here = check(&sub, "json", &["--root", ".", "x.http"]);
    let (path, _, fingerprint) = &fingerprints(&rooted_here)[0];
    assert_eq!(path, "x.http");
    assert_ne!(fingerprint, &fingerprints(&default)[0].2);
    // The same finding from the root, with the same --root, keeps its fingerprint.
    assert_eq!(
        rooted_here,
        check(root, "json", &["--root", "captures", "captures/x.http"])
    );
    let sarif = json(&check(&sub, "sarif", &["--root", ".", "x.http"]));
    assert_eq!(
        sarif["runs"][0]["originalUriBaseIds"]["%SRCROOT%"]["uri"],
        a2alint::input::repo_root::file_uri(&real(&sub).to_string_lossy(), true).as_str()
    );
    a2alint(&sub)
        .args(["check", "--root", "no-such-dir", "x.http"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "--root no-such-dir: not a directory",
        ));
}

#[test]
fn files_outside_the_root_keep_absolute_paths() {
    let repo = repository();
    let elsewhere = tempfile::tempdir().unwrap();
    fs::write(elsewhere.path().join("y z.http"), NO_ERROR_INFO).unwrap();
    let file = real(elsewhere.path()).join("y z.http");
    let absolute = file.to_string_lossy().replace('\\', "/");
    let report = check(repo.path(), "json", &[&absolute]);
    assert_eq!(fingerprints(&report)[0].0, absolute);
    let sarif = json(&check(repo.path(), "sarif", &[&absolute]));
    let artifact =
        &sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"];
    assert_eq!(
        artifact["uri"],
        a2alint::input::repo_root::file_uri(&absolute, false).as_str()
    );
    assert!(artifact["uri"].as_str().unwrap().ends_with("/y%20z.http"));
    assert!(artifact.get("uriBaseId").is_none());
    // Reached by a relative path, it is absolute all the same.
    let relative = pathdiff(&file, &real(repo.path()));
    assert!(relative.starts_with(".."), "{relative}");
    assert_eq!(report, check(repo.path(), "json", &[&relative]));
}

/// `to` relative to `from` (both absolute): `../../x`.
fn pathdiff(to: &Path, from: &Path) -> String {
    let to: Vec<_> = to.components().collect();
    let from: Vec<_> = from.components().collect();
    let common = to.iter().zip(&from).take_while(|(a, b)| a == b).count();
    let mut parts: Vec<String> = vec!["..".into(); from.len() - common];
    parts.extend(
        to[common..]
            .iter()
            .map(|c| c.as_os_str().to_string_lossy().to_string()),
    );
    parts.join("/")
}

#[test]
fn without_git_the_root_is_the_configuration_directory_else_the_current_one() {
    let project = tempfile::tempdir().unwrap();
    let root = project.path();
    if root.ancestors().any(|dir| dir.join(".git").exists()) {
        eprintln!("note: skipped, the temporary directory is inside a repository");
        return;
    }
    write_captures(&root.join("captures"));
    let sub = root.join("captures");
    // No configuration: the current directory is the root.
    let alone = check(&sub, "json", &["x.http"]);
    assert_eq!(fingerprints(&alone)[0].0, "x.http");
    // A configuration file above: its directory is.
    fs::write(root.join("a2alint.toml"), "").unwrap();
    let configured = check(&sub, "json", &["x.http"]);
    assert_eq!(fingerprints(&configured)[0].0, "captures/x.http");
    assert_eq!(configured, check(root, "json", &["captures/x.http"]));
}

#[test]
fn stdin_is_named_by_its_filename_from_the_current_directory() {
    let repo = repository();
    let root = repo.path();
    let sub = root.join("captures");
    let from_file = check(root, "json", &["captures/x.http"]);
    for name in ["x.http", "..\\captures\\x.http"] {
        let output = a2alint(&sub)
            .args([
                "check",
                "-q",
                "--format",
                "json",
                "--stdin-filename",
                name,
                "-",
            ])
            .write_stdin(NO_ERROR_INFO)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(1));
        assert_eq!(
            fingerprints(&String::from_utf8(output.stdout).unwrap()),
            fingerprints(&from_file),
            "{name}"
        );
    }
}
