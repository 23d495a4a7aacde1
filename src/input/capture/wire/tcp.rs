//! The third step of the wire reader: TCP segments are sorted into connections and each
//! direction is put back in sequence order. Retransmitted, duplicated and overlapping
//! bytes are taken once; a hole ends the direction, since nothing after it is guessed.

use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
use std::ops::Range;

use crate::input::capture::wire::copies::Copy;
use std::net::SocketAddr;

use crate::input::capture::wire::link::Segment;
use crate::input::capture::wire::{Stream, StreamEnd, StreamPiece};

/// Connections followed at once per file: a SYN flood of half-open connections must
/// not grow memory without bound. Later connections are counted and reported once.
pub const MAX_CONNECTIONS: usize = 100_000;
/// Bytes read per direction of a connection: as many as a decoded body may hold.
pub const MAX_STREAM_BYTES: u64 = crate::input::capture::MAX_DECODED_BYTES;
/// Segments kept per direction (a stream of one-byte segments is still bounded).
pub const MAX_SEGMENTS: usize = 4_000_000;
/// Closed connections whose late packets (the last ACK, a retransmitted FIN) a live
/// read still recognises and drops, rather than taking them for a new connection.
const CLOSED_KEPT: usize = 4096;

type Sockets = (SocketAddr, SocketAddr);
type SocketsHasher = foldhash::fast::RandomState;

/// One TCP connection as captured: both directions' segments, not yet put in order.
#[derive(Debug)]
pub struct Flow {
    pub first_frame: u32,
    /// The peers, as first seen: `dirs[0]` holds what `peers[0]` sent.
    pub peers: [SocketAddr; 2],
    /// Which peer opened the connection (sent the SYN), when the capture shows it.
    pub opener: Option<usize>,
    pub dirs: [Direction; 2],
    /// Read live: every frame of the connection and its packet bytes in the stream.
    pub frames: Vec<(u32, crate::input::source::Span)>,
}

#[derive(Debug, Default)]
pub struct Direction {
    /// The sequence number of the SYN, when seen: data starts one after it.
    syn: Option<u32>,
    segments: Vec<Held>,
    fin: Option<(u32, u32)>,
    rst: Option<u32>,
    bytes: u64,
    /// A limit stopped this direction at this frame.
    pub overflow: Option<u32>,
    /// Read live: the payloads themselves, which `Held::store` points into.
    owned: Option<Vec<u8>>,
}

/// A segment's payload as it sits in the file.
#[derive(Clone, Copy, Debug)]
struct Held {
    seq: u32,
    len: u32,
    file: usize,
    /// Where the payload is in the bytes [`Direction::assemble`] reads: `file`, or in
    /// the direction's own bytes.
    store: usize,
    frame: u32,
    missing: u32,
}

/// Every connection of a capture, in order of first frame.
#[derive(Debug, Default)]
pub struct Flows {
    /// By 0-based number, in order of first frame (a live read removes closed ones).
    pub flows: BTreeMap<usize, Flow>,
    /// Connections seen: the number of the next one.
    pub seen: usize,
    /// Keep each payload's bytes (a live read, whose input is not held).
    pub own_bytes: bool,
    /// Open connections by their two sockets, lower first. Looked up for every segment,
    /// so hashed with foldhash (SipHash was 1.8 % of a run on gRPC captures), seeded per
    /// process so that a crafted capture cannot aim collisions at it.
    by_sockets: HashMap<Sockets, usize, SocketsHasher>,
    /// Sockets of connections a live read closed, oldest first.
    closed: (VecDeque<Sockets>, HashSet<Sockets, SocketsHasher>),
    /// Frames of connections beyond [`MAX_CONNECTIONS`]: the first one, and how many.
    pub dropped: Option<(u32, usize)>,
}

impl Flows {
    /// Adds `segment` to its connection, and says which (its 0-based number).
    pub fn add(&mut self, segment: &Segment<'_>) -> Option<usize> {
        let key = if segment.src <= segment.dst {
            (segment.src, segment.dst)
        } else {
            (segment.dst, segment.src)
        };
        let opening = segment.syn && !segment.ack_flag;
        if self.closed.1.contains(&key) {
            if !opening {
                return None;
            }
            self.closed.1.remove(&key);
        }
        let existing = self.by_sockets.get(&key).copied().filter(|&i| {
            // A new SYN on sockets whose connection already opened with another
            // sequence number is a new connection reusing the ports.
            let flow = &self.flows[&i];
            let dir = flow.peer_index(segment.src);
            !(opening && flow.dirs[dir].syn.is_some_and(|seq| seq != segment.seq))
        });
        let index = match existing {
            Some(index) => index,
            None => {
                if self.flows.len() >= MAX_CONNECTIONS {
                    let dropped = self.dropped.get_or_insert((segment.frame, 0));
                    dropped.1 += 1;
                    return None;
                }
                let mut flow = Flow {
                    first_frame: segment.frame,
                    peers: [segment.src, segment.dst],
                    opener: None,
                    dirs: Default::default(),
                    frames: Vec::new(),
                };
                if self.own_bytes {
                    flow.dirs
                        .iter_mut()
                        .for_each(|d| d.owned = Some(Vec::new()));
                }
                let index = self.seen;
                self.seen += 1;
                self.flows.insert(index, flow);
                self.by_sockets.insert(key, index);
                index
            }
        };
        self.flows.get_mut(&index)?.add(segment);
        Some(index)
    }

    /// Takes connection `index` out (a live read, once it closed): late packets on its
    /// sockets are dropped, until a SYN opens a new connection on them.
    pub fn close(&mut self, index: usize) -> Option<Flow> {
        let flow = self.flows.remove(&index)?;
        let (a, b) = (flow.peers[0], flow.peers[1]);
        let key = if a <= b { (a, b) } else { (b, a) };
        if self.by_sockets.get(&key) == Some(&index) {
            self.by_sockets.remove(&key);
            if self.closed.1.insert(key) {
                self.closed.0.push_back(key);
            }
            while self.closed.0.len() > CLOSED_KEPT {
                let old = self.closed.0.pop_front();
                old.map(|k| self.closed.1.remove(&k));
            }
        }
        Some(flow)
    }
}

impl Flow {
    fn peer_index(&self, addr: SocketAddr) -> usize {
        usize::from(self.peers[0] != addr)
    }

    fn add(&mut self, segment: &Segment<'_>) {
        let side = self.peer_index(segment.src);
        if segment.syn && self.opener.is_none() {
            // RFC 9293 §3.5: the SYN without ACK opens the connection; the SYN-ACK answers.
            self.opener = Some(if segment.ack_flag { 1 - side } else { side });
        }
        let dir = &mut self.dirs[side];
        if segment.syn {
            dir.syn.get_or_insert(segment.seq);
        }
        // The SYN takes one sequence number; its payload (rare) starts after it.
        let seq = if segment.syn {
            segment.seq.wrapping_add(1)
        } else {
            segment.seq
        };
        let len = segment.payload.len() as u32;
        if segment.rst {
            dir.rst.get_or_insert(segment.frame);
        }
        if segment.fin {
            let end = seq.wrapping_add(len).wrapping_add(segment.missing);
            dir.fin.get_or_insert((end, segment.frame));
        }
        if len == 0 && segment.missing == 0 || dir.overflow.is_some() {
            return;
        }
        dir.bytes += u64::from(len);
        if dir.bytes > MAX_STREAM_BYTES || dir.segments.len() >= MAX_SEGMENTS {
            dir.overflow = Some(segment.frame);
            return;
        }
        let store = match &mut dir.owned {
            Some(owned) => {
                owned.extend_from_slice(segment.payload);
                owned.len() - segment.payload.len()
            }
            None => segment.offset,
        };
        dir.segments.push(Held {
            seq,
            len,
            file: segment.offset,
            store,
            frame: segment.frame,
            missing: segment.missing,
        });
    }
}

impl Direction {
    /// Puts the direction's bytes in sequence order, reading them from `file`. `reset`
    /// is the frame of a RST either peer sent: no byte follows it either way.
    pub fn assemble(&self, file: &[u8], reset: Option<u32>) -> Stream {
        let file = self.owned.as_deref().unwrap_or(file);
        let mut stream = Stream::default();
        let Some(base) = self.base() else {
            stream.end = self.end(reset);
            return stream;
        };
        let mut order: Vec<&Held> = self.segments.iter().collect();
        // Sequence order; among copies of the same bytes the first captured wins.
        order.sort_by_key(|h| (h.seq.wrapping_sub(base), h.frame));
        let mut cursor: u64 = 0;
        let mut last_frame: Option<u32> = None;
        // The last segment read was cut by the snapshot length: its sent end, past
        // `cursor`, unless a later copy of those bytes fills them in.
        let mut cut: Option<(u32, u64)> = None;
        for held in order {
            let start = u64::from(held.seq.wrapping_sub(base));
            let end = start + u64::from(held.len);
            if end <= cursor {
                continue; // bytes already read: a retransmission, whole or cut
            }
            if start > cursor {
                let snapshot = cut.is_some_and(|(_, sent)| sent > cursor);
                stream.end = StreamEnd::Gap {
                    before: last_frame,
                    after: if snapshot {
                        last_frame.unwrap_or(held.frame)
                    } else {
                        held.frame
                    },
                    missing: Some(start - cursor),
                    snapshot,
                };
                return stream;
            }
            let skip = (cursor - start) as usize;
            let take = held.len as usize - skip.min(held.len as usize);
            let from = held.store + skip;
            let Some(bytes) = file.get(from..from + take) else {
                break;
            };
            stream.pieces.push(StreamPiece {
                at: stream.bytes.len(),
                file: held.file + skip,
                len: take,
                frame: held.frame,
            });
            stream.bytes.extend_from_slice(bytes);
            cursor = end;
            last_frame = Some(held.frame);
            cut = (held.missing > 0).then(|| (held.frame, end + u64::from(held.missing)));
        }
        if let Some((frame, sent)) = cut.filter(|&(_, sent)| sent > cursor) {
            // The snapshot length cut the last packet read: its last bytes were never saved.
            stream.end = StreamEnd::Gap {
                before: Some(frame),
                after: frame,
                missing: Some(sent - cursor),
                snapshot: true,
            };
            return stream;
        }
        stream.end = self.end(reset);
        if let (StreamEnd::Fin { .. }, Some((fin, frame))) = (stream.end, self.fin) {
            let fin_at = u64::from(fin.wrapping_sub(base));
            if fin_at > cursor {
                stream.end = StreamEnd::Gap {
                    before: last_frame,
                    after: frame,
                    missing: Some(fin_at - cursor),
                    snapshot: false,
                };
            }
        }
        stream
    }

    /// Where the direction's data starts: after the SYN, or at the earliest segment of a
    /// connection the capture joined after its handshake.
    fn base(&self) -> Option<u32> {
        if let Some(syn) = self.syn {
            return Some(syn.wrapping_add(1));
        }
        let first = self.segments.first()?.seq;
        // The segment furthest back from the first one seen (within half the sequence
        // space, RFC 9293 §3.4's comparison) is where the captured bytes start.
        self.segments
            .iter()
            .map(|h| h.seq)
            .min_by_key(|&seq| seq.wrapping_sub(first) as i32)
    }

    fn end(&self, reset: Option<u32>) -> StreamEnd {
        match (reset, self.fin) {
            (Some(frame), _) => StreamEnd::Reset { frame },
            (None, Some((_, frame))) => StreamEnd::Fin { frame },
            (None, None) => StreamEnd::CaptureEnd,
        }
    }
}

impl Flow {
    /// The frame in which peer `peer` (an index of `peers`) first ended its side: its
    /// FIN or its RST, whichever came first. `None` while it kept it open.
    pub fn closed_at(&self, peer: usize) -> Option<u32> {
        let dir = &self.dirs[peer];
        [dir.fin.map(|(_, frame)| frame), dir.rst]
            .into_iter()
            .flatten()
            .min()
    }

    /// Both peers sent a FIN, or either a RST: a live read lints it now.
    pub fn closed(&self) -> bool {
        self.reset().is_some() || self.dirs.iter().all(|d| d.fin.is_some())
    }

    /// The first RST of the connection, from either peer.
    pub fn reset(&self) -> Option<u32> {
        match (self.dirs[0].rst, self.dirs[1].rst) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }
}

impl Flows {
    /// The other copies of the payload bytes `edited` (see [`super::copies`]). Segments
    /// are looked up by file offset, then their direction's segments by sequence number.
    pub fn copies(&self, edited: &[Range<usize>]) -> Vec<Copy> {
        // Every segment, by where its payload sits in the file (frames are in file order).
        let mut by_file: Vec<(usize, usize, usize, u32)> = Vec::new();
        for (&f, flow) in &self.flows {
            for (d, dir) in flow.dirs.iter().enumerate() {
                for held in &dir.segments {
                    by_file.push((held.file, f, d, held.seq));
                }
            }
        }
        by_file.sort_unstable();
        let mut copies = Vec::new();
        for (edit, range) in edited.iter().enumerate() {
            let found = by_file.partition_point(|s| s.0 <= range.start);
            let Some(&(file, f, d, seq)) = found.checked_sub(1).map(|i| &by_file[i]) else {
                continue;
            };
            let dir = &self.flows[&f].dirs[d];
            // Sequence numbers of the edited bytes, relative to this segment's first.
            let start = seq.wrapping_add((range.start - file) as u32);
            let len = range.len() as u32;
            for other in &dir.segments {
                if other.file == file {
                    continue;
                }
                // Where the edited bytes start in `other` (before it when negative),
                // compared within half the sequence space as RFC 9293 §3.4 does.
                let from = i64::from(start.wrapping_sub(other.seq) as i32);
                let lo = from.max(0);
                let hi = (from + i64::from(len)).min(i64::from(other.len));
                if lo >= hi {
                    continue;
                }
                let at = other.file + lo as usize..other.file + hi as usize;
                let skip = (lo - from) as usize;
                copies.push(Copy {
                    edit,
                    from: skip..skip + (hi - lo) as usize,
                    at,
                });
            }
        }
        copies
    }
}
