//! HTTP/2 step three, continued: what each frame does to its stream and to the
//! connection's settings (RFC 9113 §5.1 stream states, §6 frame definitions, §8.1).

use std::ops::Range;

use crate::input::capture::model::ReadProblem;
use crate::input::capture::wire::h2::connection::{CLIENT, Reader, SERVER, Step};
use crate::input::capture::wire::h2::frames::{self, RawFrame};
use crate::input::capture::wire::h2::streams::{Block, H2Stream, Head, MAX_BODY_BYTES, Reset};

const HEADER_TABLE_SIZE: u16 = 0x1;
const ENABLE_PUSH: u16 = 0x2;
const INITIAL_WINDOW_SIZE: u16 = 0x4;
const MAX_FRAME_SIZE: u16 = 0x5;

/// What a frame on a stream turned out to be, decided while the stream is borrowed.
enum Outcome {
    Kept,
    /// A frame the stream's state does not allow; `true` when the connection cannot be
    /// read on.
    Wrong(String, bool),
    /// A body grew past [`MAX_BODY_BYTES`].
    Overflow,
}

impl<'a> Reader<'a> {
    fn settle(&mut self, side: usize, raw: &RawFrame, outcome: Outcome) -> Step {
        match outcome {
            Outcome::Kept => Ok(()),
            Outcome::Wrong(what, stop) => self.problem(side, raw, &what, stop),
            Outcome::Overflow => {
                let frame = self.peers[side].stream.frame_at(raw.at).unwrap_or(0);
                let which = if side == CLIENT {
                    "request"
                } else {
                    "response"
                };
                self.problems.push(ReadProblem::Incomplete {
                    span: self.file_span(side, raw.bytes()),
                    message: format!(
                        "HTTP/2 frame {frame}: the {which} body on stream {} is longer than \
                         {} MiB; a2alint read its first {} MiB",
                        raw.stream,
                        MAX_BODY_BYTES >> 20,
                        MAX_BODY_BYTES >> 20
                    ),
                    help: "the body is treated as cut at that point".into(),
                    note: false,
                });
                Ok(())
            }
        }
    }

    pub fn data(
        &mut self,
        side: usize,
        raw: &RawFrame,
        data: Range<usize>,
        end_stream: bool,
    ) -> Step {
        let outcome = match self.streams.get(raw.stream) {
            // §5.1: only HEADERS and PRIORITY may come on an idle stream.
            None => Outcome::Wrong("DATA on a stream that was never opened".into(), true),
            Some(stream) => {
                let part = if side == CLIENT {
                    &mut stream.request
                } else {
                    &mut stream.response
                };
                if part.ended {
                    Outcome::Wrong("DATA after the sender ended the stream".into(), false)
                } else if part.head.is_none() {
                    Outcome::Wrong("DATA before the response HEADERS".into(), false)
                } else {
                    part.ended = end_stream;
                    if part.push_data(data) {
                        Outcome::Kept
                    } else {
                        Outcome::Overflow
                    }
                }
            }
        };
        self.settle(side, raw, outcome)
    }

    /// A header block from HEADERS (and CONTINUATION): a new request, a response, an
    /// interim response or trailers, by the stream's state (§8.1).
    pub fn headers(&mut self, side: usize, raw: &RawFrame, block: Block, end_stream: bool) -> Step {
        let Some(stream) = self.streams.get(raw.stream) else {
            if side == SERVER {
                let what = "HEADERS from the server on a stream the client never opened";
                return self.problem(side, raw, what, true);
            }
            let mut stream = H2Stream::new(raw.stream);
            stream.request.head = Some(Head::Fields(block));
            stream.request.ended = end_stream;
            return self.open(side, raw, stream);
        };
        let part = if side == CLIENT {
            &mut stream.request
        } else {
            &mut stream.response
        };
        let outcome = if part.ended {
            Outcome::Wrong("HEADERS after the sender ended the stream".into(), false)
        } else if part.head.is_none() {
            let status = block
                .value(b":status")
                .and_then(|s| std::str::from_utf8(s).ok());
            let interim = status.is_some_and(|s| s.len() == 3 && s.starts_with('1'));
            part.ended = end_stream;
            if interim {
                stream.interim.push(Head::Fields(block));
            } else {
                part.head = Some(Head::Fields(block));
            }
            Outcome::Kept
        } else if part.trailers.is_some() {
            Outcome::Wrong("a second trailer block on the stream".into(), false)
        } else {
            part.ended = end_stream;
            part.trailers = Some(block);
            Outcome::Kept
        };
        self.settle(side, raw, outcome)
    }

    /// A PUSH_PROMISE's block: the request of the stream the server promises (§8.4).
    pub fn promise(&mut self, raw: &RawFrame, promised: u32, block: Block) -> Step {
        let opened_by_client = raw.stream % 2 == 1 && self.streams.get(raw.stream).is_some();
        if !opened_by_client {
            let what = "a PUSH_PROMISE must be on a stream the client opened (RFC 9113 §6.6)";
            return self.problem(SERVER, raw, what, true);
        }
        let mut stream = H2Stream::new(promised);
        stream.request.head = Some(Head::Fields(block));
        // The client sends nothing on a pushed stream: its request is whole.
        stream.request.ended = true;
        self.open(SERVER, raw, stream)
    }

    pub fn reset(&mut self, side: usize, raw: &RawFrame, code: u32) -> Step {
        let frame = self.peers[side].stream.frame_at(raw.at).unwrap_or(0);
        let Some(stream) = self.streams.get(raw.stream) else {
            // §6.4: RST_STREAM on an idle stream is a connection error.
            let what = "RST_STREAM on a stream that was never opened";
            return self.problem(side, raw, what, true);
        };
        // A reset after both sides ended changes nothing (§5.1, "closed").
        let closed = stream.request.ended && stream.response.ended;
        if stream.reset.is_none() && !closed {
            stream.reset = Some(Reset {
                code,
                by_client: side == CLIENT,
                frame,
            });
        }
        Ok(())
    }

    /// A SETTINGS frame `side` sent: its values bind the *other* peer (§6.5).
    pub fn settings(
        &mut self,
        side: usize,
        raw: &RawFrame,
        ack: bool,
        params: &[(u16, u32)],
    ) -> Step {
        if ack {
            // The acknowledging peer now encodes under the settings it acknowledged.
            self.peers[side].decoder.settings_acknowledged();
            return Ok(());
        }
        let other = 1 - side;
        let mut table_size = None;
        for &(id, value) in params {
            match id {
                // The receiver's table size bounds the table the other peer's encoder
                // keeps, so it is the decoder of the other peer's blocks that changes.
                HEADER_TABLE_SIZE => table_size = Some(value),
                ENABLE_PUSH if value > 1 => {
                    let what = format!("SETTINGS_ENABLE_PUSH is {value}, not 0 or 1");
                    return self.problem(side, raw, &what, true);
                }
                INITIAL_WINDOW_SIZE if value > 0x7fff_ffff => {
                    let what = format!("SETTINGS_INITIAL_WINDOW_SIZE {value} is above 2^31-1");
                    return self.problem(side, raw, &what, true);
                }
                MAX_FRAME_SIZE => {
                    let allowed = frames::DEFAULT_MAX_FRAME_SIZE..=frames::LARGEST_MAX_FRAME_SIZE;
                    if !allowed.contains(&value) {
                        let what =
                            format!("SETTINGS_MAX_FRAME_SIZE {value} is outside 16384..=16777215");
                        return self.problem(side, raw, &what, true);
                    }
                    // The other peer may send larger frames from when it reads this,
                    // which the capture does not show, so the largest value announced
                    // holds (a peer lowering it later is rare and not checked).
                    let max = &mut self.peers[other].max_frame;
                    *max = (*max).max(value);
                }
                crate::input::capture::wire::grpc::TRUE_BINARY_SETTING => {
                    self.peers[side].true_binary = value == 1;
                }
                _ => {}
            }
        }
        self.peers[other].decoder.settings_sent(table_size);
        Ok(())
    }

    /// The settings an upgrade request carried in `HTTP2-Settings`, taken as a SETTINGS
    /// frame the `101` acknowledged (RFC 7540 §3.2.1); values out of range are ignored.
    pub fn upgrade_settings(&mut self, params: &[(u16, u32)]) {
        let server = &mut self.peers[SERVER];
        let table_size = (params.iter().rev())
            .find(|&&(id, _)| id == HEADER_TABLE_SIZE)
            .map(|&(_, value)| value);
        server.decoder.settings_sent(table_size);
        server.decoder.settings_acknowledged();
        let allowed = frames::DEFAULT_MAX_FRAME_SIZE..=frames::LARGEST_MAX_FRAME_SIZE;
        for &(id, value) in params {
            if id == MAX_FRAME_SIZE && allowed.contains(&value) {
                server.max_frame = server.max_frame.max(value);
            }
        }
    }
}
