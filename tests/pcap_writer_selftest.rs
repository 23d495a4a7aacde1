//! Tests of the test-support capture writer (`tests/common/pcap.rs`): whatever it writes is
//! read back with pcap-parser, its link headers decoded by hand, and its IP / TCP / UDP
//! headers (and checksums) checked with etherparse.

#[allow(dead_code)]
#[path = "common/pcap.rs"]
mod pcap;

use std::net::{IpAddr, Ipv4Addr, SocketAddr};

use etherparse::{Ipv4Header, LinkSlice, NetSlice, SlicedPacket, TcpSlice, TransportSlice};
use pcap::*;
use pcap_parser::pcap::{parse_pcap_frame, parse_pcap_frame_be, parse_pcap_header};
use pcap_parser::pcapng::{Block, parse_block_be, parse_block_le};

// ---------------------------------------------------------------------------------------
// Reading back
// ---------------------------------------------------------------------------------------

/// A frame as pcap-parser reads it.
struct ReadFrame<'a> {
    linktype: u16,
    data: &'a [u8],
    data_offset: usize,
    origlen: usize,
    micros: u64,
}

/// A capture as pcap-parser reads it.
#[derive(Default)]
struct ReadBack<'a> {
    frames: Vec<ReadFrame<'a>>,
    /// pcapng interfaces: link type and snap length.
    interfaces: Vec<(u16, u32)>,
    /// The Simple Packet Block's data, and whether it was the last block.
    simple: Option<(&'a [u8], bool)>,
    unknown_blocks: Vec<u32>,
    comments: Vec<String>,
    /// Kinds of the blocks in order (pcapng).
    kinds: Vec<&'static str>,
}

/// Where `part` (a sub-slice of `file`) starts in it.
fn offset_in(file: &[u8], part: &[u8]) -> usize {
    let offset = part.as_ptr() as usize - file.as_ptr() as usize;
    assert!(offset + part.len() <= file.len());
    offset
}

fn read_back<'a>(file: &'a [u8], options: &Options) -> ReadBack<'a> {
    let mut back = ReadBack::default();
    match options.container {
        Container::Pcap { nanos, big_endian } => {
            let (mut rest, header) = parse_pcap_header(file).expect("pcap header");
            assert_eq!(header.is_bigendian(), big_endian);
            assert_eq!(header.is_nanosecond_precision(), nanos);
            assert_eq!((header.version_major, header.version_minor), (2, 4));
            let snaplen = if options.snaplen == 0 {
                262_144
            } else {
                options.snaplen
            };
            assert_eq!(header.snaplen, snaplen);
            let linktype = header.network.0 as u16;
            assert_eq!(linktype, options.link.linktype());
            while !rest.is_empty() {
                let (r, frame) = if big_endian {
                    parse_pcap_frame_be(rest)
                } else {
                    parse_pcap_frame(rest)
                }
                .expect("pcap record");
                rest = r;
                let fraction = if nanos {
                    assert_eq!(frame.ts_usec % 1000, 0);
                    frame.ts_usec / 1000
                } else {
                    frame.ts_usec
                };
                assert!(fraction < 1_000_000);
                assert_eq!(frame.caplen as usize, frame.data.len());
                back.frames.push(ReadFrame {
                    linktype,
                    data: frame.data,
                    data_offset: offset_in(file, frame.data),
                    origlen: frame.origlen as usize,
                    micros: u64::from(frame.ts_sec) * 1_000_000 + u64::from(fraction),
                });
            }
        }
        Container::PcapNg { big_endian, .. } => {
            let mut rest = file;
            while !rest.is_empty() {
                let (r, block) = if big_endian {
                    parse_block_be(rest)
                } else {
                    parse_block_le(rest)
                }
                .expect("pcapng block");
                rest = r;
                match block {
                    Block::SectionHeader(shb) => {
                        assert_eq!(shb.big_endian(), big_endian);
                        assert_eq!((shb.major_version, shb.minor_version), (1, 0));
                        assert_eq!(shb.section_len, -1);
                        assert_eq!(shb.shb_userappl().unwrap().unwrap(), "a2alint tests");
                        back.kinds.push("shb");
                    }
                    Block::InterfaceDescription(idb) => {
                        assert_eq!(idb.if_tsresol().unwrap().unwrap(), 6);
                        let name = format!("a2alint-test{}", back.interfaces.len());
                        assert_eq!(idb.if_name().unwrap().unwrap(), name);
                        back.interfaces.push((idb.linktype.0 as u16, idb.snaplen));
                        back.kinds.push("idb");
                    }
                    Block::EnhancedPacket(epb) => {
                        let (linktype, _) = back.interfaces[epb.if_id as usize];
                        let data = &epb.data[..epb.caplen as usize];
                        for option in &epb.options {
                            match option.code.0 {
                                1 => back.comments.push(option.as_str().unwrap().to_owned()),
                                0 => {}
                                other => panic!("unexpected EPB option {other}"),
                            }
                        }
                        back.frames.push(ReadFrame {
                            linktype,
                            data,
                            data_offset: offset_in(file, data),
                            origlen: epb.origlen as usize,
                            micros: (u64::from(epb.ts_high) << 32) | u64::from(epb.ts_low),
                        });
                        assert_eq!(
                            epb.if_id as usize,
                            back.interfaces.len() - 1,
                            "packets go to the last interface"
                        );
                        back.kinds.push("epb");
                    }
                    Block::SimplePacket(spb) => {
                        let len = (spb.origlen as usize).min(spb.data.len());
                        back.simple = Some((&spb.data[..len], rest.is_empty()));
                        back.kinds.push("spb");
                    }
                    Block::Unknown(unknown) => {
                        // pcap-parser keeps the type as read little-endian.
                        let block_type = if big_endian {
                            unknown.block_type.swap_bytes()
                        } else {
                            unknown.block_type
                        };
                        back.unknown_blocks.push(block_type);
                        back.kinds.push("unknown");
                    }
                    other => panic!("unexpected block {other:?}"),
                }
            }
        }
    }
    back
}

// ---------------------------------------------------------------------------------------
// Decoding frames
// ---------------------------------------------------------------------------------------

/// What a link header announced.
#[derive(Debug, PartialEq, Eq, Clone, Copy)]
enum L3 {
    Ipv4,
    Ipv6,
    Arp,
}

fn from_ethertype(ethertype: u16) -> L3 {
    match ethertype {
        0x0800 => L3::Ipv4,
        0x86DD => L3::Ipv6,
        0x0806 => L3::Arp,
        other => panic!("unexpected EtherType {other:#06x}"),
    }
}

fn be16(b: &[u8]) -> u16 {
    u16::from_be_bytes([b[0], b[1]])
}

fn be32(b: &[u8]) -> u32 {
    u32::from_be_bytes([b[0], b[1], b[2], b[3]])
}

/// Decodes the link header by hand (checking its fixed fields, and that etherparse reads
/// Ethernet / VLAN / SLL the same way) and returns the network-layer bytes and their kind.
fn strip_link(linktype: u16, data: &[u8], big_endian: bool) -> (L3, &[u8]) {
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
struct Decoded<'a> {
    src: SocketAddr,
    dst: SocketAddr,
    tcp: Option<TcpSlice<'a>>,
    payload: &'a [u8],
}

/// Decodes an unfragmented IP packet with etherparse, checking the IPv4 header checksum and
/// the TCP / UDP checksum.
fn decode_ip(ip: &[u8]) -> Decoded<'_> {
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

fn flags_of(tcp: &TcpSlice<'_>) -> Flags {
    Flags {
        syn: tcp.syn(),
        ack: tcp.ack(),
        fin: tcp.fin(),
        rst: tcp.rst(),
        psh: tcp.psh(),
    }
}

/// Reads a capture back and checks every frame against the packet that gave it. For
/// captures with no fragments and nothing cut.
fn check(packets: &[Packet], options: &Options) -> Written {
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

// ---------------------------------------------------------------------------------------
// Fixtures
// ---------------------------------------------------------------------------------------

fn sock(s: &str) -> SocketAddr {
    s.parse().unwrap()
}

const REQUEST: &[u8] = b"POST /a2a HTTP/1.1\r\nHost: agent.example\r\nContent-Type: application/json\r\nContent-Length: 58\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"message/send\",\"params\":{}}";
const RESPONSE: &[u8] = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 36\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}";

fn conversation(client: &str, server: &str) -> Conversation {
    let mut conv = Conversation::new(sock(client), sock(server)).mss(64);
    conv.handshake();
    conv.exchange(REQUEST, RESPONSE);
    conv.close();
    conv
}

/// The bytes one side sent, rebuilt from the file through each frame's payload offset.
fn stream_from_file(written: &Written, packets: &[Packet], from: SocketAddr) -> Vec<u8> {
    let mut stream = Vec::new();
    for frame in &written.frames {
        if matches!(&packets[frame.packet], Packet::Tcp { src, .. } if *src == from) {
            stream.extend_from_slice(written.payload(frame));
        }
    }
    stream
}

// ---------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------

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
fn sequence_numbers_wrap_around() {
    let mut conv = Conversation::new(sock("10.0.0.1:1234"), sock("10.0.0.2:80"))
        .isn(u32::MAX - 2, u32::MAX - 100)
        .mss(50);
    conv.handshake();
    conv.exchange(REQUEST, RESPONSE);
    conv.close();
    let segments = conv.segments();
    assert_eq!(segments[0].seq, u32::MAX - 2);
    assert_eq!(segments[1].seq, u32::MAX - 100);
    assert_eq!(segments[1].ack, u32::MAX - 1);
    // Each side's segments follow on, across zero.
    for from_client in [true, false] {
        let mine: Vec<&Segment> = segments
            .iter()
            .filter(|s| s.from_client == from_client)
            .collect();
        for pair in mine.windows(2) {
            assert_eq!(pair[1].seq, pair[0].end());
        }
        let last = mine.last().unwrap();
        assert!(last.seq < 1000, "the numbers wrapped past zero");
    }
    // And they are written as such.
    let packets = conv.packets();
    for options in [
        Options::new(Container::PCAP, Link::Ethernet),
        Options::new(
            Container::PcapNg {
                big_endian: true,
                extra_interfaces: 1,
                odd_blocks: true,
            },
            Link::LinuxSll2,
        ),
    ] {
        let written = check(&packets, &options);
        assert_eq!(stream_from_file(&written, &packets, conv.client()), REQUEST);
    }
}

#[test]
fn conversation_numbers_follow_tcp() {
    let mut conv = Conversation::new(sock("10.0.0.1:1234"), sock("10.0.0.2:80"))
        .isn(100, 5000)
        .mss(10);
    conv.handshake();
    conv.send(true, b"0123456789abcde");
    conv.ack(false);
    conv.send(false, b"xyz");
    conv.send(false, b"");
    conv.fin(true);
    conv.reset(false);
    let s = conv.segments();
    let shape: Vec<(bool, u32, u32, Flags, usize)> = s
        .iter()
        .map(|s| (s.from_client, s.seq, s.ack, s.flags, s.payload.len()))
        .collect();
    assert_eq!(
        shape,
        [
            (true, 100, 0, Flags::SYN, 0),
            (false, 5000, 101, Flags::SYN_ACK, 0),
            (true, 101, 5001, Flags::ACK, 0),
            (true, 101, 5001, Flags::ACK, 10),
            (true, 111, 5001, Flags::PSH_ACK, 5),
            (false, 5001, 116, Flags::ACK, 0),
            (false, 5001, 116, Flags::PSH_ACK, 3),
            (true, 116, 5004, Flags::FIN_ACK, 0),
            (false, 5004, 117, Flags::RST_ACK, 0),
        ]
    );
    assert_eq!(conv.next_seq(true), 117);
    assert_eq!(conv.next_seq(false), 5004);

    let mut closed = Conversation::new(sock("10.0.0.1:1234"), sock("10.0.0.2:80")).isn(0, 0);
    closed.close();
    let shape: Vec<(bool, u32, u32, Flags)> = closed
        .segments()
        .iter()
        .map(|s| (s.from_client, s.seq, s.ack, s.flags))
        .collect();
    assert_eq!(
        shape,
        [
            (true, 0, 0, Flags::FIN_ACK),
            (false, 0, 1, Flags::ACK),
            (false, 0, 1, Flags::FIN_ACK),
            (true, 1, 1, Flags::ACK),
        ]
    );

    let http = Conversation::http(sock("10.0.0.1:1"), sock("10.0.0.2:2"), REQUEST, RESPONSE);
    assert_eq!(http.segments().len(), 3 + 1 + 1 + 4);
    assert_eq!(http.segments()[3].payload, REQUEST);
    assert_eq!(http.segments()[4].payload, RESPONSE);
}

#[test]
fn segment_manipulations() {
    let mut conv = Conversation::new(sock("10.0.0.1:1234"), sock("10.0.0.2:80"))
        .isn(u32::MAX - 5, 7)
        .mss(4);
    conv.handshake();
    conv.send(true, b"abcdefghij"); // segments 3 "abcd", 4 "efgh", 5 "ij"
    let original = conv.segments().to_vec();
    assert_eq!(data_segments(&original, true), [3, 4, 5]);
    assert!(data_segments(&original, false).is_empty());

    let mut s = original.clone();
    swap(&mut s, 3, 4);
    assert_eq!(
        (s[3].payload.as_slice(), s[4].payload.as_slice()),
        (&b"efgh"[..], &b"abcd"[..])
    );

    let mut s = original.clone();
    retransmit(&mut s, 3);
    assert_eq!(s.len(), 7);
    assert_eq!(s[3], s[4]);
    retransmit_at(&mut s, 3, 7);
    assert_eq!(s[7], s[3]);

    let mut s = original.clone();
    let dropped = drop_segment(&mut s, 4);
    assert_eq!(dropped.payload, b"efgh");
    assert_eq!(s.len(), 5);

    let mut s = original.clone();
    split(&mut s, 4, 1);
    assert_eq!(s[4].payload, b"e");
    assert_eq!(s[4].flags, Flags::ACK);
    assert_eq!(s[5].payload, b"fgh");
    assert_eq!(s[5].seq, s[4].seq.wrapping_add(1));
    assert_eq!(s[5].flags, original[4].flags);
    assert_eq!(s[6].flags, Flags::PSH_ACK);

    // Overlap across the wrap of the sequence numbers: segment 5 ("ij") re-sends "fgh".
    let mut s = original.clone();
    overlap(&mut s, 5, 3);
    assert_eq!(s[5].payload, b"fghij");
    assert_eq!(s[5].seq, original[5].seq.wrapping_sub(3));
    // Segment 4 re-sends bytes of segment 3 and so reaches back to just after the SYN.
    let mut s = original.clone();
    overlap(&mut s, 4, 4);
    assert_eq!(s[4].payload, b"abcdefgh");
    assert_eq!(s[4].seq, original[3].seq);

    // Manipulated lists are written as given.
    let mut s = original.clone();
    overlap(&mut s, 5, 2);
    swap(&mut s, 3, 4);
    retransmit(&mut s, 5);
    let packets = conv.packets_of(&s);
    check(&packets, &Options::new(Container::PCAPNG, Link::RawIp));

    // And in place.
    let mut conv2 = conv.clone();
    drop_segment(conv2.segments_mut(), 4);
    assert_eq!(conv2.packets().len(), original.len() - 1);
    assert_eq!(conv2.clone().into_segments(), conv2.segments());
}

#[test]
#[should_panic(expected = "no segment carries")]
fn overlap_needs_the_earlier_bytes() {
    let mut conv = Conversation::new(sock("10.0.0.1:1234"), sock("10.0.0.2:80"));
    conv.send(true, b"abc");
    overlap(conv.segments_mut(), 0, 1);
}

#[test]
fn conversations_interleave() {
    let a = conversation("10.0.0.1:1111", "10.0.0.9:80");
    let b = conversation("[2001:db8::1]:2222", "[2001:db8::9]:443");
    let c = Conversation::http(
        sock("10.0.0.3:3333"),
        sock("10.0.0.9:80"),
        b"GET / HTTP/1.1\r\n\r\n",
        b"",
    );
    let (pa, pb, pc) = (a.packets(), b.packets(), c.packets());
    let mixed = interleave(vec![pa.clone(), pb.clone(), pc.clone()]);
    assert_eq!(mixed.len(), pa.len() + pb.len() + pc.len());
    assert_eq!(&mixed[..3], &[pa[0].clone(), pb[0].clone(), pc[0].clone()]);
    for link in [Link::Ethernet, Link::LinuxSll] {
        let written = check(&mixed, &Options::new(Container::PCAPNG, link));
        assert_eq!(stream_from_file(&written, &mixed, a.client()), REQUEST);
        assert_eq!(stream_from_file(&written, &mixed, b.server()), RESPONSE);
        assert_eq!(
            stream_from_file(&written, &mixed, c.client()),
            b"GET / HTTP/1.1\r\n\r\n"
        );
    }
}

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
