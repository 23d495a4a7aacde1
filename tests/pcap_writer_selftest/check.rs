//! [`check`]: a capture written, read back, and every frame compared with its packet.

use crate::decode::{L3, be16, decode_ip, flags_of, strip_link};
use crate::pcap::{
    Container, FRAME_SPACING_MICROS, Link, Options, Packet, START_SECONDS, SYN_MSS_OPTION,
    UNKNOWN_BLOCK_TYPE, Written, write_capture,
};
use crate::read_back::{offset_in, read_back};

/// Reads a capture back and checks every frame against the packet that gave it. For
/// captures with no fragments and nothing cut.
pub(crate) fn check(packets: &[Packet], options: &Options) -> Written {
    let written = write_capture(packets, options);
    let file = &written.bytes[..];
    let back = read_back(file, options);
    let big_endian = options.container.big_endian();

    assert_eq!(written.frames.len(), packets.len());
    assert_eq!(back.frames.len(), packets.len());
    for (i, (frame, read)) in written.frames.iter().zip(&back.frames).enumerate() {
        assert_eq!(frame.number as usize, i + 1);
        assert_eq!(frame.packet, i);
        assert_eq!(frame.data_offset, read.data_offset);
        assert_eq!(frame.caplen, read.data.len());
        assert_eq!(frame.caplen, frame.origlen);
        assert_eq!(frame.origlen, read.origlen);
        assert_eq!(
            frame.timestamp_micros,
            u64::from(START_SECONDS) * 1_000_000 + i as u64 * FRAME_SPACING_MICROS
        );
        assert_eq!(frame.timestamp_micros, read.micros);
        assert_eq!(frame.payload_from, 0);
        assert_eq!(read.linktype, options.link.linktype());
        assert_eq!(written.data(frame), read.data);

        match &packets[i] {
            Packet::Tcp { src, dst, segment } => {
                let (l3, ip) = strip_link(read.linktype, read.data, big_endian);
                assert_eq!(l3, if src.is_ipv4() { L3::Ipv4 } else { L3::Ipv6 });
                let decoded = decode_ip(ip);
                assert_eq!((decoded.src, decoded.dst), (*src, *dst));
                let tcp = decoded.tcp.expect("TCP");
                assert_eq!(tcp.sequence_number(), segment.seq);
                assert_eq!(tcp.acknowledgment_number(), segment.ack);
                assert_eq!(flags_of(&tcp), segment.flags);
                assert_eq!(tcp.window_size(), 65535);
                assert_eq!(decoded.payload, &segment.payload[..]);
                assert_eq!(offset_in(file, decoded.payload), frame.payload_offset);
                assert_eq!(frame.payload_len, segment.payload.len());
                assert_eq!(written.payload(frame), &segment.payload[..]);
                if segment.flags.syn {
                    let mss: Vec<_> = tcp.options_iterator().collect();
                    assert!(
                        mss.contains(&Ok(etherparse::TcpOptionElement::MaximumSegmentSize(
                            SYN_MSS_OPTION
                        )))
                    );
                }
            }
            Packet::Udp { src, dst, payload } => {
                let (_, ip) = strip_link(read.linktype, read.data, big_endian);
                let decoded = decode_ip(ip);
                assert!(decoded.tcp.is_none());
                assert_eq!((decoded.src, decoded.dst), (*src, *dst));
                assert_eq!(decoded.payload, &payload[..]);
                assert_eq!(offset_in(file, decoded.payload), frame.payload_offset);
                assert_eq!(frame.payload_len, payload.len());
            }
            Packet::Arp { sender, target } => {
                let (l3, arp) = strip_link(read.linktype, read.data, big_endian);
                assert_eq!(l3, L3::Arp);
                assert_eq!(arp.len(), 28);
                assert_eq!(be16(&arp[6..]), 1, "request");
                assert_eq!(&arp[14..18], &sender.octets());
                assert_eq!(&arp[24..28], &target.octets());
                assert_eq!(frame.payload_len, 0);
                assert_eq!(frame.payload_offset, frame.data_offset + frame.caplen);
            }
            Packet::RawIp { bytes, v6 } => {
                let (l3, ip) = strip_link(read.linktype, read.data, big_endian);
                assert_eq!(l3, if *v6 { L3::Ipv6 } else { L3::Ipv4 });
                assert_eq!(ip, &bytes[..]);
                assert_eq!(frame.payload_len, 0);
            }
            Packet::RawFrame { bytes } => {
                assert_eq!(read.data, &bytes[..]);
                assert_eq!(frame.payload_len, 0);
            }
            Packet::Fragmented { .. } => panic!("check() does not handle fragments"),
        }
    }

    if let Container::PcapNg {
        extra_interfaces,
        odd_blocks,
        ..
    } = options.container
    {
        assert_eq!(back.interfaces.len(), extra_interfaces + 1);
        let other = if options.link == Link::Ethernet {
            Link::RawIp
        } else {
            Link::Ethernet
        };
        for &(linktype, snaplen) in &back.interfaces[..extra_interfaces] {
            assert_eq!((linktype, snaplen), (other.linktype(), 0));
        }
        assert_eq!(
            back.interfaces[extra_interfaces],
            (options.link.linktype(), options.snaplen)
        );
        if odd_blocks {
            assert_eq!(back.unknown_blocks, [UNKNOWN_BLOCK_TYPE]);
            if !packets.is_empty() {
                assert_eq!(back.kinds[2 + extra_interfaces..][..2], ["epb", "unknown"]);
            }
            let (data, last) = back.simple.expect("a Simple Packet Block");
            assert!(last, "the Simple Packet Block is the last block");
            let spb_linktype = back.interfaces[0].0;
            let (_, ip) = strip_link(spb_linktype, data, big_endian);
            let decoded = decode_ip(ip);
            assert!(decoded.tcp.is_none(), "the Simple Packet Block holds UDP");
            let comments: Vec<String> = (1..=packets.len()).map(|n| format!("frame {n}")).collect();
            assert_eq!(back.comments, comments);
        } else {
            assert!(back.unknown_blocks.is_empty());
            assert!(back.simple.is_none());
            assert!(back.comments.is_empty());
        }
    } else {
        assert!(back.kinds.is_empty());
    }
    written
}
