//! `a2alint redact`: credentials replaced in `.http` and HAR captures with framing kept
//! right; redacted captures lint clean of `secret-in-capture` and otherwise the same.

use std::fs;
use std::path::Path;

use a2alint::{Options, lint_source};
use assert_cmd::Command;
use predicates::prelude::*;

const SECRETS: &[&str] = &[
    "sk-test-fake-key-0001",
    "fake-session-cookie",
    "fake-set-cookie-value",
    "push-token-fake-123",
    "ZmFrZS1zaWduYXR1cmUtZm9yLXRlc3Rz",
    "gzip-hidden-token-9",
    "sk-test-fake-key-0002",
    "har-cookie-fake-77",
];

fn data(name: &str) -> Vec<u8> {
    fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/redact")
            .join(name),
    )
    .unwrap()
}

/// Rule and message of every finding, but `secret-in-capture`'s.
fn other_findings(name: &str, bytes: &[u8]) -> Vec<(String, String)> {
    lint_source(name, bytes, &Options::default())
        .diagnostics
        .into_iter()
        .filter(|d| d.rule.slug() != "secret-in-capture")
        .map(|d| (d.rule.slug().to_string(), d.message))
        .collect()
}

fn secret_findings(name: &str, bytes: &[u8]) -> usize {
    let report = lint_source(name, bytes, &Options::default());
    report
        .diagnostics
        .iter()
        .filter(|d| d.rule.slug() == "secret-in-capture")
        .count()
}

#[test]
fn redacted_captures_lint_clean_of_secrets_and_otherwise_the_same() {
    for name in ["secrets.http", "secrets.har"] {
        let before = data(name);
        assert!(
            secret_findings(name, &before) > 0,
            "{name} has secrets to find"
        );
        let redaction = a2alint::commands::redact::redact_source(name, &before)
            .unwrap()
            .expect("something to redact");
        let after = &redaction.redacted;
        let text = String::from_utf8_lossy(after);
        for secret in SECRETS {
            assert!(!text.contains(secret), "{name} still holds {secret}");
        }
        assert_eq!(secret_findings(name, after), 0, "{name}: {text}");
        assert_eq!(
            other_findings(name, after),
            other_findings(name, &before),
            "{name}"
        );
        // Framing stays exact: nothing new about lengths or syntax.
        let report = lint_source(name, after, &Options::default());
        assert!(
            report
                .diagnostics
                .iter()
                .all(|d| !matches!(d.rule.slug(), "capture-syntax" | "content-length-mismatch"))
        );
        assert!(
            a2alint::commands::redact::redact_source(name, after)
                .unwrap()
                .is_none(),
            "redacting twice changes nothing"
        );
    }
}

#[test]
fn check_diff_and_write() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["secrets.http", "secrets.har"] {
        fs::write(dir.path().join(name), data(name)).unwrap();
    }
    let a2alint = || {
        let mut cmd = Command::cargo_bin("a2alint").unwrap();
        cmd.current_dir(dir.path());
        cmd
    };
    a2alint()
        .args(["redact", "--check", "."])
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "secrets.http: would redact 7 credential(s)",
        ));
    assert_eq!(
        fs::read(dir.path().join("secrets.http")).unwrap(),
        data("secrets.http"),
        "--check changes nothing"
    );
    let diff = a2alint().args(["redact", "--diff", "."]).output().unwrap();
    let diff = String::from_utf8_lossy(&diff.stdout);
    assert!(diff.contains("+ Authorization: <redacted>"), "{diff}");
    for secret in SECRETS {
        assert!(!diff.contains(secret), "--diff shows {secret}");
    }
    a2alint()
        .args(["redact", "."])
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "secrets.har: redacted 3 credential(s)",
        ));
    a2alint()
        .args(["redact", "--check", "."])
        .assert()
        .code(0)
        .stdout("");
    a2alint()
        .args(["check", "--select", "secret-in-capture", "."])
        .assert()
        .code(0);
}
