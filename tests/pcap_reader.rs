//! The wire reader held to captures written by the test writer: every container and
//! link, TCP put back in order whatever the capture did to it, exchanges read back byte
//! for byte with the frames and file bytes they came from, and holes never guessed at.

#[allow(dead_code)]
#[path = "common/pcap/mod.rs"]
mod pcap;

use std::net::SocketAddr;

use a2alint::input::capture::wire::{WireExchange, read_pcap};
use a2alint::{FileReport, Options, lint_source};
use pcap::{
    Conversation, Options as WriteOptions, Packet, Written, data_segments, drop_segment, overlap,
    retransmit, retransmit_at, split, swap, write_capture,
};

const REQUEST: &[u8] = b"POST /a2a HTTP/1.1\r\nHost: agent\r\nContent-Type: application/json\r\nA2A-Version: 1.0\r\nContent-Length: 73\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"GetTask\",\"params\":{\"id\":\"task-000001\"}}";
const RESPONSE: &[u8] = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n1e\r\n{\"jsonrpc\":\"2.0\",\"id\":1,\"error\r\n2d\r\n\":{\"code\":-32001,\"message\":\"Task not found\"}}\r\n0\r\n\r\n";

fn client() -> SocketAddr {
    "10.1.2.3:40123".parse().unwrap()
}

fn server() -> SocketAddr {
    "10.1.2.4:8080".parse().unwrap()
}

fn exchanges(file: &[u8]) -> (Vec<WireExchange>, a2alint::input::capture::wire::Wire) {
    let mut all = Vec::new();
    let wire = read_pcap(file, &mut |exchange| all.push(exchange));
    (all, wire)
}

/// Every byte of every text view is the file's byte its origin names, in the frame whose
/// payload holds it.
fn assert_origins(written: &Written, exchange: &WireExchange) {
    let mut covered = 0;
    for origin in &exchange.origins {
        assert!(origin.exact, "HTTP/1.x bytes are copied as they were");
        assert_eq!(
            &written.bytes[origin.file.range()],
            &exchange.text[origin.text.range()],
            "origin {origin:?}"
        );
        let frame = &written.frames[origin.frame as usize - 1];
        assert_eq!(frame.number, origin.frame);
        assert!(
            origin.file.start >= frame.payload_offset
                && origin.file.end <= frame.payload_offset + frame.payload_len,
            "origin {origin:?} is inside frame {frame:?}'s payload"
        );
        assert_eq!(
            origin.text.start, covered,
            "origins cover the text in order"
        );
        covered = origin.text.end;
    }
    assert_eq!(covered, exchange.text.len());
}

fn expected_text() -> Vec<u8> {
    [REQUEST, RESPONSE].concat()
}

#[test]
fn every_container_and_link_reads_the_exchange_back_exactly() {
    for options in WriteOptions::matrix() {
        for (client, server) in [
            (client(), server()),
            (
                "[fd00::1]:40123".parse().unwrap(),
                "[fd00::2]:8080".parse().unwrap(),
            ),
        ] {
            let conversation = Conversation::http(client, server, REQUEST, RESPONSE).mss(100);
            let written = write_capture(&conversation.packets(), &options);
            let (read, wire) = exchanges(&written.bytes);
            assert_eq!(read.len(), 1, "{options:?} {client}");
            assert_eq!(read[0].text, expected_text(), "{options:?} {client}");
            assert_eq!(read[0].connection.client, client);
            assert_eq!(read[0].connection.server, server);
            assert_origins(&written, &read[0]);
            assert!(wire.problems.is_empty(), "{options:?}: {:?}", wire.problems);
        }
    }
}

/// A conversation whose segments are small, so there are many to shuffle.
fn small_segments() -> Conversation {
    let mut conversation = Conversation::new(client(), server()).mss(24);
    conversation.handshake();
    conversation.exchange(REQUEST, RESPONSE);
    conversation.close();
    conversation
}

fn read_back(
    conversation: &Conversation,
    segments: &[pcap::Segment],
) -> (Written, Vec<WireExchange>) {
    let written = write_capture(&conversation.packets_of(segments), &WriteOptions::default());
    let (read, wire) = exchanges(&written.bytes);
    assert!(wire.problems.is_empty(), "{:?}", wire.problems);
    (written, read)
}

#[test]
fn reordered_retransmitted_and_overlapping_segments_are_taken_once_in_order() {
    let conversation = small_segments();
    let base = conversation.segments().to_vec();
    let client_data = data_segments(&base, true);
    let server_data = data_segments(&base, false);
    let cases: Vec<(&str, Vec<pcap::Segment>)> = vec![
        ("swapped", {
            let mut s = base.clone();
            swap(&mut s, client_data[1], client_data[3]);
            swap(&mut s, server_data[0], server_data[2]);
            s
        }),
        ("retransmitted", {
            let mut s = base.clone();
            retransmit(&mut s, client_data[2]);
            retransmit_at(&mut s, server_data[1], server_data[4]);
            s
        }),
        ("overlapping", {
            let mut s = base.clone();
            overlap(&mut s, client_data[3], 10);
            overlap(&mut s, server_data[2], 5);
            s
        }),
        ("split", {
            let mut s = base.clone();
            split(&mut s, server_data[1], 7);
            s
        }),
        ("reversed", {
            let mut s = base.clone();
            let data: Vec<_> = data_segments(&s, false);
            let (first, last) = (data[0], data[data.len() - 1]);
            s[first..=last].reverse();
            s
        }),
    ];
    for (what, segments) in cases {
        let (written, read) = read_back(&conversation, &segments);
        assert_eq!(read.len(), 1, "{what}");
        assert_eq!(read[0].text, expected_text(), "{what}");
        assert_origins(&written, &read[0]);
    }
}

#[test]
fn sequence_numbers_wrap_around() {
    let mut conversation = Conversation::new(client(), server())
        .isn(u32::MAX - 40, u32::MAX - 3)
        .mss(30);
    conversation.handshake();
    conversation.exchange(REQUEST, RESPONSE);
    conversation.close();
    let (written, read) = read_back(&conversation, conversation.segments());
    assert_eq!(read[0].text, expected_text());
    assert_origins(&written, &read[0]);
}

#[test]
fn a_capture_that_starts_after_the_handshake_is_read() {
    let conversation = Conversation::http(client(), server(), REQUEST, RESPONSE).mss(50);
    let segments: Vec<_> = conversation
        .segments()
        .iter()
        .filter(|s| !s.flags.syn)
        .cloned()
        .collect();
    let (written, read) = read_back(&conversation, &segments);
    assert_eq!(read.len(), 1);
    assert_eq!(
        read[0].connection.client,
        client(),
        "the side that sent the request"
    );
    assert_origins(&written, &read[0]);
}

#[test]
fn keep_alive_and_pipelined_exchanges_pair_in_order() {
    let second_request = REQUEST.to_vec();
    let mut conversation = Conversation::new(client(), server()).mss(64);
    conversation.handshake();
    // Pipelined: both requests before either response.
    conversation.send(true, &[REQUEST, &second_request].concat());
    conversation.send(false, &[RESPONSE, RESPONSE].concat());
    conversation.exchange(REQUEST, RESPONSE);
    conversation.close();
    let (written, read) = read_back(&conversation, conversation.segments());
    assert_eq!(read.len(), 3);
    for (i, exchange) in read.iter().enumerate() {
        assert_eq!(exchange.index, i);
        assert_eq!(exchange.text, expected_text());
        assert_origins(&written, exchange);
    }
}

fn lint(written: &Written) -> FileReport {
    lint_source("run.pcap", &written.bytes, &Options::default())
}

fn rules(report: &FileReport) -> Vec<&'static str> {
    report.diagnostics.iter().map(|d| d.rule.slug()).collect()
}

#[test]
fn a_hole_is_reported_between_its_frames_and_nothing_after_it_is_read() {
    let conversation = small_segments();
    let mut segments = conversation.segments().to_vec();
    let server_data = data_segments(&segments, false);
    let dropped = server_data[2];
    drop_segment(&mut segments, dropped);
    let written = write_capture(
        &conversation.packets_of(&segments),
        &WriteOptions::default(),
    );
    let report = lint(&written);
    // The frame before the hole is the server's previous data segment; the one after it,
    // the next one the capture holds.
    let frame_of = |segment: usize| written.frame_of(segment).number;
    let (before, after) = (frame_of(server_data[1]), frame_of(dropped));
    let incomplete: Vec<_> = report
        .diagnostics
        .iter()
        .filter(|d| d.rule.slug() == "capture-incomplete")
        .collect();
    assert_eq!(incomplete.len(), 1, "{:?}", rules(&report));
    assert!(
        incomplete[0]
            .message
            .contains(&format!("between frames {before} and {after}")),
        "{}",
        incomplete[0].message
    );
    assert_eq!(incomplete[0].primary.frame.as_ref().unwrap().frame, after);
    // The response reaches into the hole: no finding guesses at what it said.
    assert_eq!(rules(&report), ["capture-incomplete"]);
}

#[test]
fn the_same_exchange_without_a_hole_has_its_findings() {
    let report = lint(&write_capture(
        &small_segments().packets(),
        &WriteOptions::default(),
    ));
    let fired = rules(&report);
    assert!(fired.contains(&"error-info-missing"), "{fired:?}");
    assert!(!fired.contains(&"capture-incomplete"), "{fired:?}");
}

#[test]
fn a_packet_cut_by_the_snapshot_length_is_a_hole() {
    let conversation = Conversation::http(client(), server(), REQUEST, RESPONSE);
    let written = write_capture(
        &conversation.packets(),
        &WriteOptions::default().snaplen(120),
    );
    let report = lint(&written);
    let messages: Vec<_> = report
        .diagnostics
        .iter()
        .filter(|d| d.rule.slug() == "capture-incomplete")
        .map(|d| d.message.as_str())
        .collect();
    assert!(!messages.is_empty());
    assert!(messages[0].contains("snapshot length"), "{messages:?}");
    assert_eq!(
        rules(&report)
            .iter()
            .filter(|r| **r != "capture-incomplete")
            .count(),
        0
    );
}

#[test]
fn a_tls_connection_is_named_once_and_not_read() {
    let hello = [&[22u8, 3, 1, 0, 40][..], &[1u8; 40][..]].concat();
    let mut conversation = Conversation::new(client(), "10.1.2.4:443".parse().unwrap());
    conversation.handshake();
    conversation.send(true, &hello);
    conversation.send(false, &[&[22u8, 3, 3, 0, 20][..], &[2u8; 20][..]].concat());
    conversation.send(true, &[&[23u8, 3, 3, 0, 8][..], &[9u8; 8][..]].concat());
    conversation.close();
    let report = lint(&write_capture(
        &conversation.packets(),
        &WriteOptions::default(),
    ));
    assert_eq!(rules(&report), ["capture-incomplete"]);
    let message = &report.diagnostics[0].message;
    assert!(
        message.contains("TLS") && message.contains("443"),
        "{message}"
    );
    assert_eq!(report.wire.unwrap().tls_connections, 1);
}

#[test]
fn traffic_that_is_not_http_is_skipped_and_counted() {
    let mut packets = vec![
        Packet::udp(client(), server(), b"a DNS query, say"),
        Packet::arp("10.1.2.3".parse().unwrap(), "10.1.2.4".parse().unwrap()),
    ];
    let mut other = Conversation::new(
        "10.1.2.3:40500".parse().unwrap(),
        "10.1.2.4:5432".parse().unwrap(),
    );
    other.handshake();
    other.send(true, b"\x00\x00\x00\x08\x04\xd2\x16\x2f");
    other.close();
    packets.extend(other.packets());
    packets.extend(Conversation::http(client(), server(), REQUEST, RESPONSE).packets());
    let report = lint(&write_capture(&packets, &WriteOptions::default()));
    let counts = report.wire.unwrap();
    assert_eq!(counts.skipped_frames, 2);
    assert_eq!(counts.skipped_connections, 1);
    assert_eq!(counts.http_connections, 1);
    assert_eq!(report.exchanges, 1);
    assert!(!rules(&report).contains(&"capture-incomplete"));
}

#[test]
fn an_ip_fragment_is_reported() {
    let conversation = Conversation::http(client(), server(), REQUEST, RESPONSE);
    let mut packets = conversation.packets();
    let data = packets
        .iter()
        .position(|p| matches!(p, Packet::Tcp { segment, .. } if !segment.payload.is_empty()))
        .unwrap();
    let fragmented = packets.remove(data).fragmented(64);
    packets.insert(data, fragmented);
    let report = lint(&write_capture(&packets, &WriteOptions::default()));
    assert!(
        report
            .diagnostics
            .iter()
            .any(|d| d.rule.slug() == "capture-incomplete" && d.message.contains("fragment")),
        "{:?}",
        rules(&report)
    );
}

#[test]
fn a_response_cut_by_a_reset_is_as_on_a_http_file() {
    let mut conversation = Conversation::new(client(), server());
    conversation.handshake();
    conversation.send(true, REQUEST);
    conversation.send(false, &RESPONSE[..RESPONSE.len() - 40]);
    conversation.reset(false);
    let report = lint(&write_capture(
        &conversation.packets(),
        &WriteOptions::default(),
    ));
    let http = [REQUEST, &RESPONSE[..RESPONSE.len() - 40]].concat();
    let expected = lint_source("cut.http", &http, &Options::default());
    assert_eq!(rules(&report), rules(&expected));
}

#[test]
fn a_damaged_or_truncated_file_is_a_finding_with_a_place() {
    let written = write_capture(&small_segments().packets(), &WriteOptions::default());
    let cut = &written.bytes[..written.bytes.len() - 30];
    let report = lint_source("cut.pcap", cut, &Options::default());
    let fired = rules(&report);
    assert!(fired.contains(&"capture-incomplete"), "{fired:?}");
    let mut damaged = written.bytes.clone();
    // A record claiming a gigabyte of captured bytes.
    let second_record = written.frames[1].data_offset - 16;
    damaged[second_record + 8..second_record + 12].copy_from_slice(&0x4000_0000u32.to_le_bytes());
    let report = lint_source("damaged.pcap", &damaged, &Options::default());
    let syntax: Vec<_> = report
        .diagnostics
        .iter()
        .filter(|d| d.rule.slug() == "capture-syntax")
        .collect();
    assert_eq!(syntax.len(), 1, "{:?}", rules(&report));
    assert_eq!(syntax[0].primary.span.start, second_record);
}
