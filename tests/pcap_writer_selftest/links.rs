//! Link and header details: ARP, header options, Ethernet padding, raw packets, loopback families.

use std::net::Ipv4Addr;

use etherparse::{Ipv4Header, NetSlice, SlicedPacket, TransportSlice};

use crate::check::check;
use crate::decode::strip_link;
use crate::fixtures::conversation;
use crate::pcap::{Container, Link, Options, Packet, write_capture};

#[test]
#[should_panic(expected = "cannot carry ARP")]
fn arp_needs_a_link_that_carries_it() {
    let arp = Packet::arp(Ipv4Addr::new(10, 0, 0, 1), Ipv4Addr::new(10, 0, 0, 2));
    write_capture(&[arp], &Options::new(Container::PCAP, Link::Null));
}

#[test]
fn header_variations() {
    for (client, server) in [
        ("10.0.0.1:1234", "10.0.0.2:80"),
        ("[2001:db8::1]:1234", "[2001:db8::2]:80"),
    ] {
        for link in Link::ALL {
            let conv = conversation(client, server);
            let packets = conv.packets();
            let mut options = Options::new(Container::PCAPNG, link);
            options.tcp_timestamps = true;
            options.ip_options = true;
            options.ethernet_padding = true;
            let written = check(&packets, &options);
            for (frame, packet) in written.frames.iter().zip(&packets) {
                let Packet::Tcp { segment, .. } = packet else {
                    unreachable!()
                };
                let data = written.data(frame);
                let (_, ip) = strip_link(link.linktype(), data, false);
                let sliced = SlicedPacket::from_ip(ip).unwrap();
                let ip_payload_len = match sliced.net.as_ref().unwrap() {
                    NetSlice::Ipv4(v4) => {
                        assert_eq!(v4.header().ihl(), 6);
                        assert_eq!(v4.header().options(), &[1, 1, 1, 0]);
                        usize::from(v4.header().total_len())
                    }
                    NetSlice::Ipv6(v6) => {
                        let exts = v6.extensions().clone().into_iter().count();
                        assert_eq!(exts, 1, "a hop-by-hop header");
                        assert_eq!(v6.header().next_header(), etherparse::IpNumber(0));
                        40 + usize::from(v6.header().payload_length())
                    }
                    NetSlice::Arp(_) => unreachable!(),
                };
                let Some(TransportSlice::Tcp(tcp)) = sliced.transport else {
                    panic!("TCP")
                };
                let expected_header = if segment.flags.syn { 36 } else { 32 };
                assert_eq!(tcp.header_len(), expected_header);
                assert!(
                    tcp.options_iterator()
                        .any(|o| matches!(o, Ok(etherparse::TcpOptionElement::Timestamp(_, _))))
                );
                let padded = matches!(link, Link::Ethernet | Link::EthernetVlan);
                let l2 = link.header_len();
                if padded && l2 + ip_payload_len < 60 {
                    assert_eq!(frame.origlen, 60, "padded to the Ethernet minimum");
                    assert!(data[l2 + ip_payload_len..].iter().all(|&b| b == 0));
                } else {
                    assert_eq!(frame.origlen, l2 + ip_payload_len);
                }
            }
        }
    }
}

#[test]
fn raw_packets_are_written_as_given() {
    let ip = {
        // An IPv4 header announcing protocol 253 (experimental), no payload.
        let mut h =
            Ipv4Header::new(0, 9, etherparse::IpNumber(253), [1, 2, 3, 4], [5, 6, 7, 8]).unwrap();
        h.header_checksum = h.calc_header_checksum();
        h.to_bytes().to_vec()
    };
    for link in Link::ALL {
        let packets = vec![
            Packet::RawIp {
                v6: false,
                bytes: ip.clone(),
            },
            Packet::RawFrame {
                bytes: vec![0xde, 0xad, 0xbe, 0xef],
            },
        ];
        check(&packets, &Options::new(Container::PCAP, link));
    }
}

#[test]
fn null_link_family_follows_the_file_byte_order() {
    let conv = conversation("10.0.0.1:1234", "10.0.0.2:80");
    for big_endian in [false, true] {
        let options = Options::new(
            Container::Pcap {
                nanos: false,
                big_endian,
            },
            Link::Null,
        );
        let written = write_capture(&conv.packets(), &options);
        let data = written.data(&written.frames[0]);
        let expected = if big_endian {
            [0, 0, 0, 2]
        } else {
            [2, 0, 0, 0]
        };
        assert_eq!(data[..4], expected);
    }
}
