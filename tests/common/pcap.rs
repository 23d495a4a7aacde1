//! A pcap / pcapng **writer** for integration tests.
//!
//! It turns TCP conversations (and a few kinds of packets that a reader must skip) into
//! capture files: deterministic, with valid IPv4 / TCP / UDP checksums, and with a record
//! of where each frame's TCP payload lies in the file, so a test can point at exact bytes.
//!
//! # Building blocks
//!
//! * [`Conversation`] builds one TCP connection turn by turn: [`handshake`], [`send`]
//!   (split into MSS-sized segments with the right sequence and acknowledgement numbers),
//!   [`close`], [`reset`]. Its [`Segment`]s can be reordered, retransmitted, dropped,
//!   overlapped or split with the free functions [`swap`], [`retransmit`],
//!   [`retransmit_at`], [`drop_segment`], [`overlap`] and [`split`] before being turned into
//!   [`Packet`]s with [`Conversation::packets`] / [`Conversation::packets_of`].
//! * [`Packet`] is one thing to write: a TCP segment between two sockets, or something a
//!   reader must skip or report — a UDP datagram, an ARP request, an IP packet cut into two
//!   fragments, or raw bytes. Packets of several conversations can be mixed freely (see
//!   [`interleave`]).
//! * [`write_capture`] writes a list of packets into one capture as [`Options`] say
//!   ([`Container`] × [`Link`], snap length, a few header variations) and returns the file
//!   with a [`WrittenFrame`] per frame.
//!
//! ```ignore
//! let client: SocketAddr = "10.0.0.1:40000".parse().unwrap();
//! let server: SocketAddr = "10.0.0.2:8080".parse().unwrap();
//! let conv = Conversation::http(client, server, b"POST / HTTP/1.1\r\n...", b"HTTP/1.1 200 OK\r\n...");
//! let written = write_capture(&conv.packets(), &Options::new(Container::PCAPNG, Link::Ethernet));
//! std::fs::write(dir.join("a.pcapng"), &written.bytes).unwrap();
//! ```
//!
//! # What the output looks like
//!
//! * Timestamps start at [`START_SECONDS`] (Unix time) and advance 1 ms per frame
//!   ([`FRAME_SPACING_MICROS`]).
//! * MAC addresses are made from the IP addresses (`02:00:` + the last four bytes), IPv4 TTL
//!   and IPv6 hop limit are 64, IPv4 identifications count up from `0x1000`, non-fragments
//!   carry the Don't Fragment flag, the TCP window is 65535, SYNs carry an MSS option (1460).
//! * pcapng: one section (with an `shb_userappl` option); interfaces have `if_name` and
//!   `if_tsresol` (= 6, microseconds) options; packets are Enhanced Packet Blocks.
//! * Frames are numbered from 1 in file order; every [`Packet`] gives one frame, except
//!   [`Packet::Fragmented`], which gives two.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::ops::Range;

use etherparse::{
    IpFragOffset, IpNumber, Ipv4Header, Ipv6FlowLabel, Ipv6Header, TcpHeader, TcpOptionElement,
    UdpHeader,
};

/// Unix time, in seconds, of the first frame of every capture.
pub const START_SECONDS: u32 = 1_700_000_000;
/// Time between consecutive frames, in microseconds.
pub const FRAME_SPACING_MICROS: u64 = 1_000;
/// The VLAN identifier of [`Link::EthernetVlan`] frames (priority 0).
pub const VLAN_ID: u16 = 100;
/// The address family [`Link::Null`] writes for IPv4.
pub const NULL_AF_INET: u32 = 2;
/// The address family [`Link::Null`] writes for IPv6 (macOS's `AF_INET6`; BSDs use 24 or 28).
pub const NULL_AF_INET6: u32 = 30;
/// The interface index written in [`Link::LinuxSll2`] headers.
pub const SLL2_IF_INDEX: u32 = 2;
/// The type of the unknown pcapng block written with `odd_blocks` (no registered meaning).
pub const UNKNOWN_BLOCK_TYPE: u32 = 0x0000_0A2A;
/// The MSS option value carried by SYN segments.
pub const SYN_MSS_OPTION: u16 = 1460;

// ---------------------------------------------------------------------------------------
// Options
// ---------------------------------------------------------------------------------------

/// The file format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Container {
    /// Classic libpcap (version 2.4): a 24-byte file header, then a 16-byte record header per
    /// frame.
    Pcap {
        /// Nanosecond timestamps (magic `a1b23c4d`) instead of microseconds (`a1b2c3d4`).
        nanos: bool,
        /// Every field big-endian (as written on a big-endian host).
        big_endian: bool,
    },
    /// pcapng: a Section Header Block, Interface Description Blocks, then one Enhanced Packet
    /// Block per frame.
    PcapNg {
        /// The section is big-endian.
        big_endian: bool,
        /// Extra interfaces declared before the capture's (packets go to the last one). They
        /// have a different link type than the capture's ([`Link::RawIp`] if the capture is
        /// [`Link::Ethernet`], else [`Link::Ethernet`]), so a reader that takes interface 0's
        /// link type for every packet misreads them.
        extra_interfaces: usize,
        /// Also write blocks a reader must skip: an unknown block type
        /// ([`UNKNOWN_BLOCK_TYPE`], after the first frame), and a Simple Packet Block at the
        /// very end (after every [`WrittenFrame`], so frame numbers stay the same whether a
        /// reader counts it or not) holding a UDP datagram on interface 0. Every Enhanced
        /// Packet Block also gets an `opt_comment` option ("frame N").
        odd_blocks: bool,
    },
}

impl Container {
    /// Classic pcap, microseconds, little-endian.
    pub const PCAP: Container = Container::Pcap {
        nanos: false,
        big_endian: false,
    };
    /// pcapng, little-endian, one interface, no odd blocks.
    pub const PCAPNG: Container = Container::PcapNg {
        big_endian: false,
        extra_interfaces: 0,
        odd_blocks: false,
    };

    /// A list of containers that together cover every variation this writer has.
    pub fn variants() -> Vec<Container> {
        let mut all = Vec::new();
        for big_endian in [false, true] {
            for nanos in [false, true] {
                all.push(Container::Pcap { nanos, big_endian });
            }
            all.push(Container::PcapNg {
                big_endian,
                extra_interfaces: 0,
                odd_blocks: false,
            });
            all.push(Container::PcapNg {
                big_endian,
                extra_interfaces: 2,
                odd_blocks: true,
            });
        }
        all
    }

    /// Whether the file is written big-endian.
    pub fn big_endian(self) -> bool {
        match self {
            Container::Pcap { big_endian, .. } | Container::PcapNg { big_endian, .. } => big_endian,
        }
    }
}

/// The link layer of every frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Link {
    /// Ethernet II (DLT 1): destination MAC, source MAC, EtherType.
    Ethernet,
    /// Ethernet II (DLT 1) with an 802.1Q tag ([`VLAN_ID`]) before the EtherType.
    EthernetVlan,
    /// Linux cooked capture v1 (DLT 113), 16 bytes: packet type (0 to us, 4 sent by us),
    /// ARPHRD_ETHER, address length 6, source MAC padded to 8, protocol.
    LinuxSll,
    /// Linux cooked capture v2 (DLT 276), 20 bytes: protocol, reserved, interface index
    /// ([`SLL2_IF_INDEX`]), ARPHRD_ETHER, packet type, address length 6, source MAC padded
    /// to 8.
    LinuxSll2,
    /// BSD loopback (DLT 0): a 4-byte address family in the file's byte order
    /// ([`NULL_AF_INET`], [`NULL_AF_INET6`]). Cannot carry ARP.
    Null,
    /// Raw IP (DLT 101): the IP packet, no link header. Cannot carry ARP.
    RawIp,
}

impl Link {
    /// Every link type.
    pub const ALL: [Link; 6] = [
        Link::Ethernet,
        Link::EthernetVlan,
        Link::LinuxSll,
        Link::LinuxSll2,
        Link::Null,
        Link::RawIp,
    ];

    /// The pcap / pcapng link-type number.
    pub fn linktype(self) -> u16 {
        match self {
            Link::Ethernet | Link::EthernetVlan => 1,
            Link::LinuxSll => 113,
            Link::LinuxSll2 => 276,
            Link::Null => 0,
            Link::RawIp => 101,
        }
    }

    /// Bytes of link header before the network-layer packet.
    pub fn header_len(self) -> usize {
        match self {
            Link::Ethernet => 14,
            Link::EthernetVlan => 18,
            Link::LinuxSll => 16,
            Link::LinuxSll2 => 20,
            Link::Null => 4,
            Link::RawIp => 0,
        }
    }

    /// Whether [`Packet::Arp`] can be written on this link.
    pub fn carries_arp(self) -> bool {
        !matches!(self, Link::Null | Link::RawIp)
    }
}

/// How [`write_capture`] writes a capture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// The file format.
    pub container: Container,
    /// The link layer.
    pub link: Link,
    /// Bytes of each frame kept (0 = all): frames longer than this are cut as `tcpdump -s`
    /// does (captured length < original length). Also written as the file's / interface's
    /// snap length (pcap writes 262144 for 0).
    pub snaplen: u32,
    /// Every TCP segment carries a timestamp option (NOP, NOP, TS: 12 bytes), so TCP headers
    /// are 32 bytes (36 on SYNs) instead of 20 (24).
    pub tcp_timestamps: bool,
    /// IPv4 headers carry 4 bytes of options (NOP NOP NOP EOL; IHL 6); IPv6 packets carry a
    /// hop-by-hop extension header (8 bytes, PadN) before the transport header.
    pub ip_options: bool,
    /// Ethernet frames shorter than 60 bytes are zero-padded to 60, as network cards do: the
    /// padding follows the IP packet, so a reader must go by the IP length, not the frame's.
    pub ethernet_padding: bool,
}

impl Default for Options {
    /// Classic pcap (µs, little-endian) on Ethernet, nothing cut, plain headers.
    fn default() -> Self {
        Options::new(Container::PCAP, Link::Ethernet)
    }
}

impl Options {
    /// These container and link, nothing cut, plain headers.
    pub fn new(container: Container, link: Link) -> Self {
        Options {
            container,
            link,
            snaplen: 0,
            tcp_timestamps: false,
            ip_options: false,
            ethernet_padding: false,
        }
    }

    /// Every [`Container::variants`] × [`Link::ALL`] combination, plain headers.
    pub fn matrix() -> Vec<Options> {
        Container::variants()
            .into_iter()
            .flat_map(|container| {
                Link::ALL
                    .into_iter()
                    .map(move |link| Options::new(container, link))
            })
            .collect()
    }

    /// The same options with this snap length.
    pub fn snaplen(mut self, snaplen: u32) -> Self {
        self.snaplen = snaplen;
        self
    }
}

// ---------------------------------------------------------------------------------------
// Segments and packets
// ---------------------------------------------------------------------------------------

/// TCP header flags.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Flags {
    pub syn: bool,
    pub ack: bool,
    pub fin: bool,
    pub rst: bool,
    pub psh: bool,
}

impl Flags {
    /// SYN alone (a connection's first segment).
    pub const SYN: Flags = Flags {
        syn: true,
        ack: false,
        fin: false,
        rst: false,
        psh: false,
    };
    /// SYN + ACK (the server's answer).
    pub const SYN_ACK: Flags = Flags {
        ack: true,
        ..Flags::SYN
    };
    /// ACK alone.
    pub const ACK: Flags = Flags {
        syn: false,
        ack: true,
        fin: false,
        rst: false,
        psh: false,
    };
    /// PSH + ACK (the last segment of a `send`).
    pub const PSH_ACK: Flags = Flags {
        psh: true,
        ..Flags::ACK
    };
    /// FIN + ACK.
    pub const FIN_ACK: Flags = Flags {
        fin: true,
        ..Flags::ACK
    };
    /// RST + ACK.
    pub const RST_ACK: Flags = Flags {
        rst: true,
        ..Flags::ACK
    };
}

/// One TCP segment to write.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Segment {
    /// Sent by the client (else by the server).
    pub from_client: bool,
    /// Sequence number.
    pub seq: u32,
    /// Acknowledgement number (written as is; meaningful when `flags.ack`).
    pub ack: u32,
    pub flags: Flags,
    pub payload: Vec<u8>,
}

impl Segment {
    /// Sequence space taken: payload bytes, plus one for SYN and one for FIN.
    pub fn seq_len(&self) -> u32 {
        self.payload.len() as u32 + u32::from(self.flags.syn) + u32::from(self.flags.fin)
    }

    /// The sequence number after this segment (wrapping).
    pub fn end(&self) -> u32 {
        self.seq.wrapping_add(self.seq_len())
    }
}

/// One thing [`write_capture`] writes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Packet {
    /// A TCP segment from `src` to `dst` (both IPv4 or both IPv6). `segment.from_client`
    /// only picks the Linux cooked packet type (4 "sent by us" if from the client, else 0).
    Tcp {
        src: SocketAddr,
        dst: SocketAddr,
        segment: Segment,
    },
    /// A UDP datagram (both addresses IPv4 or both IPv6), with a valid checksum.
    Udp {
        src: SocketAddr,
        dst: SocketAddr,
        payload: Vec<u8>,
    },
    /// An ARP request (`sender` asks who has `target`). Only on links where
    /// [`Link::carries_arp`]; the writer panics on others.
    Arp { sender: Ipv4Addr, target: Ipv4Addr },
    /// A [`Packet::Tcp`] or [`Packet::Udp`] cut into two IP fragments, in order: the first
    /// carries the first `first_len` bytes of the IP payload (transport header included;
    /// rounded down to a multiple of 8, and at least 8), the second the rest. IPv4 uses the
    /// fragment offset / More Fragments fields; IPv6 a Fragment extension header. The
    /// transport checksum is the unfragmented packet's.
    Fragmented {
        packet: Box<Packet>,
        first_len: usize,
    },
    /// A network-layer packet written as is (no checksum fixing) after a link header for
    /// IPv4 (`v6 == false`) or IPv6.
    RawIp { v6: bool, bytes: Vec<u8> },
    /// Link-layer bytes written as the whole frame, as is (for malformed frames).
    RawFrame { bytes: Vec<u8> },
}

impl Packet {
    /// A [`Packet::Tcp`].
    pub fn tcp(src: SocketAddr, dst: SocketAddr, segment: Segment) -> Packet {
        Packet::Tcp { src, dst, segment }
    }

    /// A [`Packet::Udp`].
    pub fn udp(src: SocketAddr, dst: SocketAddr, payload: &[u8]) -> Packet {
        Packet::Udp {
            src,
            dst,
            payload: payload.to_vec(),
        }
    }

    /// A [`Packet::Arp`] request.
    pub fn arp(sender: Ipv4Addr, target: Ipv4Addr) -> Packet {
        Packet::Arp { sender, target }
    }

    /// This packet as two IP fragments; see [`Packet::Fragmented`].
    pub fn fragmented(self, first_len: usize) -> Packet {
        Packet::Fragmented {
            packet: Box::new(self),
            first_len,
        }
    }
}

// ---------------------------------------------------------------------------------------
// Conversations
// ---------------------------------------------------------------------------------------

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

/// Swaps segments `i` and `j` (out-of-order delivery).
pub fn swap(segments: &mut [Segment], i: usize, j: usize) {
    segments.swap(i, j);
}

/// Inserts a copy of segment `i` right after it (a retransmission).
pub fn retransmit(segments: &mut Vec<Segment>, i: usize) {
    retransmit_at(segments, i, i + 1);
}

/// Inserts a copy of segment `i` at position `at` (a late retransmission if `at` is further
/// on; `at` counts positions before the insertion).
pub fn retransmit_at(segments: &mut Vec<Segment>, i: usize, at: usize) {
    let copy = segments[i].clone();
    segments.insert(at, copy);
}

/// Removes segment `i` (a gap in its direction's stream, or a lost ACK) and returns it.
pub fn drop_segment(segments: &mut Vec<Segment>, i: usize) -> Segment {
    segments.remove(i)
}

/// Splits segment `i` into two at payload byte `at` (0 < `at` < payload length): the first
/// keeps only ACK among its flags, the second keeps them all.
pub fn split(segments: &mut Vec<Segment>, i: usize, at: usize) {
    let segment = &mut segments[i];
    assert!(
        at > 0 && at < segment.payload.len(),
        "split point {at} is not inside a {}-byte payload",
        segment.payload.len()
    );
    let tail = Segment {
        seq: segment.seq.wrapping_add(at as u32),
        payload: segment.payload.split_off(at),
        ..segment.clone()
    };
    segment.flags = Flags {
        ack: segment.flags.ack,
        ..Flags::default()
    };
    segments.insert(i + 1, tail);
}

/// Makes segment `i` start `back` bytes earlier: it re-sends the `back` bytes before it,
/// which other segments of the same direction carry, then its own (new) bytes — a
/// retransmission overlapping what came before. Change the payload afterwards for an
/// overlap whose bytes disagree. Panics if some of those bytes are in no other segment.
pub fn overlap(segments: &mut [Segment], i: usize, back: usize) {
    let (from_client, seq) = (segments[i].from_client, segments[i].seq);
    let start = seq.wrapping_sub(back as u32);
    let earlier: Vec<u8> = (0..back)
        .map(|k| {
            let want = start.wrapping_add(k as u32);
            segments
                .iter()
                .enumerate()
                .filter(|&(j, s)| j != i && s.from_client == from_client)
                .find_map(|(_, s)| {
                    // Payload starts after the SYN's sequence number.
                    let first = s.seq.wrapping_add(u32::from(s.flags.syn));
                    let index = want.wrapping_sub(first) as usize;
                    s.payload.get(index).copied()
                })
                .unwrap_or_else(|| panic!("no segment carries sequence number {want}"))
        })
        .collect();
    let segment = &mut segments[i];
    segment.seq = start;
    segment.payload.splice(0..0, earlier);
}

/// Indices of the segments from one side that carry payload.
pub fn data_segments(segments: &[Segment], from_client: bool) -> Vec<usize> {
    segments
        .iter()
        .enumerate()
        .filter(|(_, s)| s.from_client == from_client && !s.payload.is_empty())
        .map(|(i, _)| i)
        .collect()
}

/// Round-robin merge: the first packet of each list, then the second of each, and so on
/// (lists may differ in length).
pub fn interleave(lists: Vec<Vec<Packet>>) -> Vec<Packet> {
    let mut iters: Vec<_> = lists.into_iter().map(Vec::into_iter).collect();
    let mut out = Vec::new();
    loop {
        let before = out.len();
        out.extend(iters.iter_mut().filter_map(Iterator::next));
        if out.len() == before {
            return out;
        }
    }
}

// ---------------------------------------------------------------------------------------
// Output
// ---------------------------------------------------------------------------------------

/// A written capture.
#[derive(Clone, Debug)]
pub struct Written {
    /// The whole file.
    pub bytes: Vec<u8>,
    /// Every frame, in file order (the pcapng Simple Packet Block of `odd_blocks` is not one).
    pub frames: Vec<WrittenFrame>,
}

/// Where one frame went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WrittenFrame {
    /// The frame number, from 1.
    pub number: u32,
    /// Index of the [`Packet`] in [`write_capture`]'s input that gave this frame.
    pub packet: usize,
    /// Where the frame's link-layer bytes start in the file.
    pub data_offset: usize,
    /// Bytes of the frame in the file (after `snaplen`).
    pub caplen: usize,
    /// Bytes of the frame on the wire.
    pub origlen: usize,
    /// Where the transport payload (TCP or UDP data) carried by this frame starts in the
    /// file. For frames with no such payload (ARP, raw), `data_offset + caplen`.
    pub payload_offset: usize,
    /// Payload bytes of this frame in the file (after `snaplen`; 0 if cut before them).
    pub payload_len: usize,
    /// Which byte of the packet's payload `payload_offset` holds: 0, except for the second
    /// fragment of a [`Packet::Fragmented`].
    pub payload_from: usize,
    /// The frame's timestamp, in microseconds since the Unix epoch.
    pub timestamp_micros: u64,
}

impl Written {
    /// The payload bytes of a frame, as in the file.
    pub fn payload(&self, frame: &WrittenFrame) -> &[u8] {
        &self.bytes[frame.payload_offset..frame.payload_offset + frame.payload_len]
    }

    /// The frame's link-layer bytes, as in the file.
    pub fn data(&self, frame: &WrittenFrame) -> &[u8] {
        &self.bytes[frame.data_offset..frame.data_offset + frame.caplen]
    }

    /// The frames of one input packet (two for a [`Packet::Fragmented`], else one).
    pub fn frames_of(&self, packet: usize) -> Vec<&WrittenFrame> {
        self.frames.iter().filter(|f| f.packet == packet).collect()
    }

    /// The (first) frame of one input packet.
    pub fn frame_of(&self, packet: usize) -> &WrittenFrame {
        self.frames
            .iter()
            .find(|f| f.packet == packet)
            .unwrap_or_else(|| panic!("packet {packet} gave no frame"))
    }
}

// ---------------------------------------------------------------------------------------
// Frame building
// ---------------------------------------------------------------------------------------

/// A frame's link-layer bytes, before the container, and where its payload lies in them.
struct Frame {
    data: Vec<u8>,
    payload_start: usize,
    payload_len: usize,
    payload_from: usize,
}

/// What a link header announces.
#[derive(Clone, Copy)]
enum Net {
    Ipv4,
    Ipv6,
    Arp,
}

impl Net {
    fn ethertype(self) -> u16 {
        match self {
            Net::Ipv4 => 0x0800,
            Net::Ipv6 => 0x86DD,
            Net::Arp => 0x0806,
        }
    }
}

/// Counters that make successive packets differ, deterministically.
struct State {
    ip_id: u16,
    tcp_clock: u32,
}

/// Appends integers in one byte order.
struct Out {
    bytes: Vec<u8>,
    big_endian: bool,
}

impl Out {
    fn u16(&mut self, v: u16) {
        let b = if self.big_endian {
            v.to_be_bytes()
        } else {
            v.to_le_bytes()
        };
        self.bytes.extend_from_slice(&b);
    }

    fn u32(&mut self, v: u32) {
        let b = if self.big_endian {
            v.to_be_bytes()
        } else {
            v.to_le_bytes()
        };
        self.bytes.extend_from_slice(&b);
    }

    fn put_u32_at(&mut self, at: usize, v: u32) {
        let b = if self.big_endian {
            v.to_be_bytes()
        } else {
            v.to_le_bytes()
        };
        self.bytes[at..at + 4].copy_from_slice(&b);
    }

    fn raw(&mut self, b: &[u8]) {
        self.bytes.extend_from_slice(b);
    }

    fn pad4(&mut self) {
        while self.bytes.len() & 3 != 0 {
            self.bytes.push(0);
        }
    }

    fn len(&self) -> usize {
        self.bytes.len()
    }
}

/// `02:00:` and the last four bytes of the address.
fn mac_of(ip: IpAddr) -> [u8; 6] {
    let tail = match ip {
        IpAddr::V4(a) => a.octets(),
        IpAddr::V6(a) => {
            let o = a.octets();
            [o[12], o[13], o[14], o[15]]
        }
    };
    [0x02, 0x00, tail[0], tail[1], tail[2], tail[3]]
}

/// The link header for a network-layer packet.
fn link_header(
    link: Link,
    big_endian: bool,
    net: Net,
    src_mac: [u8; 6],
    dst_mac: [u8; 6],
    outgoing: bool,
) -> Vec<u8> {
    let ethertype = net.ethertype().to_be_bytes();
    let packet_type: u16 = if outgoing { 4 } else { 0 };
    let mut h = Vec::with_capacity(link.header_len());
    match link {
        Link::Ethernet | Link::EthernetVlan => {
            h.extend_from_slice(&dst_mac);
            h.extend_from_slice(&src_mac);
            if link == Link::EthernetVlan {
                h.extend_from_slice(&0x8100u16.to_be_bytes());
                h.extend_from_slice(&VLAN_ID.to_be_bytes());
            }
            h.extend_from_slice(&ethertype);
        }
        Link::LinuxSll => {
            h.extend_from_slice(&packet_type.to_be_bytes());
            h.extend_from_slice(&1u16.to_be_bytes()); // ARPHRD_ETHER
            h.extend_from_slice(&6u16.to_be_bytes());
            h.extend_from_slice(&src_mac);
            h.extend_from_slice(&[0, 0]);
            h.extend_from_slice(&ethertype);
        }
        Link::LinuxSll2 => {
            h.extend_from_slice(&ethertype);
            h.extend_from_slice(&[0, 0]); // reserved
            h.extend_from_slice(&SLL2_IF_INDEX.to_be_bytes());
            h.extend_from_slice(&1u16.to_be_bytes()); // ARPHRD_ETHER
            h.push(packet_type as u8);
            h.push(6);
            h.extend_from_slice(&src_mac);
            h.extend_from_slice(&[0, 0]);
        }
        Link::Null => {
            let family = match net {
                Net::Ipv4 => NULL_AF_INET,
                Net::Ipv6 => NULL_AF_INET6,
                Net::Arp => panic!("{link:?} cannot carry ARP"),
            };
            let b = if big_endian {
                family.to_be_bytes()
            } else {
                family.to_le_bytes()
            };
            h.extend_from_slice(&b);
        }
        Link::RawIp => {
            if let Net::Arp = net {
                panic!("{link:?} cannot carry ARP");
            }
        }
    }
    debug_assert_eq!(h.len(), link.header_len());
    h
}

/// One IP packet (or fragment) and which bytes of the transport segment it carries.
struct IpPiece {
    bytes: Vec<u8>,
    header_len: usize,
    range: Range<usize>,
}

/// The IP packet(s) carrying `transport`: one, or two fragments split at `split`.
fn ip_pieces(
    src: IpAddr,
    dst: IpAddr,
    protocol: IpNumber,
    transport: &[u8],
    split: Option<usize>,
    options: &Options,
    id: u16,
) -> Vec<IpPiece> {
    let mut ranges = Vec::with_capacity(2);
    match split {
        None => ranges.push(0..transport.len()),
        Some(at) => ranges.extend([0..at, at..transport.len()]),
    }
    let fragmented = split.is_some();
    ranges
        .into_iter()
        .enumerate()
        .map(|(k, range)| {
            let carried = &transport[range.clone()];
            let more = fragmented && k == 0;
            let offset_units = (range.start / 8) as u16;
            let mut bytes = match (src, dst) {
                (IpAddr::V4(s), IpAddr::V4(d)) => {
                    let mut h = Ipv4Header::new(0, 64, protocol, s.octets(), d.octets())
                        .expect("IPv4 header");
                    h.identification = id;
                    if options.ip_options {
                        h.options = [1u8, 1, 1, 0].into(); // NOP NOP NOP EOL
                    }
                    h.set_payload_len(carried.len()).expect("IPv4 payload fits");
                    h.dont_fragment = !fragmented;
                    h.more_fragments = more;
                    h.fragment_offset = IpFragOffset::try_new(offset_units).expect("offset");
                    h.header_checksum = h.calc_header_checksum();
                    h.to_bytes().to_vec()
                }
                (IpAddr::V6(s), IpAddr::V6(d)) => {
                    // Extension headers, built from the innermost out.
                    let mut next = protocol;
                    let mut exts = Vec::new();
                    if fragmented {
                        let field = (offset_units << 3) | u16::from(more);
                        let mut frag = vec![next.0, 0];
                        frag.extend_from_slice(&field.to_be_bytes());
                        frag.extend_from_slice(&u32::from(id).to_be_bytes());
                        exts.splice(0..0, frag);
                        next = IpNumber::IPV6_FRAGMENTATION_HEADER;
                    }
                    if options.ip_options {
                        // Hop-by-hop options: one PadN option filling the 8 bytes.
                        exts.splice(0..0, [next.0, 0, 1, 4, 0, 0, 0, 0]);
                        next = IpNumber::IPV6_HEADER_HOP_BY_HOP;
                    }
                    let h = Ipv6Header {
                        traffic_class: 0,
                        flow_label: Ipv6FlowLabel::ZERO,
                        payload_length: u16::try_from(exts.len() + carried.len())
                            .expect("IPv6 payload fits"),
                        next_header: next,
                        hop_limit: 64,
                        source: s.octets(),
                        destination: d.octets(),
                    };
                    let mut b = h.to_bytes().to_vec();
                    b.extend_from_slice(&exts);
                    b
                }
                _ => panic!("{src} and {dst} are not of one address family"),
            };
            let header_len = bytes.len();
            bytes.extend_from_slice(carried);
            IpPiece {
                bytes,
                header_len,
                range,
            }
        })
        .collect()
}

/// A TCP header and payload with a valid checksum, and the header's length.
fn tcp_bytes(
    src: SocketAddr,
    dst: SocketAddr,
    segment: &Segment,
    options: &Options,
    state: &mut State,
) -> (Vec<u8>, usize) {
    let mut h = TcpHeader::new(src.port(), dst.port(), segment.seq, 65535);
    h.acknowledgment_number = segment.ack;
    h.syn = segment.flags.syn;
    h.ack = segment.flags.ack;
    h.fin = segment.flags.fin;
    h.rst = segment.flags.rst;
    h.psh = segment.flags.psh;
    let mut tcp_options = Vec::new();
    if segment.flags.syn {
        tcp_options.push(TcpOptionElement::MaximumSegmentSize(SYN_MSS_OPTION));
    }
    if options.tcp_timestamps {
        state.tcp_clock += 1;
        tcp_options.push(TcpOptionElement::Noop);
        tcp_options.push(TcpOptionElement::Noop);
        tcp_options.push(TcpOptionElement::Timestamp(
            state.tcp_clock,
            state.tcp_clock - 1,
        ));
    }
    h.set_options(&tcp_options).expect("TCP options");
    h.checksum = match (src.ip(), dst.ip()) {
        (IpAddr::V4(s), IpAddr::V4(d)) => {
            h.calc_checksum_ipv4_raw(s.octets(), d.octets(), &segment.payload)
        }
        (IpAddr::V6(s), IpAddr::V6(d)) => {
            h.calc_checksum_ipv6_raw(s.octets(), d.octets(), &segment.payload)
        }
        _ => panic!("{src} and {dst} are not of one address family"),
    }
    .expect("TCP segment fits");
    let mut bytes = h.to_bytes().to_vec();
    bytes.extend_from_slice(&segment.payload);
    (bytes, h.header_len())
}

/// A UDP header and payload with a valid checksum.
fn udp_bytes(src: SocketAddr, dst: SocketAddr, payload: &[u8]) -> Vec<u8> {
    let mut h = UdpHeader {
        source_port: src.port(),
        destination_port: dst.port(),
        length: u16::try_from(UdpHeader::LEN + payload.len()).expect("UDP datagram fits"),
        checksum: 0,
    };
    h.checksum = match (src.ip(), dst.ip()) {
        (IpAddr::V4(s), IpAddr::V4(d)) => h.calc_checksum_ipv4_raw(s.octets(), d.octets(), payload),
        (IpAddr::V6(s), IpAddr::V6(d)) => h.calc_checksum_ipv6_raw(s.octets(), d.octets(), payload),
        _ => panic!("{src} and {dst} are not of one address family"),
    }
    .expect("UDP datagram fits");
    let mut bytes = h.to_bytes().to_vec();
    bytes.extend_from_slice(payload);
    bytes
}

/// An ARP request (Ethernet / IPv4).
fn arp_bytes(sender: Ipv4Addr, target: Ipv4Addr) -> Vec<u8> {
    let mut b = Vec::with_capacity(28);
    b.extend_from_slice(&1u16.to_be_bytes()); // hardware: Ethernet
    b.extend_from_slice(&0x0800u16.to_be_bytes()); // protocol: IPv4
    b.extend_from_slice(&[6, 4]);
    b.extend_from_slice(&1u16.to_be_bytes()); // request
    b.extend_from_slice(&mac_of(IpAddr::V4(sender)));
    b.extend_from_slice(&sender.octets());
    b.extend_from_slice(&[0; 6]);
    b.extend_from_slice(&target.octets());
    b
}

/// The frame(s) of one packet on `link`.
fn frames_for(
    packet: &Packet,
    link: Link,
    options: &Options,
    big_endian: bool,
    state: &mut State,
) -> Vec<Frame> {
    let finish = |mut data: Vec<u8>, payload: Option<(usize, usize, usize)>| {
        let (payload_start, payload_len, payload_from) = payload.unwrap_or((data.len(), 0, 0));
        if options.ethernet_padding
            && matches!(link, Link::Ethernet | Link::EthernetVlan)
            && data.len() < 60
        {
            data.resize(60, 0);
        }
        Frame {
            data,
            payload_start,
            payload_len,
            payload_from,
        }
    };
    let (inner, split) = match packet {
        Packet::Fragmented { packet, first_len } => {
            assert!(
                matches!(**packet, Packet::Tcp { .. } | Packet::Udp { .. }),
                "only TCP and UDP packets can be fragmented"
            );
            (&**packet, Some(*first_len / 8 * 8))
        }
        other => (other, None),
    };
    let (src, dst, protocol, transport, header_len, outgoing) = match inner {
        Packet::Tcp { src, dst, segment } => {
            let (bytes, header_len) = tcp_bytes(*src, *dst, segment, options, state);
            let outgoing = segment.from_client;
            (*src, *dst, IpNumber::TCP, bytes, header_len, outgoing)
        }
        Packet::Udp { src, dst, payload } => {
            let bytes = udp_bytes(*src, *dst, payload);
            (*src, *dst, IpNumber::UDP, bytes, UdpHeader::LEN, false)
        }
        Packet::Arp { sender, target } => {
            let mut data = link_header(
                link,
                big_endian,
                Net::Arp,
                mac_of(IpAddr::V4(*sender)),
                [0xff; 6],
                false,
            );
            data.extend_from_slice(&arp_bytes(*sender, *target));
            return vec![finish(data, None)];
        }
        Packet::RawIp { v6, bytes } => {
            let net = if *v6 { Net::Ipv6 } else { Net::Ipv4 };
            let mut data = link_header(
                link,
                big_endian,
                net,
                [2, 0, 0, 0, 0, 1],
                [2, 0, 0, 0, 0, 2],
                false,
            );
            data.extend_from_slice(bytes);
            return vec![finish(data, None)];
        }
        Packet::RawFrame { bytes } => return vec![finish(bytes.clone(), None)],
        Packet::Fragmented { .. } => unreachable!("checked above"),
    };
    if let Some(at) = split {
        assert!(
            at >= 8 && at < transport.len(),
            "a first fragment of {at} bytes does not split a {}-byte IP payload",
            transport.len()
        );
    }
    let id = state.ip_id;
    state.ip_id = state.ip_id.wrapping_add(1);
    let net = if src.is_ipv4() { Net::Ipv4 } else { Net::Ipv6 };
    let header = link_header(
        link,
        big_endian,
        net,
        mac_of(src.ip()),
        mac_of(dst.ip()),
        outgoing,
    );
    ip_pieces(src.ip(), dst.ip(), protocol, &transport, split, options, id)
        .into_iter()
        .map(|piece| {
            let range = piece.range;
            let start = header_len.clamp(range.start, range.end);
            let payload = (
                header.len() + piece.header_len + (start - range.start),
                range.end - start,
                start.saturating_sub(header_len),
            );
            let mut data = header.clone();
            data.extend_from_slice(&piece.bytes);
            finish(data, Some(payload))
        })
        .collect()
}

/// The link used by the extra pcapng interfaces.
fn other_link(link: Link) -> Link {
    if link == Link::Ethernet {
        Link::RawIp
    } else {
        Link::Ethernet
    }
}

/// Bytes kept of a `len`-byte frame under `snaplen`.
fn cut(len: usize, snaplen: u32) -> usize {
    if snaplen == 0 {
        len
    } else {
        len.min(snaplen as usize)
    }
}

/// Writes a pcapng block: type, length, the body `body` writes, padding, length again.
fn block(out: &mut Out, block_type: u32, body: impl FnOnce(&mut Out)) {
    let start = out.len();
    out.u32(block_type);
    out.u32(0);
    body(out);
    out.pad4();
    let total = (out.len() - start + 4) as u32;
    out.u32(total);
    out.put_u32_at(start + 4, total);
}

/// Writes one pcapng option (code, length, value, padding).
fn option(out: &mut Out, code: u16, value: &[u8]) {
    out.u16(code);
    out.u16(value.len() as u16);
    out.raw(value);
    out.pad4();
}

/// Writes an Interface Description Block.
fn interface(out: &mut Out, link: Link, snaplen: u32, index: usize) {
    block(out, 1, |out| {
        out.u16(link.linktype());
        out.u16(0);
        out.u32(snaplen);
        option(out, 2, format!("a2alint-test{index}").as_bytes()); // if_name
        option(out, 9, &[6]); // if_tsresol: microseconds
        option(out, 0, &[]); // opt_endofopt
    });
}

/// Writes `packets` into one capture, in order, as `options` say. See the module
/// documentation for the details of the output.
///
/// Panics on what cannot be written: mixed address families, ARP on a link that cannot
/// carry it, a fragment split outside the packet.
pub fn write_capture(packets: &[Packet], options: &Options) -> Written {
    let big_endian = options.container.big_endian();
    let mut state = State {
        ip_id: 0x1000,
        tcp_clock: 1000,
    };
    let frames: Vec<(usize, Frame)> = packets
        .iter()
        .enumerate()
        .flat_map(|(i, p)| {
            frames_for(p, options.link, options, big_endian, &mut state)
                .into_iter()
                .map(move |f| (i, f))
        })
        .collect();
    let mut out = Out {
        bytes: Vec::new(),
        big_endian,
    };
    let mut written = Vec::with_capacity(frames.len());
    let timestamp =
        |n: usize| u64::from(START_SECONDS) * 1_000_000 + n as u64 * FRAME_SPACING_MICROS;
    let mut record = |n: usize, packet: usize, frame: &Frame, data_offset: usize| {
        let caplen = cut(frame.data.len(), options.snaplen);
        let payload_len = frame
            .payload_len
            .min(caplen.saturating_sub(frame.payload_start));
        written.push(WrittenFrame {
            number: n as u32 + 1,
            packet,
            data_offset,
            caplen,
            origlen: frame.data.len(),
            payload_offset: data_offset + frame.payload_start.min(caplen),
            payload_len,
            payload_from: frame.payload_from,
            timestamp_micros: timestamp(n),
        });
        caplen
    };
    match options.container {
        Container::Pcap { nanos, .. } => {
            out.u32(if nanos { 0xA1B2_3C4D } else { 0xA1B2_C3D4 });
            out.u16(2);
            out.u16(4);
            out.u32(0); // thiszone
            out.u32(0); // sigfigs
            out.u32(if options.snaplen == 0 {
                262_144
            } else {
                options.snaplen
            });
            out.u32(u32::from(options.link.linktype()));
            for (n, (packet, frame)) in frames.iter().enumerate() {
                let micros = timestamp(n);
                let fraction = (micros % 1_000_000) as u32;
                out.u32((micros / 1_000_000) as u32);
                out.u32(if nanos { fraction * 1000 } else { fraction });
                let caplen = cut(frame.data.len(), options.snaplen);
                out.u32(caplen as u32);
                out.u32(frame.data.len() as u32);
                let at = out.len();
                record(n, *packet, frame, at);
                out.raw(&frame.data[..caplen]);
            }
        }
        Container::PcapNg {
            extra_interfaces,
            odd_blocks,
            ..
        } => {
            block(&mut out, 0x0A0D_0D0A, |out| {
                out.u32(0x1A2B_3C4D);
                out.u16(1);
                out.u16(0);
                out.u32(u32::MAX); // section length: unknown (-1)
                out.u32(u32::MAX);
                option(out, 4, b"a2alint tests"); // shb_userappl
                option(out, 0, &[]);
            });
            for index in 0..extra_interfaces {
                interface(&mut out, other_link(options.link), 0, index);
            }
            interface(&mut out, options.link, options.snaplen, extra_interfaces);
            let unknown = |out: &mut Out| {
                block(out, UNKNOWN_BLOCK_TYPE, |out| {
                    out.raw(b"not a block anyone knows");
                });
            };
            for (n, (packet, frame)) in frames.iter().enumerate() {
                let micros = timestamp(n);
                let caplen = cut(frame.data.len(), options.snaplen);
                block(&mut out, 6, |out| {
                    out.u32(extra_interfaces as u32);
                    out.u32((micros >> 32) as u32);
                    out.u32(micros as u32);
                    out.u32(caplen as u32);
                    out.u32(frame.data.len() as u32);
                    let at = out.len();
                    record(n, *packet, frame, at);
                    out.raw(&frame.data[..caplen]);
                    out.pad4();
                    if odd_blocks {
                        option(out, 1, format!("frame {}", n + 1).as_bytes()); // opt_comment
                        option(out, 0, &[]);
                    }
                });
                if odd_blocks && n == 0 {
                    unknown(&mut out);
                }
            }
            if odd_blocks {
                if frames.is_empty() {
                    unknown(&mut out);
                }
                // The Simple Packet Block belongs to interface 0.
                let (link, snaplen) = if extra_interfaces > 0 {
                    (other_link(options.link), 0)
                } else {
                    (options.link, options.snaplen)
                };
                let udp = Packet::udp(
                    "192.0.2.1:9".parse().unwrap(),
                    "192.0.2.2:9".parse().unwrap(),
                    b"simple packet block",
                );
                let frame = frames_for(&udp, link, options, big_endian, &mut state)
                    .pop()
                    .expect("one frame");
                block(&mut out, 3, |out| {
                    out.u32(frame.data.len() as u32);
                    out.raw(&frame.data[..cut(frame.data.len(), snaplen)]);
                });
            }
        }
    }
    Written {
        bytes: out.bytes,
        frames: written,
    }
}
