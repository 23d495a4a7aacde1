//! Golden test over real traffic: the recordings of the reference SDKs in `samples/real`
//! (made by `samples/record/record_all.py`) and every finding a2alint reports on them.
//!
//! The snapshot is a reviewed result (see `samples/real/README.md`): a finding that is
//! wrong is a bug in a rule, not something to accept here. Re-recording changes task ids,
//! context ids and timestamps but must not change a single finding.

mod common;

use std::path::{Path, PathBuf};

use a2alint::output::report::Format;

/// Rules that mean a recorded exchange was not read as the SDK sent it.
const CAPTURE_RULES: [&str; 3] = [
    "capture-syntax",
    "content-length-mismatch",
    "unpaired-message",
];

/// Scenarios that are success traffic from end to end: they must stay clean.
const SUCCESS_SCENARIOS: [&str; 4] = ["agent-card", "send-message", "get-task", "stream"];

/// Findings success traffic may still get: a card served without the caching headers
/// A2A §8.6.1 asks for (SHOULD), or an HTTP+JSON answer typed `application/json` where
/// v1.0.1 §11.1 asks for `application/a2a+json` (SHOULD), is a successful answer all
/// the same.
const SUCCESS_MAY_GET: [&str; 2] = ["card-cache-headers", "success-content-type"];

/// The SDKs recorded with our own scenarios; the test kit's run (`samples/real/a2a-tck`)
/// has a golden test of its own (`tests/tck_run.rs`).
const SDKS: [&str; 5] = ["a2a-python", "a2a-js", "a2a-go", "a2a-rust", "a2a-java"];

fn captures() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/real");
    let mut files: Vec<PathBuf> = (SDKS.iter())
        .flat_map(|sdk| walkdir::WalkDir::new(root.join(sdk)))
        .map(|entry| entry.unwrap().into_path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "http"))
        .collect();
    files.sort();
    files
}

#[test]
fn real_sdk_traffic_findings() {
    let files = captures();
    for sdk in SDKS {
        for binding in ["jsonrpc", "http-json"] {
            let dir = format!("samples/real/{sdk}/{binding}/");
            let count = files
                .iter()
                .filter(|p| p.to_string_lossy().replace('\\', "/").contains(&dir))
                .count();
            assert!(count >= 20, "only {count} recordings under {dir}");
        }
    }

    let reports: Vec<_> = files.iter().map(|path| common::lint_file(path)).collect();

    for report in &reports {
        assert!(report.exchanges > 0, "{}: no exchange read", report.path);
        for slug in common::fired(report) {
            assert!(
                !CAPTURE_RULES.contains(&slug),
                "{}: {slug}: a recorded exchange was not read as sent",
                report.path
            );
        }
        let scenario = Path::new(&report.path)
            .file_stem()
            .unwrap()
            .to_string_lossy();
        let unexpected: Vec<_> = common::fired(report)
            .into_iter()
            .filter(|slug| !SUCCESS_MAY_GET.contains(slug))
            .collect();
        assert!(
            !SUCCESS_SCENARIOS.contains(&scenario.as_ref()) || unexpected.is_empty(),
            "{}: success traffic must not get findings: {:?}",
            report.path,
            unexpected
        );
    }

    let findings = common::render(Format::Concise, &reports);
    assert_no_run_specific_values(&findings);
    insta::assert_snapshot!(findings);
}

/// The gRPC recordings (`samples/record/record_grpc.py` for a2a-python, the SDK's own
/// recorder for the others; tcpdump on the loopback): every call read as a gRPC call, no
/// capture-level finding, and every finding reviewed in `samples/real/README.md`.
#[test]
fn real_grpc_traffic_findings() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/real");
    let mut files: Vec<PathBuf> = Vec::new();
    for sdk in SDKS {
        let dir = root.join(sdk).join("grpc");
        let before = files.len();
        files.extend(
            std::fs::read_dir(&dir)
                .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
                .map(|entry| entry.unwrap().path())
                .filter(|path| path.extension().is_some_and(|ext| ext == "pcap")),
        );
        assert!(
            files.len() - before >= 15,
            "only {} gRPC recordings of {sdk}",
            files.len() - before
        );
    }
    files.sort();
    let reports: Vec<_> = files.iter().map(|path| common::lint_file(path)).collect();
    for report in &reports {
        assert!(report.exchanges > 0, "{}: no exchange read", report.path);
        // A call past its deadline ends without an answer on purpose: its info-level
        // `unpaired-message` says so.
        let deadline = report.path.ends_with("/deadline.pcap");
        for slug in common::fired(report) {
            let expected = deadline && slug == "unpaired-message";
            assert!(
                expected
                    || !CAPTURE_RULES.contains(&slug)
                        && slug != "capture-incomplete"
                        && slug != "undecodable-body",
                "{}: {slug}: a recorded call was not read as sent",
                report.path
            );
        }
    }
    let findings = common::render(Format::Concise, &reports);
    assert_no_run_specific_values(&findings);
    insta::assert_snapshot!(findings);
}

/// Findings that quote a server-made id or timestamp would change with every recording.
fn assert_no_run_specific_values(findings: &str) {
    for line in findings.lines() {
        let bytes = line.as_bytes();
        for start in 0..bytes.len() {
            let rest = &bytes[start..];
            assert!(!is_uuid(rest), "a finding quotes a UUID: {line}");
            assert!(!is_timestamp(rest), "a finding quotes a timestamp: {line}");
        }
    }
}

/// `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` in hex digits.
fn is_uuid(bytes: &[u8]) -> bool {
    let groups = [8, 4, 4, 4, 12];
    let mut at = 0;
    for (i, len) in groups.into_iter().enumerate() {
        if i > 0 {
            if bytes.get(at) != Some(&b'-') {
                return false;
            }
            at += 1;
        }
        let Some(group) = bytes.get(at..at + len) else {
            return false;
        };
        if !group.iter().all(u8::is_ascii_hexdigit) {
            return false;
        }
        at += len;
    }
    true
}

/// `YYYY-MM-DDThh:mm` as in ISO 8601 timestamps.
fn is_timestamp(bytes: &[u8]) -> bool {
    let pattern = b"dddd-dd-ddTdd:dd";
    bytes.len() >= pattern.len()
        && pattern.iter().zip(bytes).all(|(p, b)| match p {
            b'd' => b.is_ascii_digit(),
            other => other == b,
        })
}
