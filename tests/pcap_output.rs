//! What a user sees of findings in a pcap, in the human, concise, JSON and SARIF formats
//! (snapshots), and that the SARIF validates against the schema.

mod common;

#[allow(dead_code)]
#[path = "common/pcap/mod.rs"]
mod pcap;

use a2alint::output::report::Format;
use a2alint::{FileReport, Options, lint_source};
use pcap::{Conversation, Options as WriteOptions, write_capture};

const REQUEST: &[u8] = b"POST /a2a HTTP/1.1\r\nHost: agent.example.com\r\nAuthorization: Bearer sk-live-0123456789abcdef\r\nContent-Type: application/json\r\nA2A-Version: 1.0\r\nContent-Length: 73\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"GetTask\",\"params\":{\"id\":\"task-000404\"}}";
const RESPONSE: &[u8] = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 76\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":7,\"error\":{\"code\":-32001,\"message\":\"no task with id\"}}";

fn report() -> FileReport {
    // Small segments: the request and the response each span several frames.
    let mut conversation = Conversation::new(
        "192.0.2.10:40222".parse().unwrap(),
        "192.0.2.20:8080".parse().unwrap(),
    )
    .mss(96);
    conversation.handshake();
    conversation.exchange(REQUEST, RESPONSE);
    conversation.close();
    let written = write_capture(&conversation.packets(), &WriteOptions::default());
    lint_source("captures/run.pcap", &written.bytes, &Options::default())
}

#[test]
fn findings_name_the_frame_in_every_format() {
    let reports = [report()];
    let fired = common::fired(&reports[0]);
    assert!(fired.contains(&"secret-in-capture"), "{fired:?}");
    assert!(
        fired.contains(&"jsonrpc-standard-message") || fired.len() > 1,
        "{fired:?}"
    );
    for format in [Format::Human, Format::Concise, Format::Json, Format::Sarif] {
        let text = common::render(format, &reports);
        assert!(
            !text.contains("sk-live-0123456789abcdef"),
            "{format:?} leaks the captured credential"
        );
        let text = text.replace(
            &format!("\"{}\"", env!("CARGO_PKG_VERSION")),
            "\"[version]\"",
        );
        if format == Format::Sarif {
            common::validate_sarif(&text);
        }
        insta::assert_snapshot!(format!("pcap_{format:?}").to_lowercase(), text);
    }
}

#[test]
fn inspect_names_each_exchange_by_its_frame_and_stream() {
    let mut conversation = Conversation::new(
        "192.0.2.10:40222".parse().unwrap(),
        "192.0.2.20:8080".parse().unwrap(),
    );
    conversation.handshake();
    conversation.exchange(REQUEST, RESPONSE);
    conversation.exchange(REQUEST, RESPONSE);
    conversation.close();
    let written = write_capture(&conversation.packets(), &WriteOptions::default());
    let rows =
        a2alint::protocol::inspect::inspect_source("run.pcap", &written.bytes, Default::default());
    let places: Vec<_> = rows.iter().map(|r| (r.frame, r.stream, r.line)).collect();
    // Each row is placed at the frame that carries its request's first bytes.
    let request_frames: Vec<u32> = (written.frames.iter())
        .filter(|f| f.payload_len > 0 && written.payload(f).starts_with(b"POST"))
        .map(|f| f.number)
        .collect();
    assert_eq!(
        places,
        request_frames
            .iter()
            .map(|&f| (Some(f), None, None))
            .collect::<Vec<_>>()
    );
    assert!(
        rows.iter()
            .all(|r| r.error.as_deref() == Some("TaskNotFoundError")),
        "{rows:?}"
    );
}
