//! HTTP/2 step two: header blocks are decoded with HPACK (RFC 7541), one decoder per
//! direction kept across streams, within limits a hostile peer cannot talk past.

use std::collections::VecDeque;

use loona_hpack::Decoder;
use loona_hpack::decoder::DecoderError;

use crate::input::capture::wire::h2::huffman::{ValueString, plain_block};

/// SETTINGS_HEADER_TABLE_SIZE until a SETTINGS frame changes it (RFC 9113 §6.5.2).
const DEFAULT_TABLE_SIZE: usize = 4096;
/// The largest dynamic table a2alint keeps for one direction, whatever the receiver
/// announced: a table holds copies of fields, so its size is memory.
pub const MAX_TABLE_SIZE: usize = 64 << 10;
/// The most one header block may decode to, counted as SETTINGS_MAX_HEADER_LIST_SIZE
/// counts (RFC 9113 §6.5.2: name, value and 32 bytes per field). A one-byte indexed
/// field can stand for a 4 KiB table entry, so a small block can decode to a lot.
pub const MAX_LIST_SIZE: usize = 256 << 10;
/// The most all header blocks of one direction may decode to, for the same reason.
pub const MAX_DIRECTION_BYTES: usize = 64 << 20;
/// SETTINGS frames kept waiting for their ACK; a peer that never acknowledges has the
/// oldest one taken as acknowledged.
const MAX_PENDING: usize = 16;

/// One decoded field, as sent (HPACK strings are octets, not text).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    pub name: Vec<u8>,
    pub value: Vec<u8>,
    /// For a literal field, where its value string sits in the block it came in (offsets
    /// into the fragments joined); `None` for an indexed field, whose value is in a table.
    pub value_at: Option<ValueString>,
}

/// Why a header block could not be read. Each one leaves this direction's dynamic table
/// unknown or the connection past a limit, so nothing after it is read.
#[derive(Debug, PartialEq)]
pub enum HpackError {
    Decoding(DecoderError),
    /// Found before the library decodes: a cut field, a bad Huffman string.
    Malformed(&'static str),
    /// A dynamic table size update above what the receiver allowed, or above
    /// [`MAX_TABLE_SIZE`] when it allowed more.
    TableTooLarge {
        allowed: usize,
        announced: u32,
    },
    ListTooLarge {
        size: usize,
    },
    DirectionTooLarge,
}

impl std::fmt::Display for HpackError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HpackError::Decoding(error) => write!(f, "the HPACK header block is corrupt: {error}"),
            HpackError::Malformed(what) => write!(f, "the HPACK header block is corrupt: {what}"),
            HpackError::TableTooLarge { allowed, announced } if *announced as usize > *allowed => {
                write!(
                    f,
                    "a dynamic table size update asks for more than {allowed} bytes; the \
                     receiver allowed {announced}, but a2alint keeps at most {MAX_TABLE_SIZE}"
                )
            }
            HpackError::TableTooLarge { allowed, .. } => write!(
                f,
                "a dynamic table size update asks for more than the {allowed} bytes the \
                 receiver allowed (SETTINGS_HEADER_TABLE_SIZE)"
            ),
            HpackError::ListTooLarge { size } => write!(
                f,
                "the header block decodes to {size} bytes (counted as RFC 9113 \
                 §6.5.2 does); a2alint reads at most {MAX_LIST_SIZE}"
            ),
            HpackError::DirectionTooLarge => write!(
                f,
                "the header blocks sent this way decode to more than {} MiB; a2alint \
                 reads no more of the connection",
                MAX_DIRECTION_BYTES >> 20
            ),
        }
    }
}

/// The decoder for the header blocks one peer sends.
pub struct HeaderDecoder {
    decoder: Decoder<'static>,
    /// The dynamic table size updates accepted: the receiver's
    /// SETTINGS_HEADER_TABLE_SIZE, capped at [`MAX_TABLE_SIZE`].
    allowed: usize,
    /// What the receiver announced, for the message when the cap is what refused.
    announced: u32,
    /// The value the encoder acknowledged last.
    acknowledged: u32,
    /// The receiver's SETTINGS frames the encoder has not acknowledged yet, oldest first,
    /// with the table size each set (if it set one).
    pending: VecDeque<Option<u32>>,
    /// Decoded bytes so far, counted as [`MAX_LIST_SIZE`] counts them.
    spent: usize,
}

impl HeaderDecoder {
    pub fn new() -> Self {
        let mut decoder = Decoder::new();
        decoder.set_max_allowed_table_size(DEFAULT_TABLE_SIZE);
        HeaderDecoder {
            decoder,
            allowed: DEFAULT_TABLE_SIZE,
            announced: DEFAULT_TABLE_SIZE as u32,
            acknowledged: DEFAULT_TABLE_SIZE as u32,
            pending: VecDeque::new(),
            spent: 0,
        }
    }

    /// The receiver sent a SETTINGS frame, with SETTINGS_HEADER_TABLE_SIZE `size` if
    /// it holds one.
    ///
    /// The encoder may act on it from when it reads the frame, which the capture does not
    /// show: a header block encoded just before may be captured after the SETTINGS, and
    /// one encoded just after may be captured before the ACK. So until the ACK either
    /// value is accepted (the largest bounds the table size updates), and from the ACK on
    /// only the new one (RFC 9113 §6.5.3). Only that bound changes (RFC 7541 §4.2): the
    /// table keeps its size until the encoder sends an update, so the library's
    /// assert-guarded `set_max_table_size` is never called.
    pub fn settings_sent(&mut self, size: Option<u32>) {
        if self.pending.len() == MAX_PENDING {
            self.settings_acknowledged();
        }
        self.pending.push_back(size);
        self.apply();
    }

    /// The encoder acknowledged the oldest SETTINGS frame the receiver sent.
    pub fn settings_acknowledged(&mut self) {
        if let Some(Some(size)) = self.pending.pop_front() {
            self.acknowledged = size;
        }
        self.apply();
    }

    fn apply(&mut self) {
        let bound = (self.pending.iter().flatten()).fold(self.acknowledged, |m, &s| m.max(s));
        self.announced = bound;
        self.allowed = (bound as usize).min(MAX_TABLE_SIZE);
        self.decoder.set_max_allowed_table_size(self.allowed);
    }

    /// Decodes one whole header block (HEADERS or PUSH_PROMISE and its CONTINUATION
    /// fragments joined).
    pub fn decode(&mut self, block: &[u8]) -> Result<Vec<Field>, HpackError> {
        let plain = plain_block(block).map_err(HpackError::Malformed)?;
        // Every field counts 32 bytes at least: too many is refused before decoding.
        let count = plain.values.len();
        if count.saturating_mul(32) > MAX_LIST_SIZE {
            return Err(HpackError::ListTooLarge { size: count * 32 });
        }
        let mut fields = Vec::with_capacity(count);
        let mut size = 0usize;
        // The library hands back one field per representation, in order, as the plain
        // block lists them (a dynamic table size update gives none, §6.3).
        let mut values = plain.values.into_iter();
        let result = self.decoder.decode_with_cb(&plain.bytes, |name, value| {
            let value_at = values.next().flatten();
            // The library has no way to stop from here: past the limit, fields are
            // counted and dropped, and the block is refused after it ends.
            size = size.saturating_add(name.len() + value.len() + 32);
            if size <= MAX_LIST_SIZE {
                fields.push(Field {
                    name: name.into_owned(),
                    value: value.into_owned(),
                    value_at,
                });
            }
        });
        match result {
            Err(DecoderError::InvalidMaxDynamicSize) => {
                return Err(HpackError::TableTooLarge {
                    allowed: self.allowed,
                    announced: self.announced,
                });
            }
            Err(error) => return Err(HpackError::Decoding(error)),
            Ok(()) => {}
        }
        if size > MAX_LIST_SIZE {
            return Err(HpackError::ListTooLarge { size });
        }
        self.spent += size;
        if self.spent > MAX_DIRECTION_BYTES {
            return Err(HpackError::DirectionTooLarge);
        }
        Ok(fields)
    }
}
