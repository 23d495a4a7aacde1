//! pcap findings in CI: fingerprints and baselines that hold when unrelated traffic is
//! added to the capture, and `[[ignore]]` by connection and HTTP/2 stream.

#[allow(dead_code)]
#[path = "common/pcap/mod.rs"]
mod pcap;

use std::net::SocketAddr;

use a2alint::{Options, lint_source};
use assert_cmd::Command;
use pcap::{Conversation, Options as WriteOptions, Packet, write_capture};

const REQUEST: &[u8] = b"POST /a2a HTTP/1.1\r\nHost: agent\r\nContent-Type: application/json\r\nContent-Length: 73\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"GetTask\",\"params\":{\"id\":\"task-000001\"}}";
const RESPONSE: &[u8] = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 75\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32001,\"message\":\"Task not found\"}}";

fn agent() -> SocketAddr {
    "10.3.0.1:8080".parse().unwrap()
}

fn exchange_from(port: u16) -> Vec<Packet> {
    let client = SocketAddr::new("10.3.0.2".parse().unwrap(), port);
    Conversation::http(client, agent(), REQUEST, RESPONSE).packets()
}

fn fingerprints(bytes: &[u8]) -> Vec<(String, String)> {
    let mut found: Vec<_> = lint_source("captures/run.pcap", bytes, &Options::default())
        .diagnostics
        .into_iter()
        .map(|d| (d.rule.slug().to_string(), d.fingerprint))
        .collect();
    found.sort();
    found
}

#[test]
fn fingerprints_hold_when_unrelated_packets_are_added() {
    let alone = write_capture(&exchange_from(40000), &WriteOptions::default());
    let mut busy = vec![
        Packet::udp(
            "10.3.0.9:5353".parse().unwrap(),
            "10.3.0.8:5353".parse().unwrap(),
            b"mdns",
        ),
        Packet::arp("10.3.0.9".parse().unwrap(), "10.3.0.8".parse().unwrap()),
    ];
    let mut other = Conversation::new(
        "10.3.0.5:41000".parse().unwrap(),
        "10.3.0.6:5432".parse().unwrap(),
    );
    other.handshake();
    other.send(true, b"\x00\x00\x00\x08\x04\xd2\x16\x2f");
    busy.extend(pcap::interleave(vec![
        other.packets(),
        exchange_from(40000),
    ]));
    let busy = write_capture(&busy, &WriteOptions::default());
    let before = fingerprints(&alone.bytes);
    assert!(!before.is_empty());
    assert_eq!(fingerprints(&busy.bytes), before);
}

fn a2alint(dir: &tempfile::TempDir) -> Command {
    let mut cmd = Command::cargo_bin("a2alint").unwrap();
    cmd.current_dir(dir.path())
        .args(["check", "--no-progress", "--format", "concise"]);
    cmd
}

#[test]
fn a_baseline_written_before_still_matches_after_traffic_is_added() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("run.pcap"),
        write_capture(&exchange_from(40000), &WriteOptions::default()).bytes,
    )
    .unwrap();
    a2alint(&dir)
        .args(["--write-baseline", "baseline.json", "run.pcap"])
        .assert()
        .code(0);
    // The same run recorded with another, clean exchange on a connection before it.
    let clean = Conversation::http(
        "10.3.0.2:39000".parse().unwrap(),
        agent(),
        b"GET /tasks/task-1 HTTP/1.1\r\nHost: agent\r\nAccept: application/a2a+json\r\nA2A-Version: 1.0\r\n\r\n",
        b"HTTP/1.1 200 OK\r\nContent-Type: application/a2a+json\r\nContent-Length: 2\r\n\r\n{}",
    );
    let packets: Vec<_> = [clean.packets(), exchange_from(40000)].concat();
    std::fs::write(
        dir.path().join("run.pcap"),
        write_capture(&packets, &WriteOptions::default()).bytes,
    )
    .unwrap();
    let report = lint_source(
        "run.pcap",
        &std::fs::read(dir.path().join("run.pcap")).unwrap(),
        &Options::default(),
    );
    assert_eq!(report.exchanges, 2);
    let out = a2alint(&dir)
        .args(["--baseline", "baseline.json", "run.pcap"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(
        out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn an_ignore_names_one_connection() {
    let dir = tempfile::tempdir().unwrap();
    let packets = [exchange_from(40000), exchange_from(40001)].concat();
    std::fs::write(
        dir.path().join("run.pcap"),
        write_capture(&packets, &WriteOptions::default()).bytes,
    )
    .unwrap();
    let all = a2alint(&dir)
        .arg("--no-config")
        .arg("run.pcap")
        .output()
        .unwrap();
    let all = String::from_utf8_lossy(&all.stdout).into_owned();
    let count = |text: &str| {
        text.lines()
            .filter(|l| l.contains("error-info-missing"))
            .count()
    };
    assert_eq!(count(&all), 2, "{all}");
    std::fs::write(
        dir.path().join("a2alint.toml"),
        "[[ignore]]\nfiles = [\"run.pcap\"]\nrules = [\"error-info-missing\"]\nconnection = 2\nreason = \"a known agent\"\n",
    )
    .unwrap();
    let out = a2alint(&dir).arg("run.pcap").output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(count(&text), 1, "{text}");
    // The one left is connection 1's: its response is the first one in the file.
    let first_response_frame = |text: &str| {
        text.lines()
            .find(|l| l.contains("error-info-missing"))
            .and_then(|l| l.split(':').nth(1))
            .map(str::to_string)
    };
    assert_eq!(first_response_frame(&text), first_response_frame(&all));
    std::fs::write(
        dir.path().join("a2alint.toml"),
        "[[ignore]]\nfiles = [\"run.pcap\"]\nrules = [\"error-info-missing\"]\nconnection = 1\nstream = 1\n",
    )
    .unwrap();
    let out = a2alint(&dir).arg("run.pcap").output().unwrap();
    assert_eq!(
        count(&String::from_utf8_lossy(&out.stdout)),
        2,
        "HTTP/1.x findings have no stream"
    );
}

fn tls_connection(port: u16) -> Vec<Packet> {
    let mut conversation = Conversation::new(
        SocketAddr::new("10.3.0.2".parse().unwrap(), port),
        "10.3.0.1:443".parse().unwrap(),
    );
    conversation.handshake();
    conversation.send(true, &[&[22u8, 3, 1, 0, 8][..], &[1u8; 8][..]].concat());
    conversation.close();
    conversation.packets()
}

#[test]
fn findings_about_connections_are_told_apart_and_ignored_by_connection() {
    let dir = tempfile::tempdir().unwrap();
    let write = |packets: &[Packet]| {
        std::fs::write(
            dir.path().join("run.pcap"),
            write_capture(packets, &WriteOptions::default()).bytes,
        )
        .unwrap()
    };
    write(&tls_connection(41000));
    a2alint(&dir)
        .args([
            "--no-config",
            "--write-baseline",
            "baseline.json",
            "run.pcap",
        ])
        .assert()
        .code(0);
    // A second encrypted connection is a new finding, not the baselined one again.
    write(&[tls_connection(41000), tls_connection(41001)].concat());
    let out = a2alint(&dir)
        .args(["--no-config", "--baseline", "baseline.json", "run.pcap"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let lines: Vec<_> = text
        .lines()
        .filter(|l| l.contains("capture-incomplete"))
        .collect();
    assert_eq!(lines.len(), 1, "{text}");
    assert!(lines[0].contains("10.3.0.2:41001"), "{text}");
    // And an ignore by connection silences one of them.
    std::fs::write(
        dir.path().join("a2alint.toml"),
        "[[ignore]]\nfiles = [\"run.pcap\"]\nrules = [\"capture-incomplete\"]\nconnection = 1\n",
    )
    .unwrap();
    let out = a2alint(&dir).arg("run.pcap").output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let lines: Vec<_> = text
        .lines()
        .filter(|l| l.contains("capture-incomplete"))
        .collect();
    assert_eq!(lines.len(), 1, "{text}");
    assert!(lines[0].contains("connection 2"), "{text}");
}
