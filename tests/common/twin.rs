//! A `.http` capture's exchanges written as a pcap by the test writer: the same bytes
//! on the wire, so a2alint must find the same things in both.

use std::net::SocketAddr;

use a2alint::capture::HttpReader;

use crate::pcap::{Conversation, Options as WriteOptions, write_capture};

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
        let bytes = |m: &a2alint::capture::Message<'_>| wire_bytes(http, m);
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
fn wire_bytes(http: &[u8], message: &a2alint::capture::Message<'_>) -> Vec<u8> {
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
