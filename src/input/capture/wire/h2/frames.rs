//! HTTP/2 step one: cuts one direction's bytes into frames (RFC 9113 §4.1) and checks
//! the fixed layout of each frame type (§6), leaving what the frames mean to the caller.

use std::ops::Range;

/// The client connection preface (RFC 9113 §3.4).
pub const PREFACE: &[u8] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
/// Length, type, flags and stream id (§4.1).
pub const HEADER_LEN: usize = 9;
/// SETTINGS_MAX_FRAME_SIZE before a peer raises it, and the most it may be raised to
/// (§6.5.2).
pub const DEFAULT_MAX_FRAME_SIZE: u32 = 1 << 14;
pub const LARGEST_MAX_FRAME_SIZE: u32 = (1 << 24) - 1;

pub const DATA: u8 = 0x0;
pub const HEADERS: u8 = 0x1;
pub const PRIORITY: u8 = 0x2;
pub const RST_STREAM: u8 = 0x3;
pub const SETTINGS: u8 = 0x4;
pub const PUSH_PROMISE: u8 = 0x5;
pub const PING: u8 = 0x6;
pub const GOAWAY: u8 = 0x7;
pub const WINDOW_UPDATE: u8 = 0x8;
pub const CONTINUATION: u8 = 0x9;

const END_STREAM: u8 = 0x1;
const ACK: u8 = 0x1;
const END_HEADERS: u8 = 0x4;
const PADDED: u8 = 0x8;
const PRIORITY_FLAG: u8 = 0x20;

/// A frame's header, and where the frame sits in its direction's bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawFrame {
    /// Offset of the frame header.
    pub at: usize,
    pub len: u32,
    pub kind: u8,
    pub flags: u8,
    /// The stream id, reserved bit cleared (§4.1: it MUST be ignored).
    pub stream: u32,
}

impl RawFrame {
    pub fn payload(&self) -> Range<usize> {
        let start = self.at + HEADER_LEN;
        start..start + self.len as usize
    }

    /// The whole frame, header and payload.
    pub fn bytes(&self) -> Range<usize> {
        self.at..self.payload().end
    }

    pub fn name(&self) -> &'static str {
        kind_name(self.kind)
    }
}

pub fn kind_name(kind: u8) -> &'static str {
    match kind {
        DATA => "DATA",
        HEADERS => "HEADERS",
        PRIORITY => "PRIORITY",
        RST_STREAM => "RST_STREAM",
        SETTINGS => "SETTINGS",
        PUSH_PROMISE => "PUSH_PROMISE",
        PING => "PING",
        GOAWAY => "GOAWAY",
        WINDOW_UPDATE => "WINDOW_UPDATE",
        CONTINUATION => "CONTINUATION",
        _ => "unknown-type",
    }
}

/// The frame header at `at`, if all 9 bytes of it are in `bytes`.
pub fn header(bytes: &[u8], at: usize) -> Option<RawFrame> {
    let header = bytes.get(at..at.checked_add(HEADER_LEN)?)?;
    Some(RawFrame {
        at,
        len: u32::from_be_bytes([0, header[0], header[1], header[2]]),
        kind: header[3],
        flags: header[4],
        stream: u32::from_be_bytes([header[5], header[6], header[7], header[8]]) & 0x7fff_ffff,
    })
}

/// What a frame says, its ranges being offsets into the direction's bytes.
#[derive(Debug, PartialEq, Eq)]
pub enum Frame {
    Data {
        data: Range<usize>,
        end_stream: bool,
    },
    Headers {
        fragment: Range<usize>,
        end_stream: bool,
        end_headers: bool,
    },
    Priority,
    RstStream {
        code: u32,
    },
    Settings {
        ack: bool,
        /// `(identifier, value)` pairs in order (§6.5.1).
        params: Vec<(u16, u32)>,
    },
    PushPromise {
        promised: u32,
        fragment: Range<usize>,
        end_headers: bool,
    },
    Ping,
    GoAway {
        last_stream: u32,
        code: u32,
    },
    WindowUpdate,
    Continuation {
        fragment: Range<usize>,
        end_headers: bool,
    },
    /// A type this reader does not know: skipped (§4.1, §5.5).
    Unknown,
}

/// Why a frame's layout is wrong. `fatal` when the connection cannot be read on
/// (the frame carried a header block, or its layout error is a connection error).
#[derive(Debug, PartialEq, Eq)]
pub struct LayoutError {
    pub message: String,
    pub fatal: bool,
}

fn fatal(message: impl Into<String>) -> LayoutError {
    LayoutError {
        message: message.into(),
        fatal: true,
    }
}

fn skipped(message: impl Into<String>) -> LayoutError {
    LayoutError {
        message: message.into(),
        fatal: false,
    }
}

/// Reads the payload of `frame`, whose bytes are all in `bytes`.
pub fn parse(bytes: &[u8], frame: &RawFrame) -> Result<Frame, LayoutError> {
    let range = frame.payload();
    let Some(payload) = bytes.get(range.clone()) else {
        return Err(fatal("the bytes end inside the frame"));
    };
    let flag = |f: u8| frame.flags & f != 0;
    let on_stream = || -> Result<(), LayoutError> {
        if frame.stream == 0 {
            return Err(fatal(format!(
                "a {} frame must be on a stream, not stream 0",
                frame.name()
            )));
        }
        Ok(())
    };
    let on_connection = || -> Result<(), LayoutError> {
        if frame.stream != 0 {
            return Err(fatal(format!(
                "a {} frame must be on stream 0, not stream {}",
                frame.name(),
                frame.stream
            )));
        }
        Ok(())
    };
    let exact_len = |want: u32| -> Result<(), LayoutError> {
        if frame.len != want {
            return Err(fatal(format!(
                "a {} frame's payload is {want} bytes, this one's is {}",
                frame.name(),
                frame.len
            )));
        }
        Ok(())
    };
    match frame.kind {
        DATA => {
            on_stream()?;
            let data = unpad(range, payload, flag(PADDED), 0).map_err(skipped)?;
            Ok(Frame::Data {
                data,
                end_stream: flag(END_STREAM),
            })
        }
        HEADERS => {
            on_stream()?;
            // §6.2: with PRIORITY set, an exclusive bit, stream dependency and weight
            // (5 bytes) come before the fragment.
            let skip = if flag(PRIORITY_FLAG) { 5 } else { 0 };
            let fragment = unpad(range, payload, flag(PADDED), skip).map_err(fatal)?;
            Ok(Frame::Headers {
                fragment,
                end_stream: flag(END_STREAM),
                end_headers: flag(END_HEADERS),
            })
        }
        PRIORITY => {
            on_stream()?;
            // §6.3: a wrong length is only a stream error.
            exact_len(5).map_err(|e| skipped(e.message))?;
            Ok(Frame::Priority)
        }
        RST_STREAM => {
            on_stream()?;
            exact_len(4)?;
            Ok(Frame::RstStream {
                code: be32(payload, 0),
            })
        }
        SETTINGS => {
            on_connection()?;
            if flag(ACK) {
                // §6.5: an ACK with a payload is a FRAME_SIZE_ERROR.
                exact_len(0)?;
                return Ok(Frame::Settings {
                    ack: true,
                    params: Vec::new(),
                });
            }
            if payload.len() % 6 != 0 {
                return Err(fatal(format!(
                    "a SETTINGS payload is a multiple of 6 bytes, this one is {}",
                    payload.len()
                )));
            }
            let params = payload
                .chunks_exact(6)
                .map(|p| (u16::from_be_bytes([p[0], p[1]]), be32(p, 2)))
                .collect();
            Ok(Frame::Settings { ack: false, params })
        }
        PUSH_PROMISE => {
            on_stream()?;
            // §6.6: the promised stream id (4 bytes) comes before the fragment.
            let rest = unpad(range, payload, flag(PADDED), 4).map_err(fatal)?;
            let id_at = usize::from(flag(PADDED));
            Ok(Frame::PushPromise {
                promised: be32(payload, id_at) & 0x7fff_ffff,
                fragment: rest,
                end_headers: flag(END_HEADERS),
            })
        }
        PING => {
            on_connection()?;
            exact_len(8)?;
            Ok(Frame::Ping)
        }
        GOAWAY => {
            on_connection()?;
            if payload.len() < 8 {
                return Err(fatal(format!(
                    "a GOAWAY payload is at least 8 bytes, this one is {}",
                    payload.len()
                )));
            }
            Ok(Frame::GoAway {
                last_stream: be32(payload, 0) & 0x7fff_ffff,
                code: be32(payload, 4),
            })
        }
        WINDOW_UPDATE => {
            exact_len(4)?;
            if be32(payload, 0) & 0x7fff_ffff == 0 {
                return Err(skipped("a WINDOW_UPDATE must not have an increment of 0"));
            }
            Ok(Frame::WindowUpdate)
        }
        CONTINUATION => {
            on_stream()?;
            Ok(Frame::Continuation {
                fragment: range,
                end_headers: flag(END_HEADERS),
            })
        }
        _ => Ok(Frame::Unknown),
    }
}

/// The payload `range` less the pad length byte and padding (when `padded`, §6.1) and
/// `skip` bytes of fields before the content.
fn unpad(
    range: Range<usize>,
    payload: &[u8],
    padded: bool,
    skip: usize,
) -> Result<Range<usize>, String> {
    let (head, pad) = match (padded, payload.first()) {
        (false, _) => (0, 0),
        (true, Some(&pad)) => (1, usize::from(pad)),
        (true, None) => return Err("the PADDED flag is set but the payload is empty".into()),
    };
    let before = head + skip;
    if before + pad > payload.len() {
        return Err(format!(
            "{pad} bytes of padding and {before} bytes of fields do not fit in a \
             {}-byte payload",
            payload.len()
        ));
    }
    Ok(range.start + before..range.end - pad)
}

fn be32(bytes: &[u8], at: usize) -> u32 {
    let mut word = [0; 4];
    if let Some(b) = bytes.get(at..at + 4) {
        word.copy_from_slice(b);
    }
    u32::from_be_bytes(word)
}
