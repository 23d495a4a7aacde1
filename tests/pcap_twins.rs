//! Golden test: every recording in `samples/real/` read from a pcap twin (its exchanges
//! written as TCP connections by the test writer) gives the same findings, rule by rule,
//! exchange by exchange and member by member, as the `.http` file itself.

#[allow(dead_code)]
#[path = "common/h2.rs"]
mod h2;
#[allow(dead_code)]
#[path = "common/pcap/mod.rs"]
mod pcap;
#[allow(dead_code)]
#[path = "common/twin.rs"]
mod twin;

use std::path::{Path, PathBuf};

use a2alint::{Options, lint_source};
use pcap::{Container, Link, Options as WriteOptions};
use twin::{Connections, twin};

fn recordings() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/real");
    walkdir::WalkDir::new(root)
        .sort_by_file_name()
        .into_iter()
        .map(|entry| entry.unwrap().into_path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "http"))
        .collect()
}

/// What a finding is about, independent of where it is shown: rule, exchange, member.
type About = (String, Option<usize>, Option<String>);

/// The exchanges read, and what every finding is about.
fn findings(path: &str, bytes: &[u8]) -> (usize, Vec<About>) {
    let report = lint_source(path, bytes, &Options::default());
    let mut found: Vec<_> = report
        .diagnostics
        .iter()
        .map(|d| (d.rule.slug().to_string(), d.exchange, d.member.clone()))
        .collect();
    found.sort();
    (report.exchanges, found)
}

#[test]
fn every_real_recording_reads_the_same_from_a_pcap() {
    let files = recordings();
    assert!(files.len() >= 80, "only {} recordings", files.len());
    let mut compared = 0;
    let layouts = [
        (
            WriteOptions::new(Container::PCAP, Link::Ethernet),
            1460,
            Connections::OnePerExchange,
        ),
        (
            WriteOptions::new(Container::PCAPNG, Link::LinuxSll),
            536,
            Connections::KeepAlive,
        ),
    ];
    for path in &files {
        let http = std::fs::read(path).unwrap();
        let name = path.to_string_lossy();
        let expected = findings(&name, &http);
        assert!(expected.0 > 0, "{name} holds exchanges");
        for (options, mss, connections) in &layouts {
            let pcap = twin(&http, options, *mss, *connections);
            assert_eq!(
                findings("twin.pcap", &pcap),
                expected,
                "{name} read from a pcap ({options:?}, mss {mss}, {connections:?})"
            );
            compared += expected.1.len();
        }
    }
    assert!(compared > 100, "only {compared} findings compared");
}

/// Rule and member of every finding, counted, for a set of captures.
fn finding_counts(
    paths: &[PathBuf],
) -> std::collections::BTreeMap<(String, Option<String>), usize> {
    let mut counts = std::collections::BTreeMap::new();
    for path in paths {
        let bytes = std::fs::read(path).unwrap();
        for (rule, _, member) in findings(&path.to_string_lossy(), &bytes).1 {
            *counts.entry((rule, member)).or_default() += 1;
        }
    }
    counts
}

#[test]
fn real_tcpdump_captures_agree_with_the_recordings_of_the_same_scenarios() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/real/a2a-python");
    for binding in ["jsonrpc", "http-json"] {
        let pcap = root.join(format!("pcap/{binding}.pcap"));
        let report = lint_source(
            "real.pcap",
            &std::fs::read(&pcap).unwrap(),
            &Options::default(),
        );
        for d in &report.diagnostics {
            assert!(
                !matches!(
                    d.rule.slug(),
                    "capture-syntax"
                        | "capture-incomplete"
                        | "content-length-mismatch"
                        | "unpaired-message"
                ),
                "{}: {} {}",
                pcap.display(),
                d.rule,
                d.message
            );
        }
        let recordings: Vec<PathBuf> = recordings()
            .into_iter()
            .filter(|p| p.starts_with(root.join(binding)))
            .collect();
        assert_eq!(
            finding_counts(std::slice::from_ref(&pcap)),
            finding_counts(&recordings),
            "{}: the same scenarios as samples/real/a2a-python/{binding}/",
            pcap.display()
        );
    }
}

#[test]
fn every_real_recording_reads_the_same_over_http2() {
    let mut compared = 0;
    for path in recordings() {
        let http = std::fs::read(&path).unwrap();
        let Some(pcap) = twin::h2_twin(&http) else {
            continue;
        };
        let name = path.to_string_lossy();
        let (exchanges, found) = findings("h2.pcap", &pcap);
        let (expected_exchanges, expected) = findings(&name, &http);
        assert_eq!(exchanges, expected_exchanges, "{name} over HTTP/2");
        assert_eq!(found, expected, "{name} over HTTP/2");
        compared += 1;
    }
    assert!(
        compared >= 80,
        "only {compared} recordings compared over HTTP/2"
    );
}
