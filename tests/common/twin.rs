//! A `.http` capture's exchanges written as a pcap by the test writer, over HTTP/1.1
//! (the same bytes on the wire) or HTTP/2: a2alint must find the same things in all.

use std::net::SocketAddr;

use a2alint::input::capture::{HttpReader, Message, StartLine};

use crate::h2;
use crate::pcap::{self, Conversation, Options as WriteOptions, write_capture};

/// How a twin carries the capture's exchanges.
#[derive(Clone, Copy, Debug)]
pub enum Connections {
    /// Each exchange on a TCP connection of its own, one after the other.
    OnePerExchange,
    /// Every exchange on one keep-alive connection.
    KeepAlive,
}

/// The capture's exchanges as TCP traffic, with the exact bytes of its messages.
pub fn twin(http: &[u8], options: &WriteOptions, mss: usize, connections: Connections) -> Vec<u8> {
    let server: SocketAddr = "127.0.0.1:41241".parse().unwrap();
    let mut lists = Vec::new();
    let mut shared = Conversation::new("127.0.0.1:49999".parse().unwrap(), server).mss(mss);
    shared.handshake();
    for (i, exchange) in HttpReader::new(http).enumerate() {
        let client: SocketAddr = format!("127.0.0.1:{}", 50000 + i).parse().unwrap();
        let bytes = |m: &a2alint::input::capture::Message<'_>| wire_bytes(http, m);
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

/// A message's bytes as they crossed the wire. A message's span stops before the line
/// ends that close a chunked body (the last chunk's and the trailer section's: in a
/// `.http` file they read as the gap before the next message); on the wire they are part
/// of the message.
fn wire_bytes(http: &[u8], message: &a2alint::input::capture::Message<'_>) -> Vec<u8> {
    let chunked = message
        .header("transfer-encoding")
        .is_some_and(|h| h.value.eq_ignore_ascii_case(b"chunked"));
    let mut end = message.span.end;
    if chunked {
        let ends = http[end..]
            .iter()
            .take(4)
            .take_while(|&&b| b == b'\r' || b == b'\n')
            .count();
        end += ends;
    }
    http[message.span.start..end].to_vec()
}

/// Fields HTTP/2 has no place for (RFC 9113 §8.2.2), and the framing HTTP/2 does itself.
const HTTP1_ONLY: [&str; 5] = [
    "host",
    "connection",
    "keep-alive",
    "transfer-encoding",
    "upgrade",
];

/// One `.http` message as HTTP/2 fields and body: pseudo-headers first, names in lower
/// case, the body de-chunked; a content-coded body is sent coded, as it came.
fn h2_message(http: &[u8], message: &Message<'_>) -> (Vec<(String, String)>, Vec<u8>) {
    let mut fields = Vec::new();
    match message.start_line {
        StartLine::Request { method, target } => {
            let authority = message
                .header("host")
                .and_then(|h| h.value_str())
                .unwrap_or("agent");
            fields.push((":method".to_string(), method.to_string()));
            fields.push((":scheme".to_string(), "http".to_string()));
            fields.push((":authority".to_string(), authority.to_string()));
            fields.push((":path".to_string(), target.to_string()));
        }
        StartLine::Response { status, .. } => {
            fields.push((":status".to_string(), status.to_string()))
        }
    }
    let chunked = message.header("transfer-encoding").is_some();
    for header in &message.headers {
        let name = header.name.to_ascii_lowercase();
        // A chunked body's bytes are taken decoded (the reader keeps no de-chunked coded
        // copy), so its content coding goes with it.
        let decoded = chunked && name == "content-encoding";
        if !HTTP1_ONLY.contains(&name.as_str()) && !decoded {
            fields.push((name, String::from_utf8_lossy(header.value).into_owned()));
        }
    }
    let body = if message.header("content-encoding").is_some() && !chunked {
        http[message.body.raw.range()].to_vec()
    } else {
        message.body.bytes().unwrap_or_default().to_vec()
    };
    (fields, body)
}

/// The capture's exchanges as streams of one HTTP/2 connection (prior knowledge).
pub fn h2_twin(http: &[u8]) -> Option<Vec<u8>> {
    let mut exchanges = Vec::new();
    for exchange in HttpReader::new(http) {
        let (request, response) = (exchange.request.as_ref()?, exchange.response.as_ref()?);
        if !exchange.interim.is_empty() || request.method() == Some("HEAD") {
            return None;
        }
        let (request_headers, request_body) = h2_message(http, request);
        let (response_headers, response_body) = h2_message(http, response);
        exchanges.push(h2::H2Exchange {
            request_headers,
            request_body,
            response_headers,
            response_body,
            trailers: Vec::new(),
            huffman: exchanges.len() % 2 == 1,
        });
    }
    let (client, server) = h2::h2_conversation(&exchanges);
    let mut conversation = pcap::Conversation::new(
        "127.0.0.1:50100".parse().unwrap(),
        "127.0.0.1:41242".parse().unwrap(),
    )
    .mss(700);
    conversation.handshake();
    conversation.send(true, &client);
    conversation.send(false, &server);
    conversation.close();
    Some(pcap::write_capture(&conversation.packets(), &WriteOptions::default()).bytes)
}
