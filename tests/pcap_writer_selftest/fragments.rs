//! IP fragments: two frames per packet, offsets and identifications, and what they reassemble to.

use std::net::IpAddr;

use etherparse::{NetSlice, SlicedPacket, TcpSlice};

use crate::decode::{L3, strip_link};
use crate::fixtures::{REQUEST, sock};
use crate::pcap::{
    Container, Conversation, Link, Options, Packet, Segment, Written, write_capture,
};
use crate::read_back::read_back;

/// Checks the two frames of a fragmented TCP packet, and the segment they reassemble to.
fn check_fragments(written: &Written, index: usize, link: Link, segment: &Segment) {
    let frames = written.frames_of(index);
    assert_eq!(frames.len(), 2);
    assert_eq!(frames[0].number + 1, frames[1].number);
    assert_eq!(written.frame_of(index), frames[0]);
    let mut transport = Vec::new();
    let mut ids = Vec::new();
    let mut src_dst = None;
    for (k, frame) in frames.iter().enumerate() {
        let data = written.data(frame);
        let (l3, ip) = strip_link(link.linktype(), data, false);
        let sliced = SlicedPacket::from_ip(ip).expect("IP fragment");
        assert!(
            sliced.transport.is_none(),
            "a fragment has no transport layer"
        );
        let payload = match sliced.net.unwrap() {
            NetSlice::Ipv4(v4) => {
                assert_eq!(l3, L3::Ipv4);
                let header = v4.header().to_header();
                assert_eq!(header.calc_header_checksum(), header.header_checksum);
                assert_eq!(header.more_fragments, k == 0);
                assert!(!header.dont_fragment);
                assert_eq!(
                    usize::from(header.fragment_offset.byte_offset()),
                    transport.len()
                );
                ids.push(u32::from(header.identification));
                src_dst = Some((
                    IpAddr::from(header.source),
                    IpAddr::from(header.destination),
                ));
                v4.payload().payload
            }
            NetSlice::Ipv6(v6) => {
                assert_eq!(l3, L3::Ipv6);
                let frag = v6
                    .extensions()
                    .clone()
                    .into_iter()
                    .find_map(|ext| match ext {
                        etherparse::Ipv6ExtensionSlice::Fragment(f) => Some(f),
                        _ => None,
                    })
                    .expect("a fragment header");
                assert_eq!(frag.more_fragments(), k == 0);
                assert_eq!(
                    usize::from(frag.fragment_offset().byte_offset()),
                    transport.len()
                );
                ids.push(frag.identification());
                src_dst = Some((
                    v6.header().source_addr().into(),
                    v6.header().destination_addr().into(),
                ));
                v6.payload().payload
            }
            NetSlice::Arp(_) => panic!("ARP"),
        };
        // The frame's payload bytes are where the record says.
        assert_eq!(
            written.payload(frame),
            &segment.payload[frame.payload_from..frame.payload_from + frame.payload_len]
        );
        transport.extend_from_slice(payload);
    }
    assert_eq!(ids[0], ids[1], "fragments share an identification");
    assert_eq!(
        frames[0].payload_len + frames[1].payload_len,
        segment.payload.len()
    );
    assert_eq!(frames[1].payload_from, frames[0].payload_len);
    let tcp = TcpSlice::from_slice(&transport).expect("reassembled TCP");
    let (src, dst) = src_dst.unwrap();
    let expected = match (src, dst) {
        (IpAddr::V4(s), IpAddr::V4(d)) => tcp.calc_checksum_ipv4(s.octets(), d.octets()),
        (IpAddr::V6(s), IpAddr::V6(d)) => tcp.calc_checksum_ipv6(s.octets(), d.octets()),
        _ => unreachable!(),
    };
    assert_eq!(expected.unwrap(), tcp.checksum());
    assert_eq!(tcp.sequence_number(), segment.seq);
    assert_eq!(tcp.payload(), &segment.payload[..]);
}

#[test]
fn fragments() {
    for (client, server) in [
        ("10.0.0.1:1234", "10.0.0.2:80"),
        ("[2001:db8::1]:1234", "[2001:db8::2]:80"),
    ] {
        for ip_options in [false, true] {
            let mut conv = Conversation::new(sock(client), sock(server));
            conv.handshake();
            conv.send(true, REQUEST);
            let segment = conv.segments()[3].clone();
            let base = conv.packet(&segment);
            // 29 rounds down to 24: the TCP header and 4 payload bytes, then the rest;
            // 13 rounds down to 8: part of the TCP header, then the rest and all the data.
            let packets = vec![
                conv.packets()[0].clone(),
                base.clone().fragmented(29),
                base.clone().fragmented(13),
                Packet::udp(sock(client), sock(server), b"after").fragmented(8),
            ];
            let mut options = Options::new(Container::PCAPNG, Link::Ethernet);
            options.ip_options = ip_options;
            let written = write_capture(&packets, &options);
            assert_eq!(written.frames.len(), 1 + 2 + 2 + 2);
            let numbers: Vec<u32> = written.frames.iter().map(|f| f.number).collect();
            assert_eq!(numbers, [1, 2, 3, 4, 5, 6, 7]);
            check_fragments(&written, 1, Link::Ethernet, &segment);
            check_fragments(&written, 2, Link::Ethernet, &segment);
            let first = written.frames_of(1);
            assert_eq!((first[0].payload_len, first[1].payload_from), (4, 4));
            let second = written.frames_of(2);
            assert_eq!((second[0].payload_len, second[1].payload_from), (0, 0));
            assert_eq!(
                second[0].payload_offset,
                second[0].data_offset + second[0].caplen
            );
            // The fragmented UDP datagram: 8 bytes (its header), then the data.
            let udp = written.frames_of(3);
            assert_eq!(udp[0].payload_len, 0);
            assert_eq!(written.payload(udp[1]), b"after");
            // pcap-parser reads them all.
            assert_eq!(read_back(&written.bytes, &options).frames.len(), 7);
        }
    }
}

#[test]
#[should_panic(expected = "does not split")]
fn a_fragment_must_split_the_packet() {
    let mut conv = Conversation::new(sock("10.0.0.1:1"), sock("10.0.0.2:2"));
    conv.send(true, b"abc");
    write_capture(
        &[conv.packets()[0].clone().fragmented(400)],
        &Options::default(),
    );
}
