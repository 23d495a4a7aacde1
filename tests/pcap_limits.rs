//! Hostile pcaps: a SYN flood of half-open connections and streams of one-byte segments
//! are read within their limits, with a finding where a limit was reached.

#[allow(dead_code)]
#[path = "common/pcap/mod.rs"]
mod pcap;

use std::net::SocketAddr;

use a2alint::{Options, lint_source};
use pcap::{Conversation, Flags, Options as WriteOptions, Packet, Segment, write_capture};

#[test]
fn a_syn_flood_is_cut_at_the_connection_limit_and_said_once() {
    let server: SocketAddr = "10.9.0.1:8080".parse().unwrap();
    let flood = 100_000 + 5;
    let packets: Vec<Packet> = (0..flood)
        .map(|i| {
            let client = SocketAddr::new(
                std::net::Ipv4Addr::from(0x0a0a_0000u32 + (i / 60_000) as u32).into(),
                1024 + (i % 60_000) as u16,
            );
            let syn = Segment {
                from_client: true,
                seq: i as u32,
                ack: 0,
                flags: Flags::SYN,
                payload: Vec::new(),
            };
            Packet::tcp(client, server, syn)
        })
        .collect();
    let report = lint_source(
        "flood.pcap",
        &write_capture(&packets, &WriteOptions::default()).bytes,
        &Options::default(),
    );
    let limits: Vec<_> = report
        .diagnostics
        .iter()
        .filter(|d| d.rule.slug() == "capture-incomplete")
        .collect();
    assert_eq!(limits.len(), 1, "one finding for the whole flood");
    assert!(
        limits[0].message.contains("5 packets"),
        "{}",
        limits[0].message
    );
    assert_eq!(limits[0].primary.frame.as_ref().unwrap().frame, 100_001);
    let counts = report.wire.unwrap();
    assert_eq!(counts.connections, 100_000);
    assert_eq!(
        counts.skipped_connections, 100_000,
        "half-open connections carry nothing"
    );
}

#[test]
fn a_stream_of_one_byte_segments_reads_back_whole() {
    let request = b"GET /tasks/t-1 HTTP/1.1\r\nHost: a\r\nA2A-Version: 1.0\r\n\r\n".repeat(400);
    let response =
        b"HTTP/1.1 200 OK\r\nContent-Type: application/a2a+json\r\nContent-Length: 2\r\n\r\n{}"
            .repeat(400);
    let mut conversation = Conversation::new(
        "10.9.0.2:40000".parse().unwrap(),
        "10.9.0.1:8080".parse().unwrap(),
    )
    .mss(1);
    conversation.handshake();
    conversation.exchange(&request, &response);
    conversation.close();
    let written = write_capture(&conversation.packets(), &WriteOptions::default());
    assert!(written.frames.len() > 50_000);
    let report = lint_source("tiny.pcap", &written.bytes, &Options::default());
    assert_eq!(report.exchanges, 400);
    assert!(
        report.diagnostics.is_empty(),
        "{:?}",
        report
            .diagnostics
            .iter()
            .map(|d| &d.message)
            .collect::<Vec<_>>()
    );
}
