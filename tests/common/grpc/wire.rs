//! gRPC calls on one HTTP/2 connection, as each side's bytes, turn by turn, and as a pcap.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use super::{End, GrpcCall, h2_code};
use crate::h2::{self, Hpack};
use crate::pcap::{self, Conversation, Options, Written};

/// The SETTINGS parameter by which a peer says it accepts true binary metadata (gRPC
/// proposal G1, GRPC_ALLOW_TRUE_BINARY_METADATA); a `-bin` value may then be a 0x00 byte
/// and raw bytes, once both peers have sent it with value 1.
pub const SETTINGS_GRPC_ALLOW_TRUE_BINARY_METADATA: u16 = 0xfe03;

/// Calls on one prior-knowledge HTTP/2 connection over one TCP connection.
#[derive(Clone, Debug)]
pub struct GrpcConnection {
    /// On streams 1, 3, 5, … in order, each answered before the next is sent.
    pub calls: Vec<GrpcCall>,
    /// The parameters of the client's SETTINGS frame.
    pub client_settings: Vec<(u16, u32)>,
    /// The parameters of the server's SETTINGS frame.
    pub server_settings: Vec<(u16, u32)>,
    pub client: SocketAddr,
    pub server: SocketAddr,
    /// The TCP segment size.
    pub mss: usize,
    /// Close the TCP connection at the end (FINs both ways); otherwise the capture stops
    /// with it open.
    pub tcp_close: bool,
}

impl GrpcConnection {
    /// The calls between 10.0.0.1:40000 and 10.0.0.2:50051 (gRPC's customary port),
    /// empty SETTINGS, MSS 1460, closed at the end.
    pub fn new(calls: Vec<GrpcCall>) -> Self {
        GrpcConnection {
            calls,
            client_settings: Vec::new(),
            server_settings: Vec::new(),
            client: "10.0.0.1:40000".parse().unwrap(),
            server: "10.0.0.2:50051".parse().unwrap(),
            mss: Conversation::DEFAULT_MSS,
            tcp_close: true,
        }
    }

    /// Both SETTINGS frames carry 0xfe03 = 1, so `-bin` values may be true binary.
    pub fn true_binary(mut self) -> Self {
        let allow = (SETTINGS_GRPC_ALLOW_TRUE_BINARY_METADATA, 1);
        self.client_settings.push(allow);
        self.server_settings.push(allow);
        self
    }

    /// What each side sends, in order: `(from_client, bytes)`, two turns of one side never
    /// in a row. The client's preface and SETTINGS; the server's SETTINGS and ACK; the
    /// client's ACK; then each call's request and its response (and the client's
    /// RST_STREAM for [`End::ClientCancel`]).
    pub fn turns(&self) -> Vec<(bool, Vec<u8>)> {
        let mut turns = Turns::default();
        let mut client = h2::PREFACE.to_vec();
        client.extend(h2::settings(&self.client_settings));
        turns.push(true, client);
        turns.push(false, h2::settings(&self.server_settings));
        turns.push(false, h2::settings_ack());
        turns.push(true, h2::settings_ack());
        let (mut requests, mut responses) = (Hpack::default(), Hpack::default());
        for (i, call) in self.calls.iter().enumerate() {
            let stream = u32::try_from(2 * i + 1).expect("stream id fits");
            turns.push(true, request(call, stream, &mut requests));
            turns.push(false, response(call, stream, &mut responses));
            if call.response.end == End::ClientCancel {
                turns.push(true, rst_stream(stream, h2_code::CANCEL));
            }
        }
        turns.0
    }

    /// Everything the client sent, and everything the server sent.
    pub fn bytes(&self) -> (Vec<u8>, Vec<u8>) {
        let (mut client, mut server) = (Vec::new(), Vec::new());
        for (from_client, bytes) in self.turns() {
            if from_client {
                &mut client
            } else {
                &mut server
            }
            .extend(bytes);
        }
        (client, server)
    }

    /// The TCP conversation: handshake, the turns, and the close if asked.
    pub fn conversation(&self) -> Conversation {
        let mut conversation = Conversation::new(self.client, self.server).mss(self.mss);
        conversation.handshake();
        for (from_client, bytes) in self.turns() {
            conversation.send(from_client, &bytes);
        }
        if self.tcp_close {
            conversation.close();
        }
        conversation
    }

    /// The capture as `options` say, with where each frame lies.
    pub fn written(&self, options: &Options) -> Written {
        pcap::write_capture(&self.conversation().packets(), options)
    }

    /// The capture as a classic pcap on Ethernet.
    pub fn pcap(&self) -> Vec<u8> {
        self.written(&Options::default()).bytes
    }

    /// Writes [`pcap`](Self::pcap) to `dir/name` (creating `dir`) and gives the path.
    pub fn write_pcap(&self, dir: &Path, name: &str) -> PathBuf {
        std::fs::create_dir_all(dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, self.pcap()).unwrap();
        path
    }

    /// Writes [`pcap`](Self::pcap) as `name` in a new temporary directory, which lives as
    /// long as the returned handle.
    pub fn write_temp(&self, name: &str) -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let path = self.write_pcap(dir.path(), name);
        (dir, path)
    }
}

/// Turns, each side's consecutive bytes joined into one.
#[derive(Default)]
struct Turns(Vec<(bool, Vec<u8>)>);

impl Turns {
    fn push(&mut self, from_client: bool, bytes: Vec<u8>) {
        match self.0.last_mut() {
            _ if bytes.is_empty() => {}
            Some((side, last)) if *side == from_client => last.extend(bytes),
            _ => self.0.push((from_client, bytes)),
        }
    }
}

/// `calls` on one connection as a classic pcap ([`GrpcConnection::new`]'s defaults).
pub fn grpc_pcap(calls: Vec<GrpcCall>) -> Vec<u8> {
    GrpcConnection::new(calls).pcap()
}

/// Writes `calls` on one connection to `dir/name` and gives the path.
pub fn write_grpc_pcap(dir: &Path, name: &str, calls: Vec<GrpcCall>) -> PathBuf {
    GrpcConnection::new(calls).write_pcap(dir, name)
}

/// `tests/fixtures/<rule>`, where a rule's fixture pcaps live.
pub fn fixtures_dir(rule: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(rule)
}

fn rst_stream(stream: u32, code: u32) -> Vec<u8> {
    h2::frame(h2::RST_STREAM, 0, stream, &code.to_be_bytes())
}

/// DATA frames of `bytes`; an empty one if `bytes` is empty and the stream ends here (the
/// only way to end a stream on DATA with nothing to send).
fn data(stream: u32, bytes: &[u8], end_stream: bool) -> Vec<u8> {
    if bytes.is_empty() && end_stream {
        return h2::frame(h2::DATA, h2::END_STREAM, stream, &[]);
    }
    h2::data_frames(stream, bytes, end_stream)
}

/// The request: HEADERS, then each message in DATA frames, the last with END_STREAM (a
/// unary or server-streaming call sends everything at once: gRPC spec, half-close).
fn request(call: &GrpcCall, stream: u32, hpack: &mut Hpack) -> Vec<u8> {
    let block = hpack.block_bytes(&call.request_headers(), call.huffman);
    let mut out = h2::header_frames(stream, &block, call.messages.is_empty());
    for (i, message) in call.messages.iter().enumerate() {
        out.extend(data(stream, message, i + 1 == call.messages.len()));
    }
    out
}

/// The server's side of the stream: headers, messages, and its [`End`].
fn response(call: &GrpcCall, stream: u32, hpack: &mut Hpack) -> Vec<u8> {
    let response = &call.response;
    let mut out = Vec::new();
    if let Some(headers) = &response.headers {
        let block = hpack.block_bytes(headers, call.huffman);
        out.extend(h2::header_frames(stream, &block, false));
    }
    let on_data = response.end == End::DataEndStream;
    for (i, message) in response.messages.iter().enumerate() {
        out.extend(data(
            stream,
            message,
            on_data && i + 1 == response.messages.len(),
        ));
    }
    match &response.end {
        End::Trailers(fields) => {
            let block = hpack.block_bytes(fields, call.huffman);
            out.extend(h2::header_frames(stream, &block, true));
        }
        End::DataEndStream if response.messages.is_empty() => out.extend(data(stream, &[], true)),
        End::ServerReset(code) => out.extend(rst_stream(stream, *code)),
        End::GoAway(code) => {
            let mut payload = stream.to_be_bytes().to_vec();
            payload.extend(code.to_be_bytes());
            out.extend(h2::frame(h2::GOAWAY, 0, 0, &payload));
        }
        End::DataEndStream | End::ClientCancel | End::Open => {}
    }
    out
}
