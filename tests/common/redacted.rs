//! What a redacted pcap must show, for the redaction tests: the exchanges read as before
//! with only credentials changed, every TCP checksum right, the lint's findings.

use a2alint::input::capture::wire::read_pcap;
use a2alint::input::capture::{Exchange, HttpReader};
use a2alint::input::secrets::{is_credential_header, is_placeholder};
use a2alint::{Options, lint_source};
use etherparse::{
    LaxIpv4Slice as Ipv4Slice, LaxNetSlice, LaxSlicedPacket, TcpSlice, TransportSlice,
};

/// The credentials in `tests/data/redact/secrets.http`.
pub const SECRETS: &[&str] = &[
    "sk-test-fake-key-0001",
    "fake-session-cookie",
    "fake-set-cookie-value",
    "push-token-fake-123",
    "ZmFrZS1zaWduYXR1cmUtZm9yLXRlc3Rz",
];

/// The redaction test capture without its gzip exchange (a compressed body cannot be
/// masked in place; that case is refused).
pub fn plain_exchanges() -> Vec<u8> {
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

/// Every exchange's text view joined: what the connections carried, decoded (a secret
/// may be split over two segments in the file, or Huffman-coded).
pub fn carried(file: &[u8]) -> String {
    let mut text = Vec::new();
    read_pcap(file, &mut |wire| text.extend_from_slice(&wire.text));
    String::from_utf8_lossy(&text).into_owned()
}

pub fn rules(name: &str, bytes: &[u8]) -> Vec<String> {
    (lint_source(name, bytes, &Options::default())
        .diagnostics
        .iter())
    .map(|d| d.rule.slug().to_string())
    .collect()
}

/// The rules that fire, but `secret-in-capture`.
pub fn rules_but_secrets(name: &str, bytes: &[u8]) -> Vec<String> {
    let mut found = rules(name, bytes);
    found.retain(|r| r != "secret-in-capture");
    found
}

/// Every TCP packet's checksum is right (the writer writes right ones; redaction must
/// keep them so).
pub fn assert_checksums(file: &[u8]) {
    let mut checked = 0;
    for_each_tcp(file, &mut |ip, tcp| {
        let expected = tcp
            .calc_checksum_ipv4(ip.header().source(), ip.header().destination())
            .unwrap();
        assert_eq!(tcp.checksum(), expected, "TCP checksum of a packet");
        checked += 1;
    });
    assert!(checked > 5, "{checked} packets");
}

/// Every TCP payload in the file, joined in file order: a string split over segments
/// is whole here when its direction's segments follow each other.
pub fn payloads(file: &[u8]) -> Vec<u8> {
    let mut joined = Vec::new();
    for_each_tcp(file, &mut |_, tcp| joined.extend_from_slice(tcp.payload()));
    joined
}

/// Each TCP packet of a classic pcap on Ethernet over IPv4, as the test captures are.
fn for_each_tcp(file: &[u8], each: &mut dyn FnMut(&Ipv4Slice<'_>, &TcpSlice<'_>)) {
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
        each(ip, tcp);
    }
}

/// What the file reads as, line by line, with every credential header's value given by
/// its length only: two files that differ only in credentials of the same lengths read
/// the same. Bodies are given by length too (a secret in one is masked in place).
pub fn reading(file: &[u8]) -> Vec<String> {
    let mut lines = Vec::new();
    let wire = read_pcap(file, &mut |wire| {
        lines.push(format!(
            "exchange {} on stream {:?}, {:?}, problems {:?}",
            wire.index, wire.stream, wire.end, wire.problems
        ));
        match wire.http2_exchange() {
            Some(exchange) => describe(&exchange, &mut lines),
            None => HttpReader::new(&wire.text).for_each(|e| describe(&e, &mut lines)),
        }
    });
    lines.push(format!("problems {:?}", wire.problems));
    lines
}

fn describe(exchange: &Exchange<'_>, lines: &mut Vec<String>) {
    let messages = exchange.request.iter().chain(&exchange.interim);
    for message in messages.chain(&exchange.response) {
        lines.push(format!("{:?}", message.start_line));
        for header in message.headers.iter().chain(&message.trailers) {
            let value = if is_credential_header(header.name) {
                format!("<credential of {} bytes>", header.value.len()).into()
            } else {
                String::from_utf8_lossy(header.value)
            };
            lines.push(format!("{}: {value}", header.name));
        }
        let body = message.body.content.as_ref().map(|c| c.bytes.len());
        lines.push(format!("body {body:?}"));
    }
}

/// The credential header values the file shows that are not placeholders.
pub fn unmasked(file: &[u8]) -> Vec<String> {
    let mut found = Vec::new();
    let mut check = |exchange: &Exchange<'_>| {
        let messages = exchange.request.iter().chain(&exchange.response);
        for message in messages {
            for header in message.headers.iter().chain(&message.trailers) {
                if is_credential_header(header.name) && !is_placeholder(header.value) {
                    found.push(String::from_utf8_lossy(header.value).into_owned());
                }
            }
        }
    };
    read_pcap(file, &mut |wire| match wire.http2_exchange() {
        Some(exchange) => check(&exchange),
        None => HttpReader::new(&wire.text).for_each(|e| check(&e)),
    });
    found
}
