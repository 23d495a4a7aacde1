//! What gets written: TCP [`Flags`], [`Segment`]s, and [`Packet`]s.

use std::net::{Ipv4Addr, SocketAddr};

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
