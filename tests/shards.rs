//! `check --shard K/N` and `a2alint merge`: shards are disjoint, together they lint every
//! file once, and merging their reports gives the report of the unsharded run, in every
//! mergeable format.

mod common;

use std::path::Path;

use assert_cmd::Command;
use serde_json::Value;

/// Rules whose fixtures judge one file at a time: a corpus of them gives the same
/// findings however it is split (run-level rules are the README's caveat).
const PER_FILE_RULES: [&str; 8] = [
    "error-info-missing",
    "http-status-mismatch",
    "grpc-status-mismatch",
    "rest-error-shape",
    "jsonrpc-envelope",
    "body-not-json",
    "stream-event-shape",
    "capture-syntax",
];

/// A repository holding the fixtures of those rules, one directory per rule.
fn corpus() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join(".git")).unwrap();
    // The fixtures share task ids and hosts: run-level rules would compare unrelated
    // files, and a shard sees only its own (the README's caveat).
    let config = "[rules]\nbinding-divergence = \"off\"\ncard-contradicted = \"off\"\nunsupported-version-accepted = \"off\"\n";
    std::fs::write(dir.path().join("a2alint.toml"), config).unwrap();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    for rule in PER_FILE_RULES {
        let target = dir.path().join("captures").join(rule);
        std::fs::create_dir_all(&target).unwrap();
        for entry in std::fs::read_dir(fixtures.join(rule)).unwrap() {
            let path = entry.unwrap().path();
            std::fs::copy(&path, target.join(path.file_name().unwrap())).unwrap();
        }
    }
    dir
}

/// `a2alint check captures --format FORMAT [extra]` in `dir`: its standard output.
fn check(dir: &Path, format: &str, extra: &[&str]) -> String {
    let output = Command::cargo_bin("a2alint")
        .unwrap()
        .current_dir(dir)
        .args(["check", "-q", "--format", format, "captures"])
        .args(extra)
        .output()
        .unwrap();
    assert!(
        matches!(output.status.code(), Some(0 | 1)),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

/// The shards' reports in `format`, written to files, then `a2alint merge`d.
fn merged(dir: &Path, format: &str, count: u64, by: &str) -> String {
    let mut reports = Vec::new();
    for index in 1..=count {
        let report = dir.join(format!("shard-{index}.{format}"));
        let text = check(
            dir,
            format,
            &["--shard", &format!("{index}/{count}"), "--shard-by", by],
        );
        std::fs::write(&report, text).unwrap();
        reports.push(report);
    }
    let output = Command::cargo_bin("a2alint")
        .unwrap()
        .arg("merge")
        .args(&reports)
        .output()
        .unwrap();
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

fn paths_of(json: &str) -> Vec<String> {
    let report: Value = serde_json::from_str(json).unwrap();
    (report["files"].as_array().unwrap().iter())
        .map(|f| f["path"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn shards_are_disjoint_and_cover_every_file() {
    let dir = corpus();
    let all = paths_of(&check(dir.path(), "json", &[]));
    assert!(all.len() > 30, "{} files", all.len());
    for by in ["file", "directory"] {
        let mut seen: Vec<String> = Vec::new();
        for index in 1..=3 {
            let shard = paths_of(&check(
                dir.path(),
                "json",
                &["--shard", &format!("{index}/3"), "--shard-by", by],
            ));
            assert!(
                shard.iter().all(|p| !seen.contains(p)),
                "{by}: a file in two shards"
            );
            if by == "directory" {
                let dirs: Vec<&str> = shard
                    .iter()
                    .map(|p| p.rsplit_once('/').unwrap().0)
                    .collect();
                for d in &dirs {
                    let whole = all
                        .iter()
                        .filter(|p| p.rsplit_once('/').unwrap().0 == *d)
                        .count();
                    assert_eq!(dirs.iter().filter(|x| *x == d).count(), whole, "{d} split");
                }
            }
            seen.extend(shard);
        }
        seen.sort();
        let mut expected = all.clone();
        expected.sort();
        assert_eq!(seen, expected, "{by}: the shards do not cover the run");
    }
}

#[test]
fn merged_json_sarif_and_gitlab_equal_the_unsharded_report() {
    let dir = corpus();
    for format in ["json", "sarif", "gitlab"] {
        let whole: Value = serde_json::from_str(&check(dir.path(), format, &[])).unwrap();
        let joined: Value = serde_json::from_str(&merged(dir.path(), format, 3, "file")).unwrap();
        assert_eq!(joined, whole, "{format}");
        if format == "sarif" {
            common::validate_sarif(&serde_json::to_string(&joined).unwrap());
        }
    }
}

#[test]
fn merged_junit_is_the_unsharded_report() {
    let dir = corpus();
    assert_eq!(
        merged(dir.path(), "junit", 4, "directory"),
        check(dir.path(), "junit", &[])
    );
}

#[test]
fn reports_of_two_formats_are_not_merged() {
    let dir = corpus();
    let json = dir.path().join("a.json");
    let junit = dir.path().join("b.xml");
    std::fs::write(&json, check(dir.path(), "json", &["--shard", "1/2"])).unwrap();
    std::fs::write(&junit, check(dir.path(), "junit", &["--shard", "2/2"])).unwrap();
    Command::cargo_bin("a2alint")
        .unwrap()
        .arg("merge")
        .args([&json, &junit])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("merge reports of one format"));
}

#[test]
fn a_shard_given_wrongly_is_an_error() {
    let dir = corpus();
    Command::cargo_bin("a2alint")
        .unwrap()
        .current_dir(dir.path())
        .args(["check", "--shard", "4/3", "captures"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("is no shard"));
}
