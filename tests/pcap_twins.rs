//! Golden test: every recording in `samples/real/` read from a pcap twin (its exchanges
//! written as TCP connections by the test writer) gives the same findings, rule by rule,
//! exchange by exchange and member by member, as the `.http` file itself.

#[allow(dead_code)]
#[path = "common/pcap.rs"]
mod pcap;

use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use a2alint::capture::HttpReader;
use a2alint::{Options, lint_source};
use pcap::{Container, Conversation, Link, Options as WriteOptions, write_capture};

fn recordings() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/real");
    walkdir::WalkDir::new(root)
        .sort_by_file_name()
        .into_iter()
        .map(|entry| entry.unwrap().into_path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "http"))
        .collect()
}

/// How a twin carries the capture's exchanges.
#[derive(Clone, Copy, Debug)]
enum Connections {
    /// Each exchange on a TCP connection of its own, one after the other.
    OnePerExchange,
    /// Every exchange on one keep-alive connection.
    KeepAlive,
}

/// The capture's exchanges as TCP traffic, with the exact bytes of its messages.
fn twin(http: &[u8], options: &WriteOptions, mss: usize, connections: Connections) -> Vec<u8> {
    let server: SocketAddr = "127.0.0.1:41241".parse().unwrap();
    let mut lists = Vec::new();
    let mut shared = Conversation::new("127.0.0.1:49999".parse().unwrap(), server).mss(mss);
    shared.handshake();
    for (i, exchange) in HttpReader::new(http).enumerate() {
        let client: SocketAddr = format!("127.0.0.1:{}", 50000 + i).parse().unwrap();
        let bytes = |m: &a2alint::capture::Message<'_>| http[m.span.range()].to_vec();
        let request = exchange.request.as_ref().map(bytes).unwrap_or_default();
        let mut response: Vec<u8> = exchange.interim.iter().flat_map(bytes).collect();
        response.extend(exchange.response.as_ref().map(bytes).unwrap_or_default());
        if let Connections::KeepAlive = connections {
            shared.exchange(&request, &response);
            continue;
        }
        let mut conversation = Conversation::new(client, server).mss(mss);
        conversation.handshake();
        conversation.exchange(&request, &response);
        conversation.close();
        lists.push(conversation.packets());
    }
    shared.close();
    if let Connections::KeepAlive = connections {
        lists.push(shared.packets());
    }
    // One connection after the other: their exchanges keep the file's order.
    let packets: Vec<_> = lists.into_iter().flatten().collect();
    write_capture(&packets, options).bytes
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
