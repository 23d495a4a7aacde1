//! Runs every output a2alint writes and finds the secrets, or pieces of them, it shows.

use std::fmt::Write as _;
use std::path::Path;
use std::process::Output;

use assert_cmd::Command;

use crate::values::{PIECE, Secret};

const FORMATS: &[&str] = &[
    "human", "concise", "json", "sarif", "github", "gitlab", "junit",
];

pub fn a2alint() -> Command {
    let mut cmd = Command::cargo_bin("a2alint").unwrap();
    cmd.env_remove("GITHUB_STEP_SUMMARY")
        .env_remove("FORCE_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .env("NO_COLOR", "1");
    cmd
}

/// Undoes GitHub workflow-command escapes, so an escaped secret is still found.
fn unescape_github(text: &str) -> String {
    text.replace("%0D", "\r")
        .replace("%0A", "\n")
        .replace("%3A", ":")
        .replace("%2C", ",")
        .replace("%25", "%")
}

/// Every line of `output` where a secret, or an 8-byte piece of one, shows.
fn leaks(what: &str, output: &str, secrets: &[Secret]) -> Vec<String> {
    let mut found = Vec::new();
    let unescaped = unescape_github(output);
    for secret in secrets {
        let pieces: Vec<&str> = std::iter::once(secret.value.as_str())
            .chain(
                secret
                    .value
                    .as_bytes()
                    .windows(PIECE)
                    .map(|w| std::str::from_utf8(w).unwrap()),
            )
            .collect();
        for text in [output, unescaped.as_str()] {
            let mut heading = "";
            let mut hits = Vec::new();
            for (i, line) in text.lines().enumerate() {
                if line.contains("╭─[") {
                    heading = line.trim();
                }
                let Some(piece) = pieces.iter().find(|p| line.contains(**p)) else {
                    continue;
                };
                let how = if piece.len() == secret.value.len() {
                    "the whole value".to_string()
                } else {
                    format!("the piece {piece:?}")
                };
                hits.push(format!(
                    "{what}, output line {}: secret `{}` ({}) shows as {how}\n    line: {}{}",
                    i + 1,
                    secret.name,
                    secret.placed,
                    line.trim_end(),
                    if heading.is_empty() {
                        String::new()
                    } else {
                        format!("\n    in the window {heading}")
                    }
                ));
            }
            if !hits.is_empty() {
                found.extend(hits);
                break;
            }
        }
    }
    found
}

pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The leaks in a run's stdout and stderr, each named `{what} stdout` or `{what} stderr`.
fn stream_leaks(what: &str, out: &Output, secrets: &[Secret]) -> Vec<String> {
    let mut found = leaks(&format!("{what} stdout"), &text(&out.stdout), secrets);
    found.extend(leaks(
        &format!("{what} stderr"),
        &text(&out.stderr),
        secrets,
    ));
    found
}

/// Runs every output a2alint writes over `dir` and collects the leaks.
pub fn every_output_leaks(dir: &Path, secrets: &[Secret]) -> Vec<String> {
    let mut found = Vec::new();
    let written_to = tempfile::tempdir().unwrap();
    for format in FORMATS {
        let summary = written_to.path().join("step-summary.md");
        let mut cmd = a2alint();
        cmd.args(["check", "--no-config", "--no-progress", "--format", format])
            .arg(dir);
        if *format == "github" {
            cmd.env("GITHUB_STEP_SUMMARY", &summary);
        }
        let out = cmd.output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(1),
            "--format {format}: the fixtures have errors\n{}",
            text(&out.stderr)
        );
        found.extend(stream_leaks(&format!("--format {format}"), &out, secrets));
        if *format == "github" {
            let written = std::fs::read_to_string(&summary).expect("a step summary");
            assert!(!written.is_empty(), "the step summary is empty");
            found.extend(leaks("--format github step summary", &written, secrets));
            std::fs::remove_file(&summary).unwrap();
        }
    }

    let baseline = written_to.path().join("baseline.json");
    let out = a2alint()
        .args([
            "check",
            "--no-config",
            "--no-progress",
            "-q",
            "--write-baseline",
        ])
        .arg(&baseline)
        .arg(dir)
        .output()
        .unwrap();
    found.extend(stream_leaks("--write-baseline", &out, secrets));
    let written = std::fs::read_to_string(&baseline).expect("a baseline file");
    found.extend(leaks("--write-baseline file", &written, secrets));

    for format in ["table", "json"] {
        let out = a2alint()
            .args(["inspect", "--format", format])
            .arg(dir)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "inspect --format {format}: {}",
            text(&out.stderr)
        );
        found.extend(stream_leaks(
            &format!("inspect --format {format}"),
            &out,
            secrets,
        ));
    }
    found
}

pub fn report(found: &[String]) -> String {
    let mut out = format!("{} leak(s):\n", found.len());
    for leak in found {
        writeln!(out, "- {leak}").unwrap();
    }
    out
}
