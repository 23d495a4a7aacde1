//! After `a2alint redact` replaced credential bytes inside packets (same length, so TCP
//! sequence numbers stay right), the TCP checksums of those packets are made right again.

use std::ops::Range;

use crate::input::capture::wire::container::for_each_packet;
use crate::input::capture::wire::link::tcp_checksum;

/// Recomputes the TCP checksum of every packet whose bytes overlap `edited` (sorted
/// file ranges). Packets cut by the snapshot length keep theirs: their checksum covers
/// bytes the file does not hold. Returns how many checksums were written.
pub fn refresh_checksums(file: &mut [u8], edited: &[Range<usize>]) -> usize {
    let mut fixes = Vec::new();
    // A damaged block ends the walk; packets before it are fixed, as the reader read them.
    let _ = for_each_packet(file, &mut |packet| {
        let range = packet.offset..packet.offset + packet.data.len();
        let first = edited.partition_point(|e| e.end <= range.start);
        if edited.get(first).is_some_and(|e| e.start < range.end)
            && let Some(fix) = tcp_checksum(&packet)
        {
            fixes.push(fix);
        }
    });
    for &(field, sum) in &fixes {
        file[field..field + 2].copy_from_slice(&sum.to_be_bytes());
    }
    fixes.len()
}
