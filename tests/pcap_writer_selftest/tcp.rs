//! TCP conversations: sequence numbers, segment manipulations, interleaved conversations.

use crate::check::check;
use crate::fixtures::{REQUEST, RESPONSE, conversation, sock, stream_from_file};
use crate::pcap::{
    Container, Conversation, Flags, Link, Options, Segment, data_segments, drop_segment,
    interleave, overlap, retransmit, retransmit_at, split, swap,
};

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
