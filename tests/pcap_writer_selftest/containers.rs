//! Every container and link reads back; snap lengths cut frames; the output is deterministic.

use std::net::Ipv4Addr;

use crate::check::check;
use crate::fixtures::{REQUEST, RESPONSE, conversation, sock, stream_from_file};
use crate::pcap::{Container, Link, Options, Packet, write_capture};
use crate::read_back::read_back;

#[test]
fn every_container_and_link_reads_back() {
    let matrix = Options::matrix();
    assert_eq!(matrix.len(), Container::variants().len() * Link::ALL.len());
    for options in matrix {
        let conv = conversation("10.1.2.3:40000", "10.9.8.7:8080");
        let mut packets = conv.packets();
        packets.insert(
            4,
            Packet::udp(sock("10.1.2.3:5353"), sock("224.0.0.251:5353"), b"mdns"),
        );
        if options.link.carries_arp() {
            packets.insert(
                1,
                Packet::arp(Ipv4Addr::new(10, 1, 2, 3), Ipv4Addr::new(10, 1, 2, 1)),
            );
        }
        let written = check(&packets, &options);
        assert_eq!(
            stream_from_file(&written, &packets, conv.client()),
            REQUEST,
            "{options:?}"
        );
        assert_eq!(
            stream_from_file(&written, &packets, conv.server()),
            RESPONSE,
            "{options:?}"
        );
    }
}

#[test]
fn ipv6_reads_back_on_every_link() {
    for container in [Container::PCAP, Container::PCAPNG] {
        for link in Link::ALL {
            let conv = conversation("[2001:db8::1]:40000", "[2001:db8::2]:443");
            let mut packets = conv.packets();
            packets.push(Packet::udp(
                sock("[2001:db8::1]:546"),
                sock("[ff02::1:2]:547"),
                b"dhcpv6",
            ));
            let written = check(&packets, &Options::new(container, link));
            assert_eq!(stream_from_file(&written, &packets, conv.client()), REQUEST);
            assert_eq!(
                stream_from_file(&written, &packets, conv.server()),
                RESPONSE
            );
        }
    }
}

#[test]
fn empty_captures_read_back() {
    for options in Options::matrix() {
        let written = check(&[], &options);
        assert!(written.frames.is_empty());
    }
}

#[test]
fn snaplen_cuts_frames_like_tcpdump() {
    const SNAPLEN: u32 = 80;
    for container in Container::variants() {
        for link in Link::ALL {
            let conv = conversation("10.0.0.1:1234", "10.0.0.2:80");
            let packets = conv.packets();
            let full = write_capture(&packets, &Options::new(container, link));
            let options = Options::new(container, link).snaplen(SNAPLEN);
            let cut = write_capture(&packets, &options);
            let back = read_back(&cut.bytes, &options);
            assert_eq!(back.frames.len(), packets.len());
            let mut some_cut = false;
            for ((frame, whole), read) in cut.frames.iter().zip(&full.frames).zip(&back.frames) {
                assert_eq!(frame.origlen, whole.origlen);
                assert_eq!(frame.caplen, whole.origlen.min(SNAPLEN as usize));
                assert_eq!(read.data.len(), frame.caplen);
                assert_eq!(read.origlen, frame.origlen);
                assert_eq!(frame.data_offset, read.data_offset);
                // The bytes kept are the start of the whole frame.
                assert_eq!(read.data, &full.data(whole)[..frame.caplen]);
                // The payload bytes kept are those the frame has room for.
                let payload_start = whole.payload_offset - whole.data_offset;
                let kept = whole
                    .payload_len
                    .min(frame.caplen.saturating_sub(payload_start));
                assert_eq!(frame.payload_len, kept);
                assert_eq!(frame.payload_offset - frame.data_offset, payload_start);
                assert_eq!(cut.payload(frame), &full.payload(whole)[..kept]);
                if frame.caplen < frame.origlen {
                    some_cut = true;
                    assert_eq!(frame.caplen, SNAPLEN as usize);
                }
            }
            assert!(some_cut, "the 64-byte segments exceed {SNAPLEN} bytes");
        }
    }
}

#[test]
fn snaplen_shorter_than_the_headers_keeps_no_payload() {
    let conv = conversation("10.0.0.1:1234", "10.0.0.2:80");
    let options = Options::new(Container::PCAPNG, Link::Ethernet).snaplen(30);
    let written = write_capture(&conv.packets(), &options);
    for frame in &written.frames {
        assert_eq!(frame.caplen, 30);
        assert_eq!(frame.payload_len, 0);
        assert_eq!(frame.payload_offset, frame.data_offset + 30);
    }
}

#[test]
fn output_is_deterministic() {
    for options in Options::matrix() {
        let conv = conversation("10.0.0.1:1234", "10.0.0.2:80");
        let a = write_capture(&conv.packets(), &options);
        let b = write_capture(&conv.packets(), &options);
        assert_eq!(a.bytes, b.bytes);
        assert_eq!(a.frames, b.frames);
    }
}
