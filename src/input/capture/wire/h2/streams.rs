//! HTTP/2 step three: what each stream carried, gathered frame by frame, kept as
//! decoded fields and ranges of the direction's bytes until the view is written.

use std::collections::HashMap;
use std::ops::Range;

use crate::input::capture::wire::ExchangeEnd;
use crate::input::capture::wire::h2::hpack::Field;

/// Streams followed per connection; past this the connection is not read on (a peer
/// opening streams without end must not grow memory without bound).
pub const MAX_STREAMS: usize = 100_000;
/// Body bytes kept per message. A direction holds at most
/// [`crate::input::capture::MAX_DECODED_BYTES`] in all, so this only keeps one body from
/// taking all of it; the rest is dropped and the body marked cut.
pub const MAX_BODY_BYTES: usize = 64 << 20;

/// A decoded header block and the frame that began it.
#[derive(Debug)]
pub struct Block {
    pub fields: Vec<Field>,
    /// The payload of the HEADERS or PUSH_PROMISE frame (the whole frame when the payload
    /// is empty), in its direction's bytes:
    /// what the block's text maps to.
    pub payload: Range<usize>,
}

impl Block {
    /// The value of the first field named `name`.
    pub fn value(&self, name: &[u8]) -> Option<&[u8]> {
        (self.fields.iter())
            .find(|f| f.name.eq_ignore_ascii_case(name))
            .map(|f| f.value.as_slice())
    }
}

/// How a message's head arrived.
#[derive(Debug)]
pub enum Head {
    Fields(Block),
    /// HTTP/1.1 bytes of the direction before the switch to HTTP/2: an `Upgrade: h2c`
    /// request or its `101` answer (RFC 9113 §3.2).
    Http1(Range<usize>),
}

/// One direction of a stream: a request or a response.
#[derive(Debug, Default)]
pub struct Side {
    pub head: Option<Head>,
    /// DATA payloads (padding stripped), in the direction's bytes.
    pub data: Vec<Range<usize>>,
    pub data_len: usize,
    pub trailers: Option<Block>,
    /// END_STREAM was seen.
    pub ended: bool,
    /// Body bytes past [`MAX_BODY_BYTES`] were dropped.
    pub overflowed: bool,
}

impl Side {
    /// Keeps a DATA payload; `false` when it does not fit in [`MAX_BODY_BYTES`] (the
    /// first time, for a problem).
    pub fn push_data(&mut self, data: Range<usize>) -> bool {
        if self.overflowed {
            return true;
        }
        let total = self.data_len.saturating_add(data.len());
        if total > MAX_BODY_BYTES {
            self.overflowed = true;
            return false;
        }
        self.data_len = total;
        if !data.is_empty() {
            self.data.push(data);
        }
        true
    }
}

/// What a RST_STREAM said.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reset {
    pub code: u32,
    pub by_client: bool,
    pub frame: u32,
}

#[derive(Debug)]
pub struct H2Stream {
    pub id: u32,
    pub request: Side,
    /// 1xx responses (and an upgrade's `101`) before the final response.
    pub interim: Vec<Head>,
    pub response: Side,
    pub reset: Option<Reset>,
}

impl H2Stream {
    pub fn new(id: u32) -> Self {
        H2Stream {
            id,
            request: Side::default(),
            interim: Vec::new(),
            response: Side::default(),
            reset: None,
        }
    }

    /// Client streams have odd ids, pushed ones even (RFC 9113 §5.1.1).
    pub fn by_client(&self) -> bool {
        self.id % 2 == 1
    }

    /// How the stream ended, given the GOAWAY each peer sent: `(last stream id,
    /// frame)` of the lowest one, which bounds the streams the *other* peer opened.
    pub fn end(&self, goaway: [Option<(u32, u32)>; 2]) -> ExchangeEnd {
        if let Some(reset) = self.reset {
            return ExchangeEnd::Reset {
                code: reset.code,
                by_client: reset.by_client,
                frame: reset.frame,
            };
        }
        if self.request.ended && self.response.ended {
            return ExchangeEnd::Complete;
        }
        // The server's GOAWAY (index 1) bounds client streams, the client's pushed ones.
        let bound = if self.by_client() {
            goaway[1]
        } else {
            goaway[0]
        };
        match bound {
            Some((last, frame)) if self.id > last => ExchangeEnd::GoAway { frame },
            _ => ExchangeEnd::Unfinished,
        }
    }
}

/// A connection's streams in the order they were opened.
#[derive(Debug, Default)]
pub struct Streams {
    pub list: Vec<H2Stream>,
    by_id: HashMap<u32, usize>,
}

impl Streams {
    pub fn get(&mut self, id: u32) -> Option<&mut H2Stream> {
        let &index = self.by_id.get(&id)?;
        self.list.get_mut(index)
    }

    /// Adds a stream; `false` when [`MAX_STREAMS`] are already followed.
    pub fn open(&mut self, stream: H2Stream) -> bool {
        if self.list.len() >= MAX_STREAMS {
            return false;
        }
        self.by_id.insert(stream.id, self.list.len());
        self.list.push(stream);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ends_by_reset_completion_goaway_or_not_at_all() {
        let mut stream = H2Stream::new(3);
        assert_eq!(stream.end([None, None]), ExchangeEnd::Unfinished);
        assert_eq!(
            stream.end([None, Some((1, 9))]),
            ExchangeEnd::GoAway { frame: 9 }
        );
        assert_eq!(stream.end([Some((1, 9)), None]), ExchangeEnd::Unfinished);
        stream.request.ended = true;
        stream.response.ended = true;
        assert_eq!(stream.end([None, Some((1, 9))]), ExchangeEnd::Complete);
        stream.reset = Some(Reset {
            code: 8,
            by_client: true,
            frame: 4,
        });
        assert!(matches!(
            stream.end([None, None]),
            ExchangeEnd::Reset { code: 8, .. }
        ));
    }

    #[test]
    fn body_bytes_stop_at_the_cap() {
        let mut side = Side::default();
        assert!(side.push_data(0..MAX_BODY_BYTES));
        assert!(!side.push_data(0..1));
        assert!(side.push_data(0..1));
        assert!(side.overflowed);
        assert_eq!(side.data_len, MAX_BODY_BYTES);
    }
}
