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

// Each test binary uses a part of what is re-exported here (and `dead_code` is allowed on
// its `mod pcap;`).
#![allow(unused_imports)]

mod container;
mod conversation;
mod frame;
mod headers;
mod link;
mod manipulate;
mod options;
mod packet;
mod write;

pub use conversation::Conversation;
pub use manipulate::{
    data_segments, drop_segment, interleave, overlap, retransmit, retransmit_at, split, swap,
};
pub use options::{
    Container, FRAME_SPACING_MICROS, Link, NULL_AF_INET, NULL_AF_INET6, Options, SLL2_IF_INDEX,
    START_SECONDS, SYN_MSS_OPTION, UNKNOWN_BLOCK_TYPE, VLAN_ID,
};
pub use packet::{Flags, Packet, Segment};
pub use write::{Written, WrittenFrame, write_capture};
