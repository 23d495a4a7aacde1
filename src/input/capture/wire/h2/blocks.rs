//! HTTP/2 step three, header blocks: a HEADERS or PUSH_PROMISE frame and the
//! CONTINUATION frames after it (RFC 9113 §4.3, §6.10) make one block, decoded whole.

use std::ops::Range;

use crate::input::capture::wire::Stream;
use crate::input::capture::wire::h2::connection::{Reader, Step};
use crate::input::capture::wire::h2::frames::RawFrame;
use crate::input::capture::wire::h2::hpack::Field;
use crate::input::capture::wire::h2::streams::Block;

/// The most bytes one header block may take across its CONTINUATION frames: a peer
/// sending CONTINUATION without end must not grow memory without bound.
pub const MAX_BLOCK_BYTES: usize = 1 << 20;

/// A literal field of a header block (RFC 7541 §6.2) with where its value string's
/// octets sit in the capture file: what `redact` needs to replace a value in place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiteralField {
    pub name: Vec<u8>,
    pub value: Vec<u8>,
    /// The value string's octets (after its length prefix) as file ranges, in order: a
    /// block may be cut into frames, and frames into TCP segments, inside a string.
    pub octets: Vec<Range<usize>>,
    /// The octets are Huffman-coded (§5.2); else they are the value itself.
    pub huffman: bool,
    pub stream: u32,
    /// The capture frame holding the string's first octet (the block's first frame's,
    /// for an empty string).
    pub frame: u32,
}

/// A header block whose CONTINUATION frames are still to come.
pub struct OpenBlock {
    pub stream: u32,
    /// For PUSH_PROMISE, the promised stream; for HEADERS, whether it ended the stream.
    pub promised: Option<u32>,
    pub end_stream: bool,
    pub fragments: Vec<Range<usize>>,
    pub len: usize,
    /// The frame that began the block.
    pub first: RawFrame,
}

impl<'a> Reader<'a> {
    pub fn begin_block(
        &mut self,
        side: usize,
        raw: RawFrame,
        fragment: Range<usize>,
        promised: Option<u32>,
        end_stream: bool,
        end_headers: bool,
    ) -> Step {
        let open = OpenBlock {
            stream: raw.stream,
            promised,
            end_stream,
            len: fragment.len(),
            fragments: vec![fragment],
            first: raw,
        };
        if open.len > MAX_BLOCK_BYTES {
            return self.block_too_long(side, &open.first);
        }
        if end_headers {
            return self.end_block(side, open);
        }
        self.peers[side].open_block = Some(open);
        Ok(())
    }

    pub fn continue_block(
        &mut self,
        side: usize,
        raw: &RawFrame,
        fragment: Range<usize>,
        end_headers: bool,
    ) -> Step {
        let Some(mut open) = self.peers[side].open_block.take() else {
            let what = "a CONTINUATION frame must follow a HEADERS, PUSH_PROMISE or \
                        CONTINUATION frame without END_HEADERS (RFC 9113 §6.10)";
            return self.problem(side, raw, what, true);
        };
        open.len += fragment.len();
        if open.len > MAX_BLOCK_BYTES {
            return self.block_too_long(side, raw);
        }
        open.fragments.push(fragment);
        if end_headers {
            return self.end_block(side, open);
        }
        self.peers[side].open_block = Some(open);
        Ok(())
    }

    fn block_too_long(&mut self, side: usize, raw: &RawFrame) -> Step {
        let what = format!(
            "the header block is longer than {MAX_BLOCK_BYTES} bytes (across its CONTINUATION \
             frames, if any); a2alint reads no longer blocks"
        );
        self.problem(side, raw, &what, true)
    }

    /// Decodes a whole header block (always: the dynamic table must follow every block,
    /// RFC 7541 §2.2) and gives it to its stream.
    fn end_block(&mut self, side: usize, open: OpenBlock) -> Step {
        let peer = &mut self.peers[side];
        let bytes: &'a [u8] = &peer.stream.bytes;
        let decoded = match open.fragments.as_slice() {
            [one] => peer.decoder.decode(&bytes[one.clone()]),
            many => {
                let joined: Vec<u8> = (many.iter())
                    .flat_map(|r| bytes[r.clone()].iter().copied())
                    .collect();
                peer.decoder.decode(&joined)
            }
        };
        let fields = match decoded {
            Ok(fields) => fields,
            Err(error) => return self.problem(side, &open.first, &error.to_string(), true),
        };
        if let Some(literals) = &mut self.literals {
            literals.extend(literal_fields(peer.stream, &open, &fields));
        }
        // An empty payload has no file bytes of its own: its frame header stands in.
        let payload = open.first.payload();
        let block = Block {
            fields,
            payload: if payload.is_empty() {
                open.first.bytes()
            } else {
                payload
            },
        };
        match open.promised {
            Some(promised) => self.promise(&open.first, promised, block),
            None => self.headers(side, &open.first, block, open.end_stream),
        }
    }
}

/// The literal fields of the block `open` made, with their value strings' file ranges.
fn literal_fields<'f>(
    dir: &'f Stream,
    open: &'f OpenBlock,
    fields: &'f [Field],
) -> impl Iterator<Item = LiteralField> + 'f {
    fields.iter().filter_map(move |field| {
        let at = field.value_at.as_ref()?;
        let runs = direction_runs(&open.fragments, at.octets.clone());
        let first = runs.first().map_or(open.first.at, |run| run.start);
        Some(LiteralField {
            name: field.name.clone(),
            value: field.value.clone(),
            octets: runs
                .into_iter()
                .flat_map(|run| file_runs(dir, run))
                .collect(),
            huffman: at.huffman,
            stream: open.stream,
            frame: dir.frame_at(first).unwrap_or(0),
        })
    })
}

/// Block offsets `octets` as ranges of the direction's bytes, through the `fragments`
/// the block was joined from.
fn direction_runs(fragments: &[Range<usize>], octets: Range<usize>) -> Vec<Range<usize>> {
    let mut runs = Vec::new();
    let mut block_at = 0;
    for fragment in fragments {
        let from = octets.start.max(block_at);
        let to = octets.end.min(block_at + fragment.len());
        if from < to {
            runs.push(fragment.start + (from - block_at)..fragment.start + (to - block_at));
        }
        block_at += fragment.len();
    }
    runs
}

/// A range of `dir`'s bytes as file ranges, one per TCP segment it spans.
fn file_runs(dir: &Stream, run: Range<usize>) -> impl Iterator<Item = Range<usize>> + '_ {
    let first = dir.pieces.partition_point(|p| p.at + p.len <= run.start);
    dir.pieces[first..]
        .iter()
        .take_while(move |piece| piece.at < run.end)
        .map(move |piece| {
            let start = run.start.max(piece.at) - piece.at + piece.file;
            let end = run.end.min(piece.at + piece.len) - piece.at + piece.file;
            start..end
        })
}
