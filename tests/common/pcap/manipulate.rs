//! Rearranging segments and mixing packets: reorder, retransmit, drop, split, overlap, interleave.

use super::packet::{Flags, Packet, Segment};

/// Swaps segments `i` and `j` (out-of-order delivery).
pub fn swap(segments: &mut [Segment], i: usize, j: usize) {
    segments.swap(i, j);
}

/// Inserts a copy of segment `i` right after it (a retransmission).
pub fn retransmit(segments: &mut Vec<Segment>, i: usize) {
    retransmit_at(segments, i, i + 1);
}

/// Inserts a copy of segment `i` at position `at` (a late retransmission if `at` is further
/// on; `at` counts positions before the insertion).
pub fn retransmit_at(segments: &mut Vec<Segment>, i: usize, at: usize) {
    let copy = segments[i].clone();
    segments.insert(at, copy);
}

/// Removes segment `i` (a gap in its direction's stream, or a lost ACK) and returns it.
pub fn drop_segment(segments: &mut Vec<Segment>, i: usize) -> Segment {
    segments.remove(i)
}

/// Splits segment `i` into two at payload byte `at` (0 < `at` < payload length): the first
/// keeps only ACK among its flags, the second keeps them all.
pub fn split(segments: &mut Vec<Segment>, i: usize, at: usize) {
    let segment = &mut segments[i];
    assert!(
        at > 0 && at < segment.payload.len(),
        "split point {at} is not inside a {}-byte payload",
        segment.payload.len()
    );
    let tail = Segment {
        seq: segment.seq.wrapping_add(at as u32),
        payload: segment.payload.split_off(at),
        ..segment.clone()
    };
    segment.flags = Flags {
        ack: segment.flags.ack,
        ..Flags::default()
    };
    segments.insert(i + 1, tail);
}

/// Makes segment `i` start `back` bytes earlier: it re-sends the `back` bytes before it,
/// which other segments of the same direction carry, then its own (new) bytes — a
/// retransmission overlapping what came before. Change the payload afterwards for an
/// overlap whose bytes disagree. Panics if some of those bytes are in no other segment.
pub fn overlap(segments: &mut [Segment], i: usize, back: usize) {
    let (from_client, seq) = (segments[i].from_client, segments[i].seq);
    let start = seq.wrapping_sub(back as u32);
    let earlier: Vec<u8> = (0..back)
        .map(|k| {
            let want = start.wrapping_add(k as u32);
            segments
                .iter()
                .enumerate()
                .filter(|&(j, s)| j != i && s.from_client == from_client)
                .find_map(|(_, s)| {
                    // Payload starts after the SYN's sequence number.
                    let first = s.seq.wrapping_add(u32::from(s.flags.syn));
                    let index = want.wrapping_sub(first) as usize;
                    s.payload.get(index).copied()
                })
                .unwrap_or_else(|| panic!("no segment carries sequence number {want}"))
        })
        .collect();
    let segment = &mut segments[i];
    segment.seq = start;
    segment.payload.splice(0..0, earlier);
}

/// Indices of the segments from one side that carry payload.
pub fn data_segments(segments: &[Segment], from_client: bool) -> Vec<usize> {
    segments
        .iter()
        .enumerate()
        .filter(|(_, s)| s.from_client == from_client && !s.payload.is_empty())
        .map(|(i, _)| i)
        .collect()
}

/// Round-robin merge: the first packet of each list, then the second of each, and so on
/// (lists may differ in length).
pub fn interleave(lists: Vec<Vec<Packet>>) -> Vec<Packet> {
    let mut iters: Vec<_> = lists.into_iter().map(Vec::into_iter).collect();
    let mut out = Vec::new();
    loop {
        let before = out.len();
        out.extend(iters.iter_mut().filter_map(Iterator::next));
        if out.len() == before {
            return out;
        }
    }
}
