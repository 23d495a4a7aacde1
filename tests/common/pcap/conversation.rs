//! A TCP [`Conversation`] built turn by turn, with the right sequence and acknowledgement numbers.

use std::net::SocketAddr;

use super::packet::{Flags, Packet, Segment};

/// A TCP conversation between two sockets (both IPv4 or both IPv6), built turn by turn.
///
/// Each side's next sequence number starts at its ISN; [`handshake`](Self::handshake) uses
/// one from each. Skipping the handshake gives a connection already open when the capture
/// started. Every method appends segments; [`segments_mut`](Self::segments_mut) gives
/// the list to rearrange.
#[derive(Clone, Debug)]
pub struct Conversation {
    client: SocketAddr,
    server: SocketAddr,
    isn_client: u32,
    isn_server: u32,
    mss: usize,
    next_client: u32,
    next_server: u32,
    segments: Vec<Segment>,
}

impl Conversation {
    /// The client's initial sequence number unless [`isn`](Self::isn) says otherwise.
    pub const DEFAULT_ISN_CLIENT: u32 = 0x1000_0000;
    /// The server's initial sequence number unless [`isn`](Self::isn) says otherwise.
    pub const DEFAULT_ISN_SERVER: u32 = 0x2000_0000;
    /// The segment size unless [`mss`](Self::mss) says otherwise.
    pub const DEFAULT_MSS: usize = 1460;

    /// A conversation with no segments yet; ISNs [`DEFAULT_ISN_CLIENT`](Self::DEFAULT_ISN_CLIENT)
    /// and [`DEFAULT_ISN_SERVER`](Self::DEFAULT_ISN_SERVER), MSS 1460.
    pub fn new(client: SocketAddr, server: SocketAddr) -> Self {
        assert_eq!(
            client.is_ipv4(),
            server.is_ipv4(),
            "client and server must be of one address family"
        );
        Conversation {
            client,
            server,
            isn_client: Self::DEFAULT_ISN_CLIENT,
            isn_server: Self::DEFAULT_ISN_SERVER,
            mss: Self::DEFAULT_MSS,
            next_client: Self::DEFAULT_ISN_CLIENT,
            next_server: Self::DEFAULT_ISN_SERVER,
            segments: Vec::new(),
        }
    }

    /// The handshake, `request` from the client, `response` from the server, and
    /// [`close`](Self::close).
    pub fn http(client: SocketAddr, server: SocketAddr, request: &[u8], response: &[u8]) -> Self {
        let mut conv = Conversation::new(client, server);
        conv.handshake();
        conv.exchange(request, response);
        conv.close();
        conv
    }

    /// Sets the initial sequence numbers (e.g. near `u32::MAX` to test wrap-around). Only
    /// before any segment.
    pub fn isn(mut self, client: u32, server: u32) -> Self {
        assert!(self.segments.is_empty(), "set the ISNs before any segment");
        self.isn_client = client;
        self.isn_server = server;
        self.next_client = client;
        self.next_server = server;
        self
    }

    /// Sets the largest payload of a segment [`send`](Self::send) makes.
    pub fn mss(mut self, mss: usize) -> Self {
        assert!(mss > 0, "the MSS must be positive");
        self.mss = mss;
        self
    }

    /// The client's socket.
    pub fn client(&self) -> SocketAddr {
        self.client
    }

    /// The server's socket.
    pub fn server(&self) -> SocketAddr {
        self.server
    }

    /// The sequence number the given side sends next.
    pub fn next_seq(&self, from_client: bool) -> u32 {
        if from_client {
            self.next_client
        } else {
            self.next_server
        }
    }

    /// Appends a segment from `from_client`'s side at its next sequence number, acknowledging
    /// everything the other side sent, and advances the sequence number.
    fn emit(&mut self, from_client: bool, flags: Flags, payload: &[u8]) {
        let segment = Segment {
            from_client,
            seq: self.next_seq(from_client),
            ack: if flags.ack {
                self.next_seq(!from_client)
            } else {
                0
            },
            flags,
            payload: payload.to_vec(),
        };
        let end = segment.end();
        if from_client {
            self.next_client = end;
        } else {
            self.next_server = end;
        }
        self.segments.push(segment);
    }

    /// SYN (client), SYN-ACK (server), ACK (client).
    pub fn handshake(&mut self) {
        self.next_client = self.isn_client;
        self.next_server = self.isn_server;
        self.emit(true, Flags::SYN, &[]);
        self.emit(false, Flags::SYN_ACK, &[]);
        self.emit(true, Flags::ACK, &[]);
    }

    /// `bytes` from one side, in segments of at most the MSS, each ACK, the last PSH + ACK.
    /// Nothing for no bytes.
    pub fn send(&mut self, from_client: bool, bytes: &[u8]) {
        let count = bytes.len().div_ceil(self.mss);
        for (i, chunk) in bytes.chunks(self.mss).enumerate() {
            let flags = if i + 1 == count {
                Flags::PSH_ACK
            } else {
                Flags::ACK
            };
            self.emit(from_client, flags, chunk);
        }
    }

    /// `request` from the client, then `response` from the server.
    pub fn exchange(&mut self, request: &[u8], response: &[u8]) {
        self.send(true, request);
        self.send(false, response);
    }

    /// A bare ACK from one side.
    pub fn ack(&mut self, from_client: bool) {
        self.emit(from_client, Flags::ACK, &[]);
    }

    /// FIN + ACK from one side (a half close).
    pub fn fin(&mut self, from_client: bool) {
        self.emit(from_client, Flags::FIN_ACK, &[]);
    }

    /// Client FIN, server ACK, server FIN, client ACK.
    pub fn close(&mut self) {
        self.fin(true);
        self.ack(false);
        self.fin(false);
        self.ack(true);
    }

    /// RST + ACK from one side.
    pub fn reset(&mut self, from_client: bool) {
        self.emit(from_client, Flags::RST_ACK, &[]);
    }

    /// Appends a hand-made segment as is (the next sequence numbers do not move).
    pub fn push(&mut self, segment: Segment) {
        self.segments.push(segment);
    }

    /// The segments so far.
    pub fn segments(&self) -> &[Segment] {
        &self.segments
    }

    /// The segments so far, to rearrange (see [`swap`], [`retransmit`], [`overlap`], ...).
    pub fn segments_mut(&mut self) -> &mut Vec<Segment> {
        &mut self.segments
    }

    /// The segments.
    pub fn into_segments(self) -> Vec<Segment> {
        self.segments
    }

    /// A segment of this conversation as a packet with its addresses.
    pub fn packet(&self, segment: &Segment) -> Packet {
        let (src, dst) = if segment.from_client {
            (self.client, self.server)
        } else {
            (self.server, self.client)
        };
        Packet::tcp(src, dst, segment.clone())
    }

    /// Every segment, in order, as packets.
    pub fn packets(&self) -> Vec<Packet> {
        self.packets_of(&self.segments)
    }

    /// These segments (e.g. a rearranged copy of [`segments`](Self::segments)) as packets
    /// between this conversation's sockets.
    pub fn packets_of(&self, segments: &[Segment]) -> Vec<Packet> {
        segments.iter().map(|s| self.packet(s)).collect()
    }
}
