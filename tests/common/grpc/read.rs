//! Reads one side's HTTP/2 bytes back as frames, fields and gRPC messages, for checks.
//!
//! It shares no code with the writer: a frame parser of its own and loona-hpack's decoder.

use super::Field;

/// One HTTP/2 frame as read back.
#[derive(Clone, Debug)]
pub struct ReadFrame {
    pub kind: u8,
    pub flags: u8,
    pub stream: u32,
    pub payload: Vec<u8>,
    /// For a HEADERS frame, the fields of its header block (CONTINUATIONs joined, and
    /// their frames left out); empty for other frames.
    pub fields: Vec<Field>,
}

/// One side's bytes (the client's preface skipped) as frames, header blocks decoded in
/// order with one HPACK decoder, as the peer would. Panics on a malformed frame or block.
pub fn read_frames(bytes: &[u8]) -> Vec<ReadFrame> {
    const PREFACE: &[u8] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
    let mut rest = bytes.strip_prefix(PREFACE).unwrap_or(bytes);
    let mut decoder = loona_hpack::Decoder::new();
    let (mut out, mut block) = (Vec::<ReadFrame>::new(), Vec::new());
    while !rest.is_empty() {
        assert!(rest.len() >= 9, "a cut frame header");
        let len = u32::from_be_bytes([0, rest[0], rest[1], rest[2]]) as usize;
        let (kind, flags) = (rest[3], rest[4]);
        let stream = u32::from_be_bytes(rest[5..9].try_into().unwrap()) & 0x7fff_ffff;
        let payload = rest[9..9 + len].to_vec();
        rest = &rest[9 + len..];
        // HEADERS = 0x1, CONTINUATION = 0x9, END_HEADERS = 0x4 (RFC 9113 §6.2, §6.10).
        if kind == 0x9 {
            block.extend(&payload);
        } else {
            if kind == 0x1 {
                block = payload.clone();
            }
            out.push(ReadFrame {
                kind,
                flags,
                stream,
                payload,
                fields: Vec::new(),
            });
        }
        if (kind == 0x1 || kind == 0x9) && flags & 0x4 != 0 {
            let fields = decoder.decode(&block).expect("an HPACK block");
            let fields = (fields.into_iter())
                .map(|(n, v)| (String::from_utf8(n).expect("a text name"), v))
                .collect();
            out.last_mut().expect("a HEADERS frame").fields = fields;
        }
    }
    out
}

/// The frames of one stream.
pub fn on_stream(frames: &[ReadFrame], stream: u32) -> Vec<&ReadFrame> {
    frames.iter().filter(|f| f.stream == stream).collect()
}

/// The value of field `name`; panics if there is none.
pub fn value<'a>(fields: &'a [Field], name: &str) -> &'a [u8] {
    let found = fields.iter().find(|(n, _)| n == name);
    &found.unwrap_or_else(|| panic!("no field {name}")).1
}

/// The fields as `name: value` lines (values shown lossily).
pub fn field_lines(fields: &[Field]) -> Vec<String> {
    (fields.iter())
        .map(|(n, v)| format!("{n}: {}", String::from_utf8_lossy(v)))
        .collect()
}

/// The DATA payloads of these frames, joined and split into Length-Prefixed-Messages
/// `(compressed flag, message bytes)`; panics if a prefix's length overruns the data.
pub fn grpc_messages(frames: &[&ReadFrame]) -> Vec<(u8, Vec<u8>)> {
    let body: Vec<u8> = (frames.iter())
        .filter(|f| f.kind == 0x0)
        .flat_map(|f| f.payload.iter().copied())
        .collect();
    let (mut rest, mut out) = (&body[..], Vec::new());
    while !rest.is_empty() {
        assert!(rest.len() >= 5, "a cut message prefix");
        let len = u32::from_be_bytes(rest[1..5].try_into().unwrap()) as usize;
        out.push((rest[0], rest[5..5 + len].to_vec()));
        rest = &rest[5 + len..];
    }
    out
}

/// The parameters of the first frame, which must be a SETTINGS frame (RFC 9113 §3.4).
pub fn first_settings(frames: &[ReadFrame]) -> Vec<(u16, u32)> {
    let first = &frames[0];
    assert_eq!((first.kind, first.flags, first.stream), (0x4, 0, 0));
    (first.payload.chunks(6))
        .map(|p| {
            let value = u32::from_be_bytes(p[2..6].try_into().unwrap());
            (u16::from_be_bytes([p[0], p[1]]), value)
        })
        .collect()
}
