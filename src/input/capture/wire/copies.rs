//! For `a2alint redact`: the other captured copies of payload bytes. A retransmitted or
//! overlapping segment carries bytes the reassembled stream took from another packet;
//! a credential masked in one copy must be masked in every copy, or it stays in the file.

use std::ops::Range;

use crate::input::capture::wire::container::for_each_packet;
use crate::input::capture::wire::link::{Decoded, decode};
use crate::input::capture::wire::tcp::Flows;

/// One copy of edited bytes: bytes `from` of edit `edit` (offsets within it) stand again
/// at file range `at`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Copy {
    pub edit: usize,
    pub from: Range<usize>,
    pub at: Range<usize>,
}

/// Every other copy, in `file`, of the payload bytes in `edited` (file ranges, each
/// inside one packet's TCP payload).
pub fn payload_copies(file: &[u8], edited: &[Range<usize>]) -> Vec<Copy> {
    let mut flows = Flows::default();
    // A damaged block ends the walk, as it ends reading.
    let _ = for_each_packet(file, &mut |packet| {
        if let Decoded::Tcp(segment) = decode(&packet) {
            flows.add(&segment);
        }
    });
    flows.copies(edited)
}
