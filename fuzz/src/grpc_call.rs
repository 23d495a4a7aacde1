//! A capture of one gRPC call, built around bytes the fuzzer chose: a classic pcap file
//! (Ethernet, IPv4, one TCP connection with its handshake) carrying HTTP/2 with prior
//! knowledge, stream 1 a unary or streaming call whose bodies and status fields are
//! given. Only what `grpc_decoder` needs: every header field is an HPACK literal without
//! indexing and with a new name, so any value bytes go through as they are.

/// How the response of the call ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// Head, DATA, then the status fields in a trailing HEADERS frame ending the stream.
    Trailers,
    /// One HEADERS frame ending the stream, status fields included, no body
    /// (gRPC's "Trailers-Only" response).
    TrailersOnly,
    /// Head and DATA, the last DATA frame ending the stream: no status at all.
    NoTrailers,
    /// Head and DATA, then the capture ends: no END_STREAM, no FIN.
    Cut,
}

/// One call. `fields` are the status fields (`grpc-status`, `grpc-message`,
/// `grpc-status-details-bin`), sent as trailers or, for [`Shape::TrailersOnly`], in the
/// response head.
#[derive(Clone, Debug)]
pub struct Call<'a> {
    pub path: &'a str,
    /// The request's `content-type`: gRPC's or not decides whether the view decodes it.
    pub content_type: &'a [u8],
    /// `grpc-encoding` of both messages, when sent.
    pub encoding: Option<&'a str>,
    pub request: &'a [u8],
    pub response: &'a [u8],
    pub shape: Shape,
    pub fields: Vec<(&'static [u8], Vec<u8>)>,
    /// Both peers send SETTINGS 0xfe03 = 1 (true binary metadata).
    pub true_binary: bool,
    /// DATA frames of 13 bytes and TCP segments of 97, rather than 16,384 and 1,400:
    /// messages and prefixes straddle frames and segments.
    pub small: bool,
}

pub const PREFACE: &[u8] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
const DATA: u8 = 0;
const HEADERS: u8 = 1;
const SETTINGS: u8 = 4;
const CONTINUATION: u8 = 9;
const END_STREAM: u8 = 0x1;
const ACK: u8 = 0x1;
const END_HEADERS: u8 = 0x4;
const MAX_FRAME: usize = 16_384;

fn frame(out: &mut Vec<u8>, kind: u8, flags: u8, stream: u32, payload: &[u8]) {
    let len = payload.len() as u32;
    out.extend_from_slice(&len.to_be_bytes()[1..]);
    out.extend_from_slice(&[kind, flags]);
    out.extend_from_slice(&stream.to_be_bytes());
    out.extend_from_slice(payload);
}

/// An HPACK integer with an `bits`-bit prefix (RFC 7541 §5.1); the first byte's other
/// bits are 0, as a literal without indexing and a plain string length have them.
fn hpack_int(out: &mut Vec<u8>, value: usize, bits: u32) {
    let top = (1usize << bits) - 1;
    if value < top {
        out.push(value as u8);
        return;
    }
    out.push(top as u8);
    let mut rest = value - top;
    while rest >= 0x80 {
        out.push(0x80 | (rest & 0x7f) as u8);
        rest >>= 7;
    }
    out.push(rest as u8);
}

/// A literal field without indexing, with a new name (RFC 7541 §6.2.2), neither string
/// Huffman-coded.
fn literal(out: &mut Vec<u8>, name: &[u8], value: &[u8]) {
    out.push(0x00);
    hpack_int(out, name.len(), 7);
    out.extend_from_slice(name);
    hpack_int(out, value.len(), 7);
    out.extend_from_slice(value);
}

/// A header block as HEADERS and, past the frame size, CONTINUATION frames.
fn header_block(out: &mut Vec<u8>, stream: u32, fields: &[(&[u8], &[u8])], end_stream: bool) {
    let mut block = Vec::new();
    for (name, value) in fields {
        literal(&mut block, name, value);
    }
    let mut pieces = block.chunks(MAX_FRAME).peekable();
    let first = pieces.next().unwrap_or_default();
    let end = if end_stream { END_STREAM } else { 0 };
    let last = pieces.peek().is_none();
    frame(
        out,
        HEADERS,
        end | if last { END_HEADERS } else { 0 },
        stream,
        first,
    );
    while let Some(piece) = pieces.next() {
        let last = pieces.peek().is_none();
        frame(
            out,
            CONTINUATION,
            if last { END_HEADERS } else { 0 },
            stream,
            piece,
        );
    }
}

/// A body as DATA frames of `size`, the last one ending the stream when `end_stream`.
fn data(out: &mut Vec<u8>, stream: u32, body: &[u8], size: usize, end_stream: bool) {
    if body.is_empty() {
        if end_stream {
            frame(out, DATA, END_STREAM, stream, b"");
        }
        return;
    }
    let count = body.len().div_ceil(size);
    for (i, piece) in body.chunks(size).enumerate() {
        let flags = if end_stream && i + 1 == count {
            END_STREAM
        } else {
            0
        };
        frame(out, DATA, flags, stream, piece);
    }
}

fn settings(out: &mut Vec<u8>, true_binary: bool) {
    let mut payload = Vec::new();
    // SETTINGS_INITIAL_WINDOW_SIZE, as grpc-c sends it.
    payload.extend_from_slice(&[0x00, 0x04, 0x00, 0x40, 0x00, 0x00]);
    if true_binary {
        payload.extend_from_slice(&[0xfe, 0x03, 0x00, 0x00, 0x00, 0x01]);
    }
    frame(out, SETTINGS, 0, 0, &payload);
}

impl Call<'_> {
    /// The client's and the server's bytes, as turns `(from_client, bytes)`.
    pub fn turns(&self) -> Vec<(bool, Vec<u8>)> {
        let size = if self.small { 13 } else { MAX_FRAME };
        let mut client = PREFACE.to_vec();
        settings(&mut client, self.true_binary);
        let mut head: Vec<(&[u8], &[u8])> = vec![
            (b":method", b"POST"),
            (b":scheme", b"http"),
            (b":path", self.path.as_bytes()),
            (b":authority", b"agent.example"),
            (b"content-type", self.content_type),
            (b"te", b"trailers"),
        ];
        if let Some(encoding) = self.encoding {
            head.push((b"grpc-encoding", encoding.as_bytes()));
        }
        head.push((b"grpc-accept-encoding", b"identity, deflate, gzip"));
        head.push((b"a2a-version", b"1.0"));
        header_block(&mut client, 1, &head, false);
        data(&mut client, 1, self.request, size, true);

        let mut server = Vec::new();
        settings(&mut server, self.true_binary);
        frame(&mut server, SETTINGS, ACK, 0, b"");
        let status: Vec<(&[u8], &[u8])> = (self.fields.iter())
            .map(|(name, value)| (*name, value.as_slice()))
            .collect();
        let mut head: Vec<(&[u8], &[u8])> =
            vec![(b":status", b"200"), (b"content-type", b"application/grpc")];
        if let Some(encoding) = self.encoding {
            head.push((b"grpc-encoding", encoding.as_bytes()));
        }
        match self.shape {
            Shape::TrailersOnly => {
                head.extend(status);
                header_block(&mut server, 1, &head, true);
            }
            Shape::Trailers => {
                header_block(&mut server, 1, &head, false);
                data(&mut server, 1, self.response, size, false);
                header_block(&mut server, 1, &status, true);
            }
            Shape::NoTrailers | Shape::Cut => {
                header_block(&mut server, 1, &head, false);
                let end = self.shape == Shape::NoTrailers;
                data(&mut server, 1, self.response, size, end);
            }
        }
        let mut ack = Vec::new();
        frame(&mut ack, SETTINGS, ACK, 0, b"");
        vec![(true, client), (false, server), (true, ack)]
    }

    /// The call as a pcap file.
    pub fn pcap(&self) -> Vec<u8> {
        let mss = if self.small { 97 } else { 1400 };
        let mut tcp = Tcp::default();
        let mut out = pcap_header();
        tcp.segment(&mut out, true, SYN, b"");
        tcp.segment(&mut out, false, SYN | ACK_FLAG, b"");
        tcp.segment(&mut out, true, ACK_FLAG, b"");
        for (from_client, bytes) in self.turns() {
            for piece in bytes.chunks(mss) {
                tcp.segment(&mut out, from_client, PSH | ACK_FLAG, piece);
            }
        }
        if self.shape != Shape::Cut {
            tcp.segment(&mut out, true, FIN | ACK_FLAG, b"");
            tcp.segment(&mut out, false, FIN | ACK_FLAG, b"");
            tcp.segment(&mut out, true, ACK_FLAG, b"");
        }
        out
    }
}

const FIN: u8 = 0x01;
const SYN: u8 = 0x02;
const PSH: u8 = 0x08;
const ACK_FLAG: u8 = 0x10;
const CLIENT: ([u8; 4], u16) = ([10, 0, 0, 1], 41000);
const SERVER: ([u8; 4], u16) = ([10, 0, 0, 2], 50051);

fn pcap_header() -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(&0xa1b2_c3d4u32.to_le_bytes());
    out.extend_from_slice(&2u16.to_le_bytes());
    out.extend_from_slice(&4u16.to_le_bytes());
    out.extend_from_slice(&[0; 8]); // time zone, accuracy
    out.extend_from_slice(&262_144u32.to_le_bytes());
    out.extend_from_slice(&1u32.to_le_bytes()); // Ethernet
    out
}

/// The ones' complement sum of `data`, folded (RFC 1071), before the final inversion.
fn sum16(mut total: u32, data: &[u8]) -> u32 {
    let mut pairs = data.chunks_exact(2);
    for pair in &mut pairs {
        total += u32::from(u16::from_be_bytes([pair[0], pair[1]]));
    }
    if let [last] = pairs.remainder() {
        total += u32::from(*last) << 8;
    }
    while total > 0xffff {
        total = (total & 0xffff) + (total >> 16);
    }
    total
}

/// Both directions' next sequence numbers, and the frame count for timestamps.
struct Tcp {
    seq: [u32; 2],
    frames: u32,
}

impl Default for Tcp {
    fn default() -> Self {
        Tcp {
            seq: [1_000, 70_000],
            frames: 0,
        }
    }
}

impl Tcp {
    fn segment(&mut self, out: &mut Vec<u8>, from_client: bool, flags: u8, payload: &[u8]) {
        let (side, (src, sport), (dst, dport)) = if from_client {
            (0, CLIENT, SERVER)
        } else {
            (1, SERVER, CLIENT)
        };
        let seq = self.seq[side];
        let ack = if flags & ACK_FLAG != 0 {
            self.seq[1 - side]
        } else {
            0
        };
        let grows = u32::from(flags & (SYN | FIN) != 0);
        self.seq[side] = seq.wrapping_add(payload.len() as u32 + grows);

        let mut tcp = Vec::with_capacity(20 + payload.len());
        tcp.extend_from_slice(&sport.to_be_bytes());
        tcp.extend_from_slice(&dport.to_be_bytes());
        tcp.extend_from_slice(&seq.to_be_bytes());
        tcp.extend_from_slice(&ack.to_be_bytes());
        tcp.extend_from_slice(&[5 << 4, flags, 0xff, 0xff, 0, 0, 0, 0]);
        tcp.extend_from_slice(payload);
        let tcp_len = tcp.len() as u16;
        let mut pseudo = Vec::with_capacity(12);
        pseudo.extend_from_slice(&src);
        pseudo.extend_from_slice(&dst);
        pseudo.extend_from_slice(&[0, 6]);
        pseudo.extend_from_slice(&tcp_len.to_be_bytes());
        let checksum = !(sum16(sum16(0, &pseudo), &tcp) as u16);
        tcp[16..18].copy_from_slice(&checksum.to_be_bytes());

        let mut ip = Vec::with_capacity(20 + tcp.len());
        ip.extend_from_slice(&[0x45, 0]);
        ip.extend_from_slice(&(20 + tcp_len).to_be_bytes());
        ip.extend_from_slice(&(self.frames as u16).to_be_bytes());
        ip.extend_from_slice(&[0x40, 0, 64, 6, 0, 0]);
        ip.extend_from_slice(&src);
        ip.extend_from_slice(&dst);
        let checksum = !(sum16(0, &ip) as u16);
        ip[10..12].copy_from_slice(&checksum.to_be_bytes());
        ip.extend_from_slice(&tcp);

        let mac = |ip: [u8; 4]| [0x02, 0x00, ip[0], ip[1], ip[2], ip[3]];
        let len = (14 + ip.len()) as u32;
        let micros = self.frames * 1_000;
        out.extend_from_slice(&(1_700_000_000 + micros / 1_000_000).to_le_bytes());
        out.extend_from_slice(&(micros % 1_000_000).to_le_bytes());
        out.extend_from_slice(&len.to_le_bytes());
        out.extend_from_slice(&len.to_le_bytes());
        out.extend_from_slice(&mac(dst));
        out.extend_from_slice(&mac(src));
        out.extend_from_slice(&0x0800u16.to_be_bytes());
        out.extend_from_slice(&ip);
        self.frames += 1;
    }
}

/// `bytes` in standard base64, with `=` padding or without.
pub fn base64(bytes: &[u8], pad: bool) -> Vec<u8> {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = Vec::with_capacity(bytes.len().div_ceil(3) * 4);
    for group in bytes.chunks(3) {
        let n = group.len();
        let word = u32::from(group[0]) << 16
            | u32::from(*group.get(1).unwrap_or(&0)) << 8
            | u32::from(*group.get(2).unwrap_or(&0));
        for i in 0..4 {
            if i <= n {
                out.push(ALPHABET[(word >> (18 - 6 * i) & 63) as usize]);
            } else if pad {
                out.push(b'=');
            }
        }
    }
    out
}

/// Every byte of `bytes` as `%XX`.
pub fn percent_encode_all(bytes: &[u8]) -> Vec<u8> {
    bytes
        .iter()
        .flat_map(|b| format!("%{b:02X}").into_bytes())
        .collect()
}
