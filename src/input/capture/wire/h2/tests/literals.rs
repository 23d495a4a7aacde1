//! Where literal fields' values are coded in the file, for `redact`: names taken from the
//! dynamic table, Huffman and plain strings, a block cut inside a string.

use super::writer::*;
use super::*;
use crate::input::capture::wire::h2::huffman::decode;
use crate::input::capture::wire::h2::read_h2_literals;
use std::ops::Range;

/// The bytes the file holds at `ranges`, found through the streams' pieces.
fn file_bytes(ranges: &[Range<usize>], dirs: [&Stream; 2]) -> Vec<u8> {
    let mut out = Vec::new();
    for range in ranges {
        let (dir, piece) = (dirs.iter())
            .flat_map(|d| d.pieces.iter().map(move |p| (d, p)))
            .find(|(_, p)| p.file <= range.start && range.end <= p.file + p.len)
            .expect("a range lies in one piece");
        let at = piece.at + (range.start - piece.file);
        out.extend(&dir.bytes[at..at + range.len()]);
    }
    out
}

fn string(text: &[u8]) -> Vec<u8> {
    [integer(text.len(), 7, 0), text.to_vec()].concat()
}

fn huffman_string(text: &[u8]) -> Vec<u8> {
    let coded = huffman(text);
    [integer(coded.len(), 7, 0x80), coded].concat()
}

#[test]
fn notes_where_each_literal_value_is_coded() {
    // §6.2.1: `:authority` (static name) and `x-key` (new name) go into the table, so
    // `x-key` is index 62 and `:authority` 63 for the next block.
    let first = [
        &[0x82, 0x86, 0x84, 0x41][..],
        &string(b"agent"),
        &[0x40],
        &string(b"x-key"),
        &string(b"raw-secret-1"),
    ]
    .concat();
    // §6.2.2 with the name from the table, §6.2.3 with a new one; both values Huffman.
    let second = [
        &[0x82, 0x86, 0x84, 0xbf, 0x0f, 0x2f][..],
        &huffman_string(b"huff-secret-2"),
        &[0x10],
        &string(b"x-other"),
        &huffman_string(b"v"),
    ]
    .concat();
    let cut = 10; // inside the Huffman-coded `huff-secret-2`
    let mut client = [PREFACE, &settings(&[]), &settings_ack()].concat();
    client.extend(frame(HEADERS, END_HEADERS | END_STREAM, 1, &first));
    client.extend(frame(HEADERS, END_STREAM, 3, &second[..cut]));
    client.extend(frame(CONTINUATION, END_HEADERS, 3, &second[cut..]));
    let mut server = [settings(&[]), settings_ack()].concat();
    for id in [1, 3] {
        server.extend(frame(HEADERS, END_HEADERS | END_STREAM, id, &[0x88]));
    }
    let (client, server) = (stream(client, 5, 1, 1), stream(server, 1400, 1000, 1));
    let start = H2Start::PriorKnowledge {
        client_at: 0,
        server_at: 0,
    };
    let read = read_h2_literals(&connection(), &client, &server, start.clone(), 0);
    assert!(read.problems.is_empty(), "{:?}", messages(&read));
    assert_eq!(read.exchanges.len(), 2);
    let found: Vec<(&[u8], &[u8], bool, u32)> = (read.literals.iter())
        .map(|l| (&l.name[..], &l.value[..], l.huffman, l.stream))
        .collect();
    assert_eq!(
        found,
        [
            (&b":authority"[..], &b"agent"[..], false, 1),
            (b"x-key", b"raw-secret-1", false, 1),
            (b"x-key", b"huff-secret-2", true, 3),
            (b"x-other", b"v", true, 3),
        ]
    );
    for literal in &read.literals {
        let octets = file_bytes(&literal.octets, [&client, &server]);
        let mut value = Vec::new();
        if literal.huffman {
            decode(&octets, &mut value).unwrap();
        } else {
            value = octets;
        }
        assert_eq!(value, literal.value);
        let first = literal.octets[0].start;
        assert_eq!(literal.frame as usize, (first - 54) / 100_000);
    }
    // Five-byte segments and the CONTINUATION cut the Huffman string several times.
    assert!(read.literals[2].octets.len() > 2);
    let plain = read_h2(&connection(), &client, &server, start, 0);
    assert!(plain.literals.is_empty(), "only asked for");
}
