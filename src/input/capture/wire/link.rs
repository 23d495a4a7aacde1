//! The second step of the wire reader: a packet's link, IP and TCP headers are read
//! (with etherparse), leaving the TCP segment and where its payload sits in the file.

use std::net::SocketAddr;

use etherparse::{EtherType, LaxNetSlice, LaxSlicedPacket, TransportSlice};
use pcap_parser::Linktype;

use crate::input::capture::wire::container::Packet;

/// What a packet turned out to carry.
#[derive(Debug)]
pub enum Decoded<'a> {
    Tcp(Segment<'a>),
    /// A fragment of an IP packet: not put back together (reported once per file).
    Fragment,
    /// Anything else: ARP, UDP, ICMP, a link type a2alint does not read.
    Other,
}

/// One TCP segment of a packet.
#[derive(Debug)]
pub struct Segment<'a> {
    pub frame: u32,
    pub src: SocketAddr,
    pub dst: SocketAddr,
    pub seq: u32,
    pub syn: bool,
    /// The ACK flag (a SYN with it answers; one without it opens).
    pub ack_flag: bool,
    pub fin: bool,
    pub rst: bool,
    /// The payload bytes the capture holds.
    pub payload: &'a [u8],
    /// Where `payload` starts in the file.
    pub offset: usize,
    /// Payload bytes sent but not captured: the snapshot length cut the packet.
    pub missing: u32,
}

/// Linux cooked capture v1 (DLT 113): 16 header bytes, the protocol in the last two.
const SLL_HEADER: usize = 16;
/// Linux cooked capture v2 (DLT 276): 20 header bytes, the protocol in the first two.
const SLL2_HEADER: usize = 20;
/// BSD loopback (DLT 0, and DLT 108 in network order): a 4-byte address family.
const NULL_HEADER: usize = 4;

pub fn decode<'a>(packet: &Packet<'a>) -> Decoded<'a> {
    let data = packet.data;
    let sliced = slice(packet);
    let Some(sliced) = sliced else {
        return Decoded::Other;
    };
    let (src_ip, dst_ip, ip_payload) = match &sliced.net {
        Some(LaxNetSlice::Ipv4(ip)) => (
            ip.header().source_addr().into(),
            ip.header().destination_addr().into(),
            ip.payload(),
        ),
        Some(LaxNetSlice::Ipv6(ip)) => (
            ip.header().source_addr().into(),
            ip.header().destination_addr().into(),
            ip.payload(),
        ),
        _ => return Decoded::Other,
    };
    if ip_payload.fragmented {
        return Decoded::Fragment;
    }
    let Some(TransportSlice::Tcp(tcp)) = &sliced.transport else {
        return Decoded::Other;
    };
    let payload = tcp.payload();
    let missing = if ip_payload.incomplete {
        packet.original_len.saturating_sub(data.len() as u32)
    } else {
        0
    };
    Decoded::Tcp(Segment {
        frame: packet.frame,
        src: SocketAddr::new(src_ip, tcp.source_port()),
        dst: SocketAddr::new(dst_ip, tcp.destination_port()),
        seq: tcp.sequence_number(),
        syn: tcp.syn(),
        ack_flag: tcp.ack(),
        fin: tcp.fin(),
        rst: tcp.rst(),
        payload,
        offset: packet.offset + (payload.as_ptr() as usize - data.as_ptr() as usize),
        missing,
    })
}

/// The packet's layers above the link, read leniently: a packet cut by the snapshot
/// length still yields its headers and the payload bytes that were kept.
fn slice<'a>(packet: &Packet<'a>) -> Option<LaxSlicedPacket<'a>> {
    let data = packet.data;
    match packet.link {
        Linktype::ETHERNET => LaxSlicedPacket::from_ethernet(data).ok(),
        Linktype::LINUX_SLL => data
            .get(SLL_HEADER..)
            .map(|rest| LaxSlicedPacket::from_ether_type(EtherType(be16(data, 14)), rest)),
        Linktype::LINUX_SLL2 => data
            .get(SLL2_HEADER..)
            .map(|rest| LaxSlicedPacket::from_ether_type(EtherType(be16(data, 0)), rest)),
        Linktype::NULL | Linktype::LOOP => data
            .get(NULL_HEADER..)
            .and_then(|rest| LaxSlicedPacket::from_ip(rest).ok()),
        // Raw IP: DLT 101 in files, 12 and 14 on some systems, and the IPv4/IPv6 types.
        Linktype::RAW | Linktype(12) | Linktype(14) | Linktype::IPV4 | Linktype::IPV6 => {
            LaxSlicedPacket::from_ip(data).ok()
        }
        _ => None,
    }
}

fn be16(data: &[u8], at: usize) -> u16 {
    u16::from_be_bytes([data[at], data[at + 1]])
}

/// Where a TCP packet's checksum field sits in the file and the checksum its bytes
/// call for now (RFC 9293 §3.1), for a packet captured whole; `None` otherwise.
pub fn tcp_checksum(packet: &Packet<'_>) -> Option<(usize, u16)> {
    if packet.data.len() < packet.original_len as usize {
        return None;
    }
    let sliced = slice(packet)?;
    let Some(TransportSlice::Tcp(tcp)) = &sliced.transport else {
        return None;
    };
    let sum = match &sliced.net {
        Some(LaxNetSlice::Ipv4(ip)) => tcp
            .calc_checksum_ipv4(ip.header().source(), ip.header().destination())
            .ok()?,
        Some(LaxNetSlice::Ipv6(ip)) => tcp
            .calc_checksum_ipv6(ip.header().source(), ip.header().destination())
            .ok()?,
        _ => return None,
    };
    // The checksum is bytes 16..18 of the TCP header.
    let field =
        packet.offset + (tcp.slice().as_ptr() as usize - packet.data.as_ptr() as usize) + 16;
    Some((field, sum))
}
