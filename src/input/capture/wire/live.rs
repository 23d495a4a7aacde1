//! The wire reader on a capture still being written (`tcpdump -w - | a2alint check -`).

use crate::input::capture::wire::container::{Packet, for_each_packet_after};
use crate::input::capture::wire::link::{Decoded, Segment, decode};
use crate::input::capture::wire::read::{
    container_problem, dropped_problem, fragment_problem, read_flow,
};
use crate::input::capture::wire::tcp::{Flow, Flows, MAX_SEGMENTS};
use crate::input::capture::wire::{Wire, WireExchange};
use crate::input::source::Span;

/// Frames kept per connection: as many as its segments may be, both ways.
const MAX_FRAMES: usize = 2 * MAX_SEGMENTS;

/// The pcapng section header block's type, which is also its magic.
const SECTION_HEADER: [u8; 4] = [0x0a, 0x0d, 0x0d, 0x0a];
/// The classic pcap file header's length.
const PCAP_HEADER: usize = 24;

/// What a live read hands on, connection by connection.
pub enum LiveEvent {
    /// An exchange of the connection being read.
    Exchange(Box<WireExchange>),
    /// The connection whose exchanges came just before is read: its problems (about it,
    /// with [`Wire::connection_problems`]) and its frames ([`Wire::live_frames`]).
    Connection(Wire),
}

/// A pcap or pcapng capture read as it arrives. Bytes are fed as they come; each packet
/// record is read once whole, and each TCP connection is read (by the steps a file's
/// connections go through) as soon as it closes: a FIN each way, or a RST. Only the open
/// connections are held, each with its own payload bytes and frames, and the container's
/// header blocks to read the records after them. Offsets are in the stream of bytes read
/// so far; frames are numbered as in a file.
#[derive(Default)]
pub struct LiveReader {
    /// The container's header blocks (`header` bytes), then the bytes not read yet.
    buf: Vec<u8>,
    header: usize,
    /// Where `buf[header]` is in the stream.
    base: usize,
    frames: u32,
    flows: Flows,
    next_index: usize,
    /// Problems about the stream, frames of them, and the counts.
    wire: Wire,
    fragment: Option<u32>,
    /// The last frame read: a record cut short or damaged comes after it.
    last_frame: Option<(u32, Span)>,
    /// A damaged block: nothing after it is read.
    stopped: bool,
    big_endian: bool,
}

impl LiveReader {
    pub fn new() -> Self {
        let mut reader = LiveReader::default();
        reader.flows.own_bytes = true;
        reader
    }

    /// Reads the packets `bytes` completes, and every connection they close.
    pub fn feed(&mut self, bytes: &[u8], on: &mut dyn FnMut(LiveEvent)) {
        if !self.stopped {
            self.buf.extend_from_slice(bytes);
            self.read(false, on);
        }
    }

    /// The end of the stream: a record cut short is reported, every connection still
    /// open is read, in order of first frame; then the problems about the stream.
    pub fn finish(mut self, on: &mut dyn FnMut(LiveEvent)) -> Wire {
        if !self.stopped {
            self.read(true, on);
        }
        let open: Vec<usize> = self.flows.flows.keys().copied().collect();
        for index in open {
            if let Some(flow) = self.flows.close(index) {
                self.read_connection(index, flow, on);
            }
        }
        self.wire.live_frames.extend(self.last_frame);
        self.wire.live_frames.sort_unstable_by_key(|f| f.0);
        self.wire.live_frames.dedup_by_key(|f| f.0);
        if let Some(frame) = self.fragment {
            fragment_problem(&mut self.wire, frame);
        }
        if let Some((frame, count)) = self.flows.dropped {
            dropped_problem(&mut self.wire, frame, count);
        }
        self.wire.counts.frames = self.frames as usize;
        self.wire.counts.connections = self.flows.seen;
        self.wire
    }

    fn read(&mut self, at_end: bool, on: &mut dyn FnMut(LiveEvent)) {
        let (before, base, header) = (self.frames, self.base, self.header);
        let mut last = before;
        let mut closed = Vec::new();
        let (flows, wire, fragment) = (&mut self.flows, &mut self.wire, &mut self.fragment);
        let mut last_frame = None;
        let result = for_each_packet_after(&self.buf, before, &mut |packet| {
            let frame = packet.frame;
            last = frame;
            let start = base + packet.offset - header;
            let span = Span::new(start, start + packet.data.len());
            last_frame = Some((frame, span));
            let packet = Packet {
                frame,
                offset: start,
                ..packet
            };
            match decode(&packet) {
                Decoded::Tcp(segment) => match flows.add(&segment) {
                    Some(index) => {
                        if let Some(flow) = flows.flows.get_mut(&index) {
                            if keeps_frame(flow, &segment) {
                                flow.frames.push((frame, span));
                            }
                            if flow.closed() {
                                closed.push(index);
                            }
                        }
                    }
                    None if flows.dropped.is_some_and(|d| d.0 == frame) => {
                        wire.live_frames.push((frame, span));
                    }
                    None => {}
                },
                Decoded::Fragment => {
                    if fragment.is_none() {
                        *fragment = Some(frame);
                        wire.live_frames.push((frame, span));
                    }
                    wire.counts.skipped_frames += 1;
                }
                Decoded::Other => wire.counts.skipped_frames += 1,
            }
        });
        self.frames = last;
        self.last_frame = last_frame.or(self.last_frame);
        let consumed = match result {
            Ok(()) => self.buf.len(),
            Err(error) if error.truncated && !at_end => error.offset,
            Err(mut error) => {
                if error.offset >= header {
                    error.offset = base + error.offset - header;
                }
                self.wire.problems.push(container_problem(&error));
                self.stopped = true;
                self.buf.len()
            }
        };
        let kept = self.header_blocks(consumed);
        self.base = base + consumed.max(header) - header;
        let rest = self.buf.split_off(consumed.max(header));
        self.header = kept.len();
        self.buf = kept;
        self.buf.extend_from_slice(&rest);
        for index in closed {
            if let Some(flow) = self.flows.close(index) {
                self.read_connection(index, flow, on);
            }
        }
    }

    /// The container's header blocks up to `consumed`: the pcap file header, or the
    /// pcapng section header and interface descriptions of the current section.
    fn header_blocks(&mut self, consumed: usize) -> Vec<u8> {
        if self.buf.get(..4) != Some(&SECTION_HEADER) {
            let header = if consumed >= PCAP_HEADER {
                PCAP_HEADER
            } else {
                0
            };
            return self.buf[..header.max(self.header)].to_vec();
        }
        let mut kept = self.buf[..self.header].to_vec();
        let mut at = self.header;
        while at + 12 <= consumed {
            let block = &self.buf[at..consumed];
            let section = block[..4] == SECTION_HEADER;
            if section {
                self.big_endian = block[8..12] == [0x1a, 0x2b, 0x3c, 0x4d];
            }
            let word = |i: usize| {
                let b = [block[i], block[i + 1], block[i + 2], block[i + 3]];
                match self.big_endian {
                    true => u32::from_be_bytes(b),
                    false => u32::from_le_bytes(b),
                }
            };
            let len = word(4) as usize;
            if len < 12 || len > block.len() {
                break;
            }
            if section {
                kept.clear();
            }
            // Interface description blocks (type 1) say each interface's link type.
            if section || word(0) == 1 {
                kept.extend_from_slice(&block[..len]);
            }
            at += len;
        }
        kept
    }

    fn read_connection(&mut self, index: usize, mut flow: Flow, on: &mut dyn FnMut(LiveEvent)) {
        let mut wire = Wire {
            live_frames: std::mem::take(&mut flow.frames),
            ..Wire::default()
        };
        let each = &mut |exchange| on(LiveEvent::Exchange(Box::new(exchange)));
        let number = index + 1;
        read_flow(
            &[],
            &flow,
            number,
            &mut wire,
            &mut self.next_index,
            each,
            &mut None,
        );
        let counts = &mut self.wire.counts;
        counts.http_connections += wire.counts.http_connections;
        counts.skipped_connections += wire.counts.skipped_connections;
        counts.tls_connections += wire.counts.tls_connections;
        drop(flow);
        on(LiveEvent::Connection(wire));
    }
}

/// Past [`MAX_FRAMES`] (a connection past its limits), only the frames a problem may name:
/// the ones that open, close or stop a direction.
fn keeps_frame(flow: &Flow, segment: &Segment<'_>) -> bool {
    flow.frames.len() < MAX_FRAMES
        || segment.syn
        || segment.fin
        || segment.rst
        || flow.dirs.iter().any(|d| d.overflow == Some(segment.frame))
}
