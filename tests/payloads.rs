//! Success responses' payloads are checked but not built (`classify::json_skim`), on the
//! promise that no rule reads into them. This holds the rules to it: every capture in the
//! repository, and a generated corpus of every kind of traffic, gives the same findings
//! whether payloads are hollow or built in full. A rule that starts reading inside a
//! `result`, `task` or `artifacts` member fails here.

mod common;

#[path = "../benches/corpus/mod.rs"]
mod corpus;

use std::path::{Path, PathBuf};

use a2alint::output::report::Format;
use a2alint::protocol::classify::Payloads;
use a2alint::{Options, lint_source};

fn captures(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            captures(&path, out);
        } else if path.extension().is_some_and(|e| e == "http" || e == "har") {
            out.push(path);
        }
    }
}

/// The JSON report of `bytes` linted with success payloads built as `payloads` says.
fn report(name: &str, bytes: &[u8], payloads: Payloads) -> String {
    let options = Options {
        payloads,
        ..common::options_for(bytes)
    };
    common::render(Format::Json, &[lint_source(name, bytes, &options)])
}

#[test]
fn hollow_payloads_change_no_finding_in_the_repository() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut paths = Vec::new();
    for dir in ["samples", "tests/fixtures", "tests/data"] {
        captures(&root.join(dir), &mut paths);
    }
    assert!(paths.len() > 200, "found only {} captures", paths.len());
    for path in paths {
        let bytes = std::fs::read(&path).unwrap();
        let name = path.to_string_lossy();
        assert_eq!(
            report(&name, &bytes, Payloads::Hollow),
            report(&name, &bytes, Payloads::Full),
            "{name}"
        );
    }
}

#[test]
fn hollow_payloads_change_no_finding_in_generated_traffic() {
    let mut findings = 0;
    for mix in [corpus::Mix::Realistic, corpus::Mix::Findings] {
        for file in corpus::plan(7, 3 << 20, 40, true) {
            let bytes = corpus::file_bytes(7, &file, mix);
            let hollow = report(&file.name, &bytes, Payloads::Hollow);
            assert_eq!(
                hollow,
                report(&file.name, &bytes, Payloads::Full),
                "{}",
                file.name
            );
            findings += hollow.matches("\"rule\":").count();
        }
    }
    // The comparison means something only if the traffic has findings to compare.
    assert!(findings > 100, "only {findings} findings");
}
