//! The sockets, messages and conversations the tests write.

use std::net::SocketAddr;

use crate::pcap::{Conversation, Packet, Written};

pub(crate) fn sock(s: &str) -> SocketAddr {
    s.parse().unwrap()
}

pub(crate) const REQUEST: &[u8] = b"POST /a2a HTTP/1.1\r\nHost: agent.example\r\nContent-Type: application/json\r\nContent-Length: 58\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"message/send\",\"params\":{}}";
pub(crate) const RESPONSE: &[u8] = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 36\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}";

pub(crate) fn conversation(client: &str, server: &str) -> Conversation {
    let mut conv = Conversation::new(sock(client), sock(server)).mss(64);
    conv.handshake();
    conv.exchange(REQUEST, RESPONSE);
    conv.close();
    conv
}

/// The bytes one side sent, rebuilt from the file through each frame's payload offset.
pub(crate) fn stream_from_file(written: &Written, packets: &[Packet], from: SocketAddr) -> Vec<u8> {
    let mut stream = Vec::new();
    for frame in &written.frames {
        if matches!(&packets[frame.packet], Packet::Tcp { src, .. } if *src == from) {
            stream.extend_from_slice(written.payload(frame));
        }
    }
    stream
}
