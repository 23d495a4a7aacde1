//! Writes HTTP/2 traffic for tests: frames (RFC 9113 §4.1), HPACK header blocks with
//! one encoder per direction (RFC 7541), Huffman-coded strings when asked, and whole
//! conversations. Depends on std and `loona_hpack` only, so the library's unit tests
//! (through `#[path]`) and the integration tests can both include it.

use loona_hpack::Encoder;

pub const PREFACE: &[u8] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
pub const DATA: u8 = 0x0;
pub const HEADERS: u8 = 0x1;
pub const RST_STREAM: u8 = 0x3;
pub const SETTINGS: u8 = 0x4;
pub const PUSH_PROMISE: u8 = 0x5;
pub const GOAWAY: u8 = 0x7;
pub const CONTINUATION: u8 = 0x9;
pub const END_STREAM: u8 = 0x1;
pub const ACK: u8 = 0x1;
pub const END_HEADERS: u8 = 0x4;
pub const PADDED: u8 = 0x8;
/// The largest payload before SETTINGS_MAX_FRAME_SIZE is raised.
pub const MAX_FRAME: usize = 16_384;

/// One request and its response, as `h2_conversation` writes them.
#[derive(Clone, Debug, Default)]
pub struct H2Exchange {
    pub request_headers: Vec<(String, String)>,
    pub request_body: Vec<u8>,
    pub response_headers: Vec<(String, String)>,
    pub response_body: Vec<u8>,
    /// Response trailers, sent in a HEADERS frame after the body.
    pub trailers: Vec<(String, String)>,
    /// Write every string literal Huffman-coded.
    pub huffman: bool,
}

/// `(name, value)` pairs as owned strings.
pub fn fields(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    (pairs.iter())
        .map(|(n, v)| (n.to_string(), v.to_string()))
        .collect()
}

pub fn frame(kind: u8, flags: u8, stream: u32, payload: &[u8]) -> Vec<u8> {
    let len = u32::try_from(payload.len()).expect("payload fits a frame");
    let mut out = len.to_be_bytes()[1..].to_vec();
    out.extend([kind, flags]);
    out.extend(stream.to_be_bytes());
    out.extend(payload);
    out
}

pub fn settings(params: &[(u16, u32)]) -> Vec<u8> {
    let payload: Vec<u8> = (params.iter())
        .flat_map(|(id, value)| id.to_be_bytes().into_iter().chain(value.to_be_bytes()))
        .collect();
    frame(SETTINGS, 0, 0, &payload)
}

pub fn settings_ack() -> Vec<u8> {
    frame(SETTINGS, ACK, 0, &[])
}

/// A header block as HEADERS and, past [`MAX_FRAME`] bytes, CONTINUATION frames.
pub fn header_frames(stream: u32, block: &[u8], end_stream: bool) -> Vec<u8> {
    let mut chunks: Vec<&[u8]> = block.chunks(MAX_FRAME).collect();
    if chunks.is_empty() {
        chunks.push(&[]);
    }
    let last = chunks.len() - 1;
    let mut out = Vec::new();
    for (i, chunk) in chunks.into_iter().enumerate() {
        let kind = if i == 0 { HEADERS } else { CONTINUATION };
        let mut flags = if i == last { END_HEADERS } else { 0 };
        if i == 0 && end_stream {
            flags |= END_STREAM;
        }
        out.extend(frame(kind, flags, stream, chunk));
    }
    out
}

/// A body as DATA frames of at most [`MAX_FRAME`] bytes, the last one ending the stream
/// when `end_stream`.
pub fn data_frames(stream: u32, body: &[u8], end_stream: bool) -> Vec<u8> {
    let chunks: Vec<&[u8]> = body.chunks(MAX_FRAME).collect();
    let mut out = Vec::new();
    for (i, chunk) in chunks.iter().enumerate() {
        let flags = if end_stream && i + 1 == chunks.len() {
            END_STREAM
        } else {
            0
        };
        out.extend(frame(DATA, flags, stream, chunk));
    }
    out
}

/// One direction's HPACK encoder: the dynamic table carries over from block to block.
pub struct Hpack {
    encoder: Encoder<'static>,
}

impl Default for Hpack {
    fn default() -> Self {
        Hpack {
            encoder: Encoder::new(),
        }
    }
}

impl Hpack {
    /// The block for `fields`; with `huffman`, its string literals Huffman-coded (the
    /// fields and table stay the same, only the strings' encoding changes).
    pub fn block(&mut self, fields: &[(String, String)], huffman: bool) -> Vec<u8> {
        let block = (self.encoder).encode(fields.iter().map(|(n, v)| (n.as_bytes(), v.as_bytes())));
        if huffman {
            huffman_strings(&block)
        } else {
            block
        }
    }

    /// Like [`block`](Self::block), but names and values are any bytes: gRPC's "true
    /// binary" metadata puts raw bytes (a 0x00 first) in a field value.
    // Only the gRPC writer uses it, and the library's unit tests include this file too.
    #[allow(dead_code)]
    pub fn block_bytes<N: AsRef<[u8]>, V: AsRef<[u8]>>(
        &mut self,
        fields: &[(N, V)],
        huffman: bool,
    ) -> Vec<u8> {
        let pairs = fields.iter().map(|(n, v)| (n.as_ref(), v.as_ref()));
        let block = self.encoder.encode(pairs);
        if huffman {
            huffman_strings(&block)
        } else {
            block
        }
    }
}

/// Writes `exchanges` on streams 1, 3, 5, …: the client's bytes (preface, SETTINGS, the
/// ACK of the server's, then each request) and the server's (SETTINGS, ACK, each
/// response with its trailers).
pub fn h2_conversation(exchanges: &[H2Exchange]) -> (Vec<u8>, Vec<u8>) {
    let (mut client, mut server) = (PREFACE.to_vec(), settings(&[]));
    client.extend(settings(&[]));
    client.extend(settings_ack());
    server.extend(settings_ack());
    let (mut requests, mut responses) = (Hpack::default(), Hpack::default());
    for (i, exchange) in exchanges.iter().enumerate() {
        let stream = u32::try_from(2 * i + 1).expect("stream id fits");
        let block = requests.block(&exchange.request_headers, exchange.huffman);
        let bodyless = exchange.request_body.is_empty();
        client.extend(header_frames(stream, &block, bodyless));
        client.extend(data_frames(stream, &exchange.request_body, true));
        let block = responses.block(&exchange.response_headers, exchange.huffman);
        let ends_here = exchange.response_body.is_empty() && exchange.trailers.is_empty();
        server.extend(header_frames(stream, &block, ends_here));
        let trailers = !exchange.trailers.is_empty();
        server.extend(data_frames(stream, &exchange.response_body, !trailers));
        if trailers {
            let block = responses.block(&exchange.trailers, exchange.huffman);
            server.extend(header_frames(stream, &block, true));
        }
    }
    (client, server)
}

/// Code lengths of the HPACK Huffman code, symbols 0 to 256 (EOS) (RFC 7541 Appendix B).
/// The code is canonical, so the codes follow from the lengths.
const CODE_LENGTHS: [u8; 257] = [
    13, 23, 28, 28, 28, 28, 28, 28, 28, 24, 30, 28, 28, 30, 28, 28, 28, 28, 28, 28, 28, 28, 30, 28,
    28, 28, 28, 28, 28, 28, 28, 28, 6, 10, 10, 12, 13, 6, 8, 11, 10, 10, 8, 11, 8, 6, 6, 6, 5, 5,
    5, 6, 6, 6, 6, 6, 6, 6, 7, 8, 15, 6, 12, 10, 13, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7,
    7, 7, 7, 7, 7, 7, 7, 7, 8, 7, 8, 13, 19, 13, 14, 6, 15, 5, 6, 5, 6, 5, 6, 6, 6, 5, 7, 7, 6, 6,
    6, 5, 6, 7, 6, 5, 5, 6, 7, 7, 7, 7, 7, 15, 11, 14, 13, 28, 20, 22, 20, 20, 22, 22, 22, 23, 22,
    23, 23, 23, 23, 23, 24, 23, 24, 24, 22, 23, 24, 23, 23, 23, 23, 21, 22, 23, 22, 23, 23, 24, 22,
    21, 20, 22, 22, 23, 23, 21, 23, 22, 22, 24, 21, 22, 23, 23, 21, 21, 22, 21, 23, 22, 23, 23, 20,
    22, 22, 22, 23, 22, 22, 23, 26, 26, 20, 19, 22, 23, 22, 25, 26, 26, 26, 27, 27, 26, 24, 25, 19,
    21, 26, 27, 27, 26, 27, 24, 21, 21, 26, 26, 28, 27, 27, 27, 20, 24, 20, 21, 22, 21, 21, 23, 22,
    22, 25, 25, 24, 24, 26, 23, 26, 27, 26, 26, 27, 27, 27, 27, 27, 28, 27, 27, 27, 27, 27, 26, 30,
];

/// The canonical codes: by length, then symbol, each one more than the last.
fn huffman_codes() -> [u32; 257] {
    let mut order: Vec<usize> = (0..257).collect();
    order.sort_by_key(|&s| (CODE_LENGTHS[s], s));
    let mut codes = [0; 257];
    let (mut code, mut len) = (0u32, CODE_LENGTHS[order[0]]);
    for (i, &symbol) in order.iter().enumerate() {
        if i > 0 {
            code = (code + 1) << (CODE_LENGTHS[symbol] - len);
            len = CODE_LENGTHS[symbol];
        }
        codes[symbol] = code;
    }
    codes
}

/// `bytes` Huffman-coded, padded with the EOS prefix (ones) to a whole byte (§5.2).
pub fn huffman(bytes: &[u8]) -> Vec<u8> {
    let codes = huffman_codes();
    let (mut out, mut acc, mut bits) = (Vec::new(), 0u64, 0u32);
    for &b in bytes {
        acc = (acc << CODE_LENGTHS[usize::from(b)]) | u64::from(codes[usize::from(b)]);
        bits += u32::from(CODE_LENGTHS[usize::from(b)]);
        while bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    if bits > 0 {
        out.push(((acc << (8 - bits)) as u8) | (0xff >> bits));
    }
    out
}

/// An HPACK integer with an `prefix`-bit prefix, the first byte's other bits `flags`
/// (§5.1).
pub fn integer(value: usize, prefix: u8, flags: u8) -> Vec<u8> {
    let max = (1usize << prefix) - 1;
    if value < max {
        return vec![flags | value as u8];
    }
    let (mut out, mut rest) = (vec![flags | max as u8], value - max);
    while rest >= 128 {
        out.push((rest % 128) as u8 | 0x80);
        rest /= 128;
    }
    out.push(rest as u8);
    out
}

fn read_integer(block: &[u8], at: &mut usize, prefix: u8) -> usize {
    let max = (1usize << prefix) - 1;
    let mut value = usize::from(block[*at]) & max;
    *at += 1;
    if value == max {
        let mut shift = 0;
        loop {
            let b = block[*at];
            *at += 1;
            value += usize::from(b & 0x7f) << shift;
            shift += 7;
            if b & 0x80 == 0 {
                break;
            }
        }
    }
    value
}

/// Rewrites a block's plain string literals as Huffman-coded ones.
fn huffman_strings(block: &[u8]) -> Vec<u8> {
    let (mut out, mut at) = (Vec::new(), 0);
    while at < block.len() {
        let first = block[at];
        let start = at;
        // §6: indexed (1), literal with indexing (01), size update (001), other literals.
        let (prefix, literal) = match first {
            b if b & 0x80 != 0 => (7, false),
            b if b & 0x40 != 0 => (6, true),
            b if b & 0x20 != 0 => (5, false),
            _ => (4, true),
        };
        let index = read_integer(block, &mut at, prefix);
        out.extend(&block[start..at]);
        if !literal {
            continue;
        }
        for _ in 0..if index == 0 { 2 } else { 1 } {
            let len = read_integer(block, &mut at, 7);
            let coded = huffman(&block[at..at + len]);
            at += len;
            out.extend(integer(coded.len(), 7, 0x80));
            out.extend(coded);
        }
    }
    out
}
