//! IP (and fragment), TCP, UDP and ARP bytes, with valid checksums.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::ops::Range;

use etherparse::{
    IpFragOffset, IpNumber, Ipv4Header, Ipv6FlowLabel, Ipv6Header, TcpHeader, TcpOptionElement,
    UdpHeader,
};

use super::frame::State;
use super::link::mac_of;
use super::options::{Options, SYN_MSS_OPTION};
use super::packet::Segment;

/// One IP packet (or fragment) and which bytes of the transport segment it carries.
pub(super) struct IpPiece {
    pub(super) bytes: Vec<u8>,
    pub(super) header_len: usize,
    pub(super) range: Range<usize>,
}

/// The IP packet(s) carrying `transport`: one, or two fragments split at `split`.
pub(super) fn ip_pieces(
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
pub(super) fn tcp_bytes(
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
pub(super) fn udp_bytes(src: SocketAddr, dst: SocketAddr, payload: &[u8]) -> Vec<u8> {
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
pub(super) fn arp_bytes(sender: Ipv4Addr, target: Ipv4Addr) -> Vec<u8> {
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
