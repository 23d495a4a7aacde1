//! A folder linted as a user would (`a2alint check --no-config --format json DIR`), read
//! back as `path: message` of one rule's findings: the run-level tests compare files.

use std::path::Path;

use assert_cmd::Command;
use serde_json::Value;

pub fn rule_findings(dir: &Path, rule: &str) -> Vec<String> {
    let output = Command::cargo_bin("a2alint")
        .unwrap()
        .args(["check", "--no-config", "--format", "json"])
        .arg(dir)
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    (report["diagnostics"].as_array().unwrap().iter())
        .filter(|d| d["rule"] == rule)
        .map(|d| {
            let path = d["path"].as_str().unwrap();
            format!("{path}: {}", d["message"].as_str().unwrap())
        })
        .collect()
}
