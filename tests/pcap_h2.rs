//! HTTP/2 read off the wire end to end: how a stream ended is said in the finding, and
//! an `Upgrade: h2c` connection gives its exchanges like a prior-knowledge one.

#[allow(dead_code)]
#[path = "common/h2.rs"]
mod h2;
#[allow(dead_code)]
#[path = "common/pcap/mod.rs"]
mod pcap;

use a2alint::{FileReport, Options, lint_source};
use h2::{Hpack, fields, frame, header_frames, settings, settings_ack};

fn request_block(hpack: &mut Hpack) -> Vec<u8> {
    hpack.block(
        &fields(&[
            (":method", "POST"),
            (":scheme", "http"),
            (":authority", "agent"),
            (":path", "/a2a"),
            ("content-type", "application/json"),
            ("a2a-version", "1.0"),
        ]),
        false,
    )
}

const BODY: &[u8] = br#"{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"t-1"}}"#;

/// One request on stream 1, and what the server sends back instead of an answer.
fn lint(client_after: &[u8], server_after: &[u8]) -> FileReport {
    let mut hpack = Hpack::default();
    let mut client = h2::PREFACE.to_vec();
    client.extend(settings(&[]));
    client.extend(settings_ack());
    client.extend(header_frames(1, &request_block(&mut hpack), false));
    client.extend(h2::data_frames(1, BODY, true));
    client.extend(client_after);
    let mut server = settings(&[]);
    server.extend(settings_ack());
    server.extend(server_after);
    let mut conversation = pcap::Conversation::new(
        "10.5.0.2:40000".parse().unwrap(),
        "10.5.0.1:50051".parse().unwrap(),
    );
    conversation.handshake();
    conversation.send(true, &client);
    conversation.send(false, &server);
    conversation.close();
    let file = pcap::write_capture(&conversation.packets(), &pcap::Options::default()).bytes;
    lint_source("h2.pcap", &file, &Options::default())
}

fn unpaired(report: &FileReport) -> Vec<(String, &'static str)> {
    (report.diagnostics.iter())
        .filter(|d| d.rule.slug() == "unpaired-message")
        .map(|d| (d.message.clone(), d.severity.as_str()))
        .collect()
}

fn rst_stream(stream: u32, code: u32) -> Vec<u8> {
    frame(h2::RST_STREAM, 0, stream, &code.to_be_bytes())
}

#[test]
fn a_stream_the_server_reset_is_a_warning_that_says_so() {
    let report = lint(&[], &rst_stream(1, 2));
    assert_eq!(
        unpaired(&report),
        [(
            "the server reset the stream (INTERNAL_ERROR) instead of answering".to_string(),
            "warning"
        )]
    );
}

#[test]
fn a_stream_the_client_cancelled_is_only_noted() {
    let report = lint(&rst_stream(1, 8), &[]);
    assert_eq!(
        unpaired(&report),
        [(
            "the client reset the stream (CANCEL) before a response came".to_string(),
            "info"
        )]
    );
}

#[test]
fn a_stream_past_a_goaway_is_only_noted() {
    // GOAWAY: last stream id 0, NO_ERROR: stream 1 was never processed.
    let goaway = frame(h2::GOAWAY, 0, 0, &[0, 0, 0, 0, 0, 0, 0, 0]);
    let report = lint(&[], &goaway);
    assert_eq!(
        unpaired(&report),
        [(
            "the server's GOAWAY refused the stream before it was processed".to_string(),
            "info"
        )]
    );
}

#[test]
fn an_unanswered_stream_at_the_end_of_the_capture_is_unpaired() {
    let report = lint(&[], &[]);
    assert_eq!(
        unpaired(&report),
        [(
            "request has no response in the capture".to_string(),
            "warning"
        )]
    );
}

#[test]
fn an_upgrade_to_h2c_reads_stream_one_as_the_upgraded_request() {
    let upgrade = b"GET /tasks/t-1 HTTP/1.1\r\nHost: agent\r\nA2A-Version: 1.0\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQAAP__\r\n\r\n";
    let mut client = upgrade.to_vec();
    client.extend(h2::PREFACE);
    client.extend(settings(&[]));
    client.extend(settings_ack());
    let mut server =
        b"HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: h2c\r\n\r\n".to_vec();
    server.extend(settings(&[]));
    server.extend(settings_ack());
    let mut hpack = Hpack::default();
    let block = hpack.block(
        &fields(&[(":status", "404"), ("content-type", "application/a2a+json")]),
        true,
    );
    server.extend(header_frames(1, &block, false));
    server.extend(h2::data_frames(
        1,
        br#"{"error":{"code":404,"status":"NOT_FOUND","message":"Task not found"}}"#,
        true,
    ));
    let mut conversation = pcap::Conversation::new(
        "10.5.0.2:40001".parse().unwrap(),
        "10.5.0.1:8080".parse().unwrap(),
    );
    conversation.handshake();
    conversation.send(true, &client);
    conversation.send(false, &server);
    conversation.close();
    let file = pcap::write_capture(&conversation.packets(), &pcap::Options::default()).bytes;
    let rows = a2alint::protocol::inspect::inspect_source("up.pcap", &file, Default::default());
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(
        (rows[0].status, rows[0].stream, rows[0].operation),
        (Some(404), Some(1), Some("GetTask"))
    );
    let report = lint_source("up.pcap", &file, &Options::default());
    let fired: Vec<_> = report.diagnostics.iter().map(|d| d.rule.slug()).collect();
    assert!(fired.contains(&"error-info-missing"), "{fired:?}");
    assert!(
        !fired
            .iter()
            .any(|r| r.starts_with("capture") || *r == "unpaired-message"),
        "{fired:?}"
    );
}
