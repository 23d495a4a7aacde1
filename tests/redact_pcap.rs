//! `a2alint redact` on pcap files: every credential byte replaced in place by `*`, so the
//! capture reads back with the same exchanges, framing and TCP checksums, and no secret.

#[allow(dead_code)]
#[path = "common/h2.rs"]
mod h2;
#[allow(dead_code)]
#[path = "common/pcap.rs"]
mod pcap;
#[allow(dead_code)]
#[path = "common/twin.rs"]
mod twin;

use a2alint::capture::HttpReader;
use a2alint::capture::wire::read_pcap;
use a2alint::redact::redact_source;
use a2alint::{Options, lint_source};
use etherparse::{LaxNetSlice, LaxSlicedPacket, TransportSlice};

const SECRETS: &[&str] = &[
    "sk-test-fake-key-0001",
    "fake-session-cookie",
    "fake-set-cookie-value",
    "push-token-fake-123",
    "ZmFrZS1zaWduYXR1cmUtZm9yLXRlc3Rz",
];

/// The redaction test capture without its gzip exchange (a compressed body cannot be
/// masked in place; that case is refused, below).
fn plain_exchanges() -> Vec<u8> {
    let http = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/redact/secrets.http"
    ))
    .unwrap();
    let mut kept = Vec::new();
    for exchange in HttpReader::new(&http) {
        let messages = exchange.request.iter().chain(&exchange.response);
        if messages
            .clone()
            .any(|m| m.header("content-encoding").is_some())
        {
            continue;
        }
        for message in messages {
            kept.extend_from_slice(&http[message.span.range()]);
        }
    }
    kept
}

fn capture(http: &[u8]) -> Vec<u8> {
    let options = pcap::Options::new(pcap::Container::PCAP, pcap::Link::Ethernet);
    twin::twin(http, &options, 120, twin::Connections::KeepAlive)
}

/// Every exchange's bytes joined: what the connections carried (a secret may be split
/// over two segments in the file).
fn carried(file: &[u8]) -> String {
    let mut text = Vec::new();
    read_pcap(file, &mut |wire| text.extend_from_slice(&wire.text));
    String::from_utf8_lossy(&text).into_owned()
}

fn rules(name: &str, bytes: &[u8]) -> Vec<String> {
    (lint_source(name, bytes, &Options::default())
        .diagnostics
        .iter())
    .map(|d| d.rule.slug().to_string())
    .collect()
}

/// Every TCP packet's checksum is right (the writer writes right ones; redaction must
/// keep them so).
fn assert_checksums(file: &[u8]) {
    let mut checked = 0;
    for block in pcap_parser::LegacyPcapSlice::from_slice(file).unwrap() {
        let Ok(pcap_parser::PcapBlockOwned::Legacy(packet)) = block else {
            continue;
        };
        let sliced = LaxSlicedPacket::from_ethernet(packet.data).unwrap();
        let (Some(LaxNetSlice::Ipv4(ip)), Some(TransportSlice::Tcp(tcp))) =
            (&sliced.net, &sliced.transport)
        else {
            continue;
        };
        let expected = tcp
            .calc_checksum_ipv4(ip.header().source(), ip.header().destination())
            .unwrap();
        assert_eq!(tcp.checksum(), expected, "TCP checksum of a packet");
        checked += 1;
    }
    assert!(checked > 10);
}

#[test]
fn a_redacted_pcap_holds_no_secret_and_reads_the_same() {
    let before = capture(&plain_exchanges());
    let text = carried(&before);
    for secret in SECRETS {
        assert!(text.contains(secret), "the capture holds {secret}");
    }
    assert!(rules("run.pcap", &before).contains(&"secret-in-capture".to_string()));

    let redaction = redact_source("run.pcap", &before)
        .unwrap()
        .expect("secrets to redact");
    let after = &redaction.redacted;
    assert_eq!(
        after.len(),
        before.len(),
        "same length: sequence numbers stay right"
    );
    let text = carried(after) + &String::from_utf8_lossy(after);
    for secret in SECRETS {
        assert!(!text.contains(secret), "still holds {secret}");
    }
    assert_checksums(after);
    let without_secrets = |name: &str, bytes: &[u8]| {
        let mut found = rules(name, bytes);
        found.retain(|r| r != "secret-in-capture");
        found
    };
    assert!(!rules("run.pcap", after).contains(&"secret-in-capture".to_string()));
    assert_eq!(
        without_secrets("run.pcap", after),
        without_secrets("run.pcap", &before)
    );
    let count = |file: &[u8]| {
        let mut n = 0;
        read_pcap(file, &mut |_| n += 1);
        n
    };
    assert_eq!(count(after), count(&before));
    assert!(
        redact_source("run.pcap", after).unwrap().is_none(),
        "redacting twice changes nothing"
    );
}

#[test]
fn a_secret_inside_a_compressed_body_is_refused_and_the_file_left_alone() {
    let http = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/redact/secrets.http"
    ))
    .unwrap();
    let error = redact_source("run.pcap", &capture(&http)).unwrap_err();
    assert!(error.contains("compressed body"), "{error}");
}
