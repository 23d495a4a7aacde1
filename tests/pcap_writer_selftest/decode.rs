//! Decoding frames: link headers by hand, IP / TCP / UDP (and checksums) with etherparse.

use std::net::{IpAddr, SocketAddr};

use etherparse::{Ipv4Header, LinkSlice, NetSlice, SlicedPacket, TcpSlice, TransportSlice};

use crate::pcap::{Flags, NULL_AF_INET, NULL_AF_INET6, SLL2_IF_INDEX, VLAN_ID};

/// What a link header announced.
#[derive(Debug, PartialEq, Eq, Clone, Copy)]
pub(crate) enum L3 {
    Ipv4,
    Ipv6,
    Arp,
}

pub(crate) fn from_ethertype(ethertype: u16) -> L3 {
    match ethertype {
        0x0800 => L3::Ipv4,
        0x86DD => L3::Ipv6,
        0x0806 => L3::Arp,
        other => panic!("unexpected EtherType {other:#06x}"),
    }
}

pub(crate) fn be16(b: &[u8]) -> u16 {
    u16::from_be_bytes([b[0], b[1]])
}

pub(crate) fn be32(b: &[u8]) -> u32 {
    u32::from_be_bytes([b[0], b[1], b[2], b[3]])
}

/// Decodes the link header by hand (checking its fixed fields, and that etherparse reads
/// Ethernet / VLAN / SLL the same way) and returns the network-layer bytes and their kind.
pub(crate) fn strip_link(linktype: u16, data: &[u8], big_endian: bool) -> (L3, &[u8]) {
    let (l3, at) = match linktype {
        1 => {
            let mut ethertype = be16(&data[12..]);
            let mut at = 14;
            if ethertype == 0x8100 {
                assert_eq!(be16(&data[14..]) & 0x0FFF, VLAN_ID);
                ethertype = be16(&data[16..]);
                at = 18;
            }
            assert_eq!(&data[6..8], &[2, 0], "source MAC");
            (from_ethertype(ethertype), at)
        }
        113 => {
            assert!(matches!(be16(data), 0 | 4), "packet type");
            assert_eq!(be16(&data[2..]), 1, "ARPHRD_ETHER");
            assert_eq!(be16(&data[4..]), 6, "address length");
            assert_eq!(&data[12..14], &[0, 0], "address padding");
            (from_ethertype(be16(&data[14..])), 16)
        }
        276 => {
            assert_eq!(be16(&data[2..]), 0, "reserved");
            assert_eq!(be32(&data[4..]), SLL2_IF_INDEX);
            assert_eq!(be16(&data[8..]), 1, "ARPHRD_ETHER");
            assert!(matches!(data[10], 0 | 4), "packet type");
            assert_eq!(data[11], 6, "address length");
            (from_ethertype(be16(data)), 20)
        }
        0 => {
            let af = [data[0], data[1], data[2], data[3]];
            let af = if big_endian {
                u32::from_be_bytes(af)
            } else {
                u32::from_le_bytes(af)
            };
            let l3 = match af {
                NULL_AF_INET => L3::Ipv4,
                NULL_AF_INET6 => L3::Ipv6,
                other => panic!("unexpected address family {other}"),
            };
            (l3, 4)
        }
        101 => {
            let l3 = match data[0] >> 4 {
                4 => L3::Ipv4,
                6 => L3::Ipv6,
                other => panic!("IP version {other}"),
            };
            (l3, 0)
        }
        other => panic!("unexpected link type {other}"),
    };
    // etherparse agrees where it knows the link type.
    let sliced = match linktype {
        1 => Some(SlicedPacket::from_ethernet(data).expect("etherparse: Ethernet")),
        113 => Some(SlicedPacket::from_linux_sll(data).expect("etherparse: SLL")),
        _ => None,
    };
    if let Some(sliced) = sliced {
        assert!(matches!(
            sliced.link,
            Some(LinkSlice::Ethernet2(_) | LinkSlice::LinuxSll(_))
        ));
        let net = sliced.net.expect("etherparse: network layer");
        let kind = match net {
            NetSlice::Ipv4(_) => L3::Ipv4,
            NetSlice::Ipv6(_) => L3::Ipv6,
            NetSlice::Arp(_) => L3::Arp,
        };
        assert_eq!(kind, l3);
        assert_eq!(sliced.link_exts.len(), usize::from(at == 18), "VLAN tag");
    }
    (l3, &data[at..])
}

/// A decoded TCP or UDP packet.
#[derive(Debug)]
pub(crate) struct Decoded<'a> {
    pub(crate) src: SocketAddr,
    pub(crate) dst: SocketAddr,
    pub(crate) tcp: Option<TcpSlice<'a>>,
    pub(crate) payload: &'a [u8],
}

/// Decodes an unfragmented IP packet with etherparse, checking the IPv4 header checksum and
/// the TCP / UDP checksum.
pub(crate) fn decode_ip(ip: &[u8]) -> Decoded<'_> {
    let sliced = SlicedPacket::from_ip(ip).expect("etherparse: IP");
    let (src, dst): (IpAddr, IpAddr) = match sliced.net.as_ref().expect("network layer") {
        NetSlice::Ipv4(v4) => {
            let (header, _) = Ipv4Header::from_slice(v4.header().slice()).unwrap();
            assert_eq!(header.calc_header_checksum(), header.header_checksum);
            assert!(!v4.is_payload_fragmented());
            assert!(header.dont_fragment);
            assert_eq!(header.time_to_live, 64);
            (header.source.into(), header.destination.into())
        }
        NetSlice::Ipv6(v6) => {
            assert!(!v6.is_payload_fragmented());
            assert_eq!(v6.header().hop_limit(), 64);
            (
                v6.header().source_addr().into(),
                v6.header().destination_addr().into(),
            )
        }
        NetSlice::Arp(_) => panic!("ARP is not IP"),
    };
    match sliced.transport.expect("transport layer") {
        TransportSlice::Tcp(tcp) => {
            let expected = match (src, dst) {
                (IpAddr::V4(s), IpAddr::V4(d)) => tcp.calc_checksum_ipv4(s.octets(), d.octets()),
                (IpAddr::V6(s), IpAddr::V6(d)) => tcp.calc_checksum_ipv6(s.octets(), d.octets()),
                _ => unreachable!(),
            };
            assert_eq!(expected.unwrap(), tcp.checksum(), "TCP checksum");
            Decoded {
                src: SocketAddr::new(src, tcp.source_port()),
                dst: SocketAddr::new(dst, tcp.destination_port()),
                payload: tcp.payload(),
                tcp: Some(tcp),
            }
        }
        TransportSlice::Udp(udp) => {
            let header = udp.to_header();
            let expected = match (src, dst) {
                (IpAddr::V4(s), IpAddr::V4(d)) => {
                    header.calc_checksum_ipv4_raw(s.octets(), d.octets(), udp.payload())
                }
                (IpAddr::V6(s), IpAddr::V6(d)) => {
                    header.calc_checksum_ipv6_raw(s.octets(), d.octets(), udp.payload())
                }
                _ => unreachable!(),
            };
            assert_eq!(expected.unwrap(), udp.checksum(), "UDP checksum");
            Decoded {
                src: SocketAddr::new(src, udp.source_port()),
                dst: SocketAddr::new(dst, udp.destination_port()),
                tcp: None,
                payload: udp.payload(),
            }
        }
        other => panic!("unexpected transport {other:?}"),
    }
}

pub(crate) fn flags_of(tcp: &TcpSlice<'_>) -> Flags {
    Flags {
        syn: tcp.syn(),
        ack: tcp.ack(),
        fin: tcp.fin(),
        rst: tcp.rst(),
        psh: tcp.psh(),
    }
}
