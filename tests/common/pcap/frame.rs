//! One [`Packet`] as link-layer frame bytes, and where its payload lies in them.

use std::net::IpAddr;

use etherparse::{IpNumber, UdpHeader};

use super::headers::{arp_bytes, ip_pieces, tcp_bytes, udp_bytes};
use super::link::{Net, link_header, mac_of};
use super::options::{Link, Options};
use super::packet::Packet;

/// A frame's link-layer bytes, before the container, and where its payload lies in them.
pub(super) struct Frame {
    pub(super) data: Vec<u8>,
    pub(super) payload_start: usize,
    pub(super) payload_len: usize,
    pub(super) payload_from: usize,
}

/// Counters that make successive packets differ, deterministically.
pub(super) struct State {
    pub(super) ip_id: u16,
    pub(super) tcp_clock: u32,
}

/// The frame(s) of one packet on `link`.
pub(super) fn frames_for(
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
