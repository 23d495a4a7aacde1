//! Golden test over the test kit's own run: `samples/real/a2a-tck` holds what a2a-tck
//! 1.0-dev sent to an a2a-sdk server and got back (`samples/record/record_tck.py`), its
//! JUnit reports, and a manifest naming the exchanges of each kit test. `--profile tck`
//! must report every kit failure whose evidence is in the bytes on that test's exchanges,
//! and nothing at the capture level; the findings as a whole are a reviewed snapshot
//! (`samples/real/README.md`, "The test kit's verdicts").

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use a2alint::output::FileReport;
use a2alint::output::report::Format;
use a2alint::protocol::profile::Profile;
use a2alint::{Options, lint_source};
use serde_json::Value;

/// Each failing kit test (its JUnit `name` without the transport parameter) and the rule
/// that reports the same fault under `--profile tck`.
const KIT_FAILURES: [(&str, &str); 8] = [
    ("test_cache_control_present", "card-cache-headers"),
    ("test_cache_control_has_max_age", "card-cache-headers"),
    ("test_last_modified_present", "card-cache-headers"),
    (
        "test_subscribe_terminates_at_terminal_state",
        "stream-closed-early",
    ),
    (
        "test_content_type_not_supported_error",
        "content-type-error-misuse",
    ),
    ("test_response_content_type", "success-content-type"),
    (
        "test_push_not_supported_returns_unimplemented",
        "grpc-status-mismatch",
    ),
    (
        "test_version_not_supported_returns_unimplemented",
        "unsupported-version-accepted",
    ),
];

/// Rules that mean an exchange was not read as it was sent or received.
const CAPTURE_RULES: [&str; 5] = [
    "capture-syntax",
    "content-length-mismatch",
    "unpaired-message",
    "capture-incomplete",
    "undecodable-body",
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/real/a2a-tck")
}

/// Every capture of the kit's run, linted as one run under `tck`, keyed by its path
/// relative to `samples/real/a2a-tck`.
fn lint_run() -> BTreeMap<String, FileReport> {
    let root = root();
    let mut files: Vec<PathBuf> = walkdir::WalkDir::new(&root)
        .into_iter()
        .map(|entry| entry.unwrap().into_path())
        .filter(|p| p.extension().is_some_and(|e| e == "http" || e == "pcap"))
        .collect();
    files.sort();
    let options = Options {
        profile: Profile::Tck,
        ..Options::default()
    };
    let mut reports: Vec<FileReport> = (files.iter())
        .map(|path| {
            let shown = path.strip_prefix(env!("CARGO_MANIFEST_DIR")).unwrap();
            let name = shown.to_string_lossy().replace('\\', "/");
            lint_source(&name, &std::fs::read(path).unwrap(), &options)
        })
        .collect();
    a2alint::lint::check_linted_run(&mut reports);
    let prefix = "samples/real/a2a-tck/";
    (reports.into_iter())
        .map(|r| (r.path.strip_prefix(prefix).unwrap().to_string(), r))
        .collect()
}

fn manifest() -> Value {
    let text = std::fs::read_to_string(root().join("manifest.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// The rules reported on one kit test's evidence: its `.http` files, and the findings of
/// the run's pcap whose first frame lies in the test's frame range.
fn rules_on(test: &Value, reports: &BTreeMap<String, FileReport>) -> Vec<&'static str> {
    let mut rules = Vec::new();
    for file in test["http"].as_array().unwrap() {
        let report = &reports[file.as_str().unwrap()];
        rules.extend(report.diagnostics.iter().map(|d| d.rule.slug()));
    }
    if let Some(pcap) = test["pcap"].as_object() {
        let report = &reports[pcap["file"].as_str().unwrap()];
        let frames = pcap["frames"].as_array().unwrap();
        let (first, last) = (frames[0].as_u64().unwrap(), frames[1].as_u64().unwrap());
        let within = |frame: u32| (first..=last).contains(&u64::from(frame));
        rules.extend(
            (report.diagnostics.iter())
                .filter(|d| d.primary.frame.as_ref().is_some_and(|f| within(f.frame)))
                .map(|d| d.rule.slug()),
        );
    }
    rules
}

#[test]
fn every_kit_failure_in_the_bytes_is_reported_on_its_exchanges() {
    let reports = lint_run();
    let manifest = manifest();
    let mut checked = 0;
    for (run, record) in manifest["runs"].as_object().unwrap() {
        for test in record["tests"].as_array().unwrap() {
            if !matches!(test["outcome"].as_str(), Some("failed" | "error")) {
                continue;
            }
            let name = test["name"].as_str().unwrap();
            let bare = name.split('[').next().unwrap();
            let (_, rule) = KIT_FAILURES
                .iter()
                .find(|(kit, _)| *kit == bare)
                .unwrap_or_else(|| {
                    panic!("{run}: kit failure {name} is in no row of KIT_FAILURES")
                });
            let found = rules_on(test, &reports);
            assert!(
                found.contains(rule),
                "{run}: the kit fails {name}, but {rule} is not reported on its exchanges (found {found:?})"
            );
            checked += 1;
        }
    }
    // 5 failures over JSON-RPC, 5 over HTTP+JSON, 6 over gRPC (samples/real/README.md).
    assert_eq!(checked, 16, "the recorded run changed: review the table");
}

#[test]
fn the_kit_traffic_is_read_as_it_was_sent() {
    let reports = lint_run();
    assert!(reports.len() > 200, "only {} captures", reports.len());
    for (path, report) in &reports {
        assert!(report.exchanges > 0, "{path}: no exchange read");
        for slug in common::fired(report) {
            assert!(!CAPTURE_RULES.contains(&slug), "{path}: {slug}");
        }
    }
}

#[test]
fn kit_run_findings_under_tck() {
    let reports: Vec<FileReport> = lint_run().into_values().collect();
    insta::assert_snapshot!(common::render(Format::Concise, &reports));
}
