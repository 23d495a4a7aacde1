//! HTTP/2 step three, the driver: both directions' frames are taken in the order the
//! capture saw them, checked against the connection's state (RFC 9113 §5, §6) and
//! gathered into streams.

use std::ops::Range;

use crate::input::capture::model::ReadProblem;
use crate::input::capture::wire::h2::blocks::{LiteralField, OpenBlock};
use crate::input::capture::wire::h2::frames::{self, Frame, RawFrame};
use crate::input::capture::wire::h2::hpack::HeaderDecoder;
use crate::input::capture::wire::h2::streams::{H2Stream, MAX_STREAMS, Streams};
use crate::input::capture::wire::{Stream, StreamEnd, file_span};
use crate::input::source::Span;

pub const CLIENT: usize = 0;
pub const SERVER: usize = 1;

const STOP_HELP: &str = "a2alint read no more of this connection: the frames after this one \
                         cannot be read with certainty; the exchanges before it are kept";
const SKIP_HELP: &str = "a2alint skipped this frame and read the rest of the connection";

/// A problem was recorded that ends the reading of the connection.
pub struct Stopped;

pub type Step = Result<(), Stopped>;

/// One peer's side of the connection: the frames it sends.
pub struct Peer<'a> {
    pub stream: &'a Stream,
    /// Where its next frame starts.
    pub at: usize,
    pub decoder: HeaderDecoder,
    /// The largest frame it may send: the other peer's SETTINGS_MAX_FRAME_SIZE.
    pub max_frame: u32,
    pub open_block: Option<OpenBlock>,
    /// The highest stream id it opened.
    pub last_opened: u32,
    /// Its first frame must be SETTINGS (§3.4), still to be checked.
    preface_settings: bool,
    /// It sent setting 0xfe03 = 1: it takes gRPC true binary metadata.
    pub true_binary: bool,
}

impl<'a> Peer<'a> {
    pub fn new(stream: &'a Stream, at: usize) -> Self {
        Peer {
            stream,
            at,
            decoder: HeaderDecoder::new(),
            max_frame: frames::DEFAULT_MAX_FRAME_SIZE,
            open_block: None,
            last_opened: 0,
            preface_settings: true,
            true_binary: false,
        }
    }

    /// The next frame if its header is there, and the capture frame it is readable
    /// from: the one holding its last byte, or its header's when the frame is too
    /// large (that is an error as soon as the header is read). `Err` when the bytes
    /// stop inside a frame, `Ok(None)` when they stop between frames.
    fn next(&self) -> Result<Option<(u32, RawFrame)>, ()> {
        let bytes = &self.stream.bytes;
        if self.at >= bytes.len() {
            return Ok(None);
        }
        let raw = frames::header(bytes, self.at).ok_or(())?;
        let last = if raw.len > self.max_frame {
            self.at + frames::HEADER_LEN - 1
        } else if raw.bytes().end <= bytes.len() {
            raw.bytes().end - 1
        } else {
            return Err(());
        };
        Ok(Some((self.stream.frame_at(last).unwrap_or(0), raw)))
    }
}

/// Reads a connection's frames into streams.
pub struct Reader<'a> {
    pub peers: [Peer<'a>; 2],
    pub streams: Streams,
    /// Problems about frames: their spans are file spans.
    pub problems: Vec<ReadProblem>,
    /// The lowest GOAWAY each peer sent: `(last stream id, frame)`.
    pub goaway: [Option<(u32, u32)>; 2],
    /// Every literal field of the blocks decoded, in order, when asked for.
    pub literals: Option<Vec<LiteralField>>,
}

impl<'a> Reader<'a> {
    pub fn new(client: Peer<'a>, server: Peer<'a>) -> Self {
        Reader {
            peers: [client, server],
            streams: Streams::default(),
            problems: Vec::new(),
            goaway: [None, None],
            literals: None,
        }
    }

    /// Reads frames until both directions end or a problem stops the reading.
    pub fn run(&mut self) -> Step {
        while let Some((side, raw)) = self.pick() {
            self.frame(side, raw)?;
        }
        for side in [CLIENT, SERVER] {
            self.check_end(side);
        }
        Ok(())
    }

    /// The frame to read next: the one the capture saw first. The capture's order can
    /// differ from the order the peers acted in (a segment captured late, retransmitted),
    /// but a peer cannot send on a stream the other has yet to open: such a frame waits
    /// while the other direction has frames to read.
    fn pick(&self) -> Option<(usize, RawFrame)> {
        let next = [CLIENT, SERVER].map(|side| self.peers[side].next().ok().flatten());
        let side = match &next {
            [Some((client, _)), Some((server, _))] => usize::from(server < client),
            [Some(_), None] => CLIENT,
            [None, Some(_)] => SERVER,
            [None, None] => return None,
        };
        let other = 1 - side;
        let early = next[side].as_ref().is_some_and(|(_, raw)| {
            // Odd ids are the client's, even ones the server's (§5.1.1).
            let opened_by_other = (raw.stream % 2 == 1) == (other == CLIENT);
            raw.stream != 0 && opened_by_other && raw.stream > self.peers[other].last_opened
        });
        let side = if early && next[other].is_some() {
            other
        } else {
            side
        };
        next[side].clone().map(|(_, raw)| (side, raw))
    }

    /// A direction that stops inside a frame or a header block: worth saying unless a
    /// gap in the capture is the reason, which the TCP reader reports.
    fn check_end(&mut self, side: usize) {
        let peer = &self.peers[side];
        let inside_frame = peer.next().is_err();
        if !(inside_frame || peer.open_block.is_some())
            || matches!(peer.stream.end, StreamEnd::Gap { .. })
        {
            return;
        }
        let len = peer.stream.bytes.len();
        let (message, range) = match &peer.open_block {
            Some(open) if !inside_frame => (
                format!(
                    "the capture ends inside an HTTP/2 header block: the {} frame on stream \
                     {} has no END_HEADERS, and no CONTINUATION follows",
                    open.first.name(),
                    open.stream
                ),
                open.first.bytes(),
            ),
            _ => (
                "the capture ends inside an HTTP/2 frame".to_string(),
                peer.at..len,
            ),
        };
        let span = self.file_span(side, range);
        self.problems.push(ReadProblem::Incomplete {
            span,
            message,
            help: "the connection closed or the capture stopped before the frame was whole; \
                   what came before it was read"
                .into(),
            note: false,
        });
    }

    /// The file span of `range` of a direction's bytes.
    pub fn file_span(&self, side: usize, range: Range<usize>) -> Span {
        let located = self.peers[side].stream.locate(range);
        file_span(located.map_or(Span::default(), |(_, span)| span))
    }

    /// Records a problem with `raw`; `stop` ends the reading.
    pub fn problem(&mut self, side: usize, raw: &RawFrame, what: &str, stop: bool) -> Step {
        let frame = self.peers[side].stream.frame_at(raw.at).unwrap_or(0);
        self.problems.push(ReadProblem::Syntax {
            span: self.file_span(side, raw.bytes()),
            message: format!(
                "HTTP/2 frame {frame}, {} on stream {}: {what}",
                raw.name(),
                raw.stream
            ),
            help: if stop { STOP_HELP } else { SKIP_HELP },
            skipped: true,
        });
        if stop { Err(Stopped) } else { Ok(()) }
    }

    fn frame(&mut self, side: usize, raw: RawFrame) -> Step {
        let peer = &mut self.peers[side];
        peer.at = raw.bytes().end;
        if raw.len > peer.max_frame {
            let what = format!(
                "the frame is {} bytes long, more than the {} the receiver allows \
                 (SETTINGS_MAX_FRAME_SIZE, RFC 9113 §4.2)",
                raw.len, peer.max_frame
            );
            return self.problem(side, &raw, &what, true);
        }
        // §6.10: nothing may come between a header block's frames.
        if let Some(open) = &peer.open_block {
            if raw.kind != frames::CONTINUATION || raw.stream != open.stream {
                let what = format!(
                    "the header block of the {} frame on stream {} is not finished, so only \
                     a CONTINUATION frame on that stream may come next (RFC 9113 §6.10)",
                    open.first.name(),
                    open.stream
                );
                return self.problem(side, &raw, &what, true);
            }
        }
        let parsed = match frames::parse(&peer.stream.bytes, &raw) {
            Ok(parsed) => parsed,
            Err(error) => return self.problem(side, &raw, &error.message, error.fatal),
        };
        if std::mem::take(&mut peer.preface_settings)
            && !matches!(parsed, Frame::Settings { ack: false, .. })
        {
            let what = "the connection preface must end with a SETTINGS frame (RFC 9113 §3.4)";
            return self.problem(side, &raw, what, true);
        }
        match parsed {
            Frame::Data { data, end_stream } => self.data(side, &raw, data, end_stream),
            Frame::Headers {
                fragment,
                end_stream,
                end_headers,
            } => self.begin_block(side, raw, fragment, None, end_stream, end_headers),
            Frame::PushPromise {
                promised,
                fragment,
                end_headers,
            } => {
                if side == CLIENT {
                    return self.problem(side, &raw, "a client cannot push (RFC 9113 §8.4)", true);
                }
                self.begin_block(side, raw, fragment, Some(promised), false, end_headers)
            }
            Frame::Continuation {
                fragment,
                end_headers,
            } => self.continue_block(side, &raw, fragment, end_headers),
            Frame::RstStream { code } => self.reset(side, &raw, code),
            Frame::Settings { ack, params } => self.settings(side, &raw, ack, &params),
            Frame::GoAway { last_stream, .. } => {
                let frame = self.peers[side].stream.frame_at(raw.at).unwrap_or(0);
                let lowest = &mut self.goaway[side];
                if lowest.is_none_or(|(last, _)| last_stream < last) {
                    *lowest = Some((last_stream, frame));
                }
                Ok(())
            }
            Frame::Priority | Frame::Ping | Frame::WindowUpdate | Frame::Unknown => Ok(()),
        }
    }

    /// Opens a stream for a new HEADERS frame from the client (or a PUSH_PROMISE).
    pub fn open(&mut self, side: usize, raw: &RawFrame, stream: H2Stream) -> Step {
        let id = stream.id;
        let peer = &mut self.peers[side];
        let parity_ok = (id % 2 == 1) == (side == CLIENT);
        if !parity_ok || id <= peer.last_opened {
            let what = format!(
                "stream {id} cannot be opened here: the {} opens {} stream ids, each higher \
                 than the last (RFC 9113 §5.1.1)",
                if side == CLIENT { "client" } else { "server" },
                if side == CLIENT { "odd" } else { "even" },
            );
            return self.problem(side, raw, &what, true);
        }
        peer.last_opened = id;
        if !self.streams.open(stream) {
            let what = format!(
                "the connection opens more than {MAX_STREAMS} streams; a2alint follows no more"
            );
            return self.problem(side, raw, &what, true);
        }
        Ok(())
    }
}

impl Reader<'_> {
    /// Checks the client connection preface (RFC 9113 §3.4) and steps past it.
    pub fn preface(&mut self) -> Step {
        let peer = &mut self.peers[CLIENT];
        let bytes = &peer.stream.bytes;
        let start = peer.at.min(bytes.len());
        let have = &bytes[start..];
        let end = start + have.len().min(frames::PREFACE.len());
        if have.starts_with(frames::PREFACE) {
            peer.at = end;
            return Ok(());
        }
        let cut = frames::PREFACE.starts_with(have);
        if cut && (have.is_empty() || matches!(peer.stream.end, StreamEnd::Gap { .. })) {
            return Err(Stopped);
        }
        let span = self.file_span(CLIENT, start..end);
        self.problems.push(if cut {
            ReadProblem::Incomplete {
                span,
                message: "the capture ends inside the HTTP/2 connection preface".into(),
                help: "the connection closed or the capture stopped before the client's \
                       first bytes were whole"
                    .into(),
                note: false,
            }
        } else {
            ReadProblem::Syntax {
                span,
                message: "the client's HTTP/2 bytes do not start with the connection preface \
                          `PRI * HTTP/2.0\\r\\n\\r\\nSM\\r\\n\\r\\n` (RFC 9113 §3.4)"
                    .into(),
                help: STOP_HELP,
                skipped: true,
            }
        });
        Err(Stopped)
    }
}
