//! Link headers (Ethernet, VLAN, Linux cooked v1 / v2, BSD loopback, raw IP) and MAC addresses.

use std::net::IpAddr;

use super::options::{Link, NULL_AF_INET, NULL_AF_INET6, SLL2_IF_INDEX, VLAN_ID};

/// What a link header announces.
#[derive(Clone, Copy)]
pub(super) enum Net {
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

/// `02:00:` and the last four bytes of the address.
pub(super) fn mac_of(ip: IpAddr) -> [u8; 6] {
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
pub(super) fn link_header(
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
