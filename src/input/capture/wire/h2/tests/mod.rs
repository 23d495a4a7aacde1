//! Tests of the HTTP/2 reader, on traffic written by the shared test writer.

mod frames;
mod hostile;
mod lifecycle;
mod literals;
mod views;

#[path = "../../../../../../tests/common/h2.rs"]
mod writer;

use crate::input::capture::wire::h2::{H2Read, H2Start, read_h2};
use crate::input::capture::wire::{
    Connection, Stream, StreamEnd, StreamPiece, WireExchange, WireParts,
};
use crate::input::capture::wire::{TextOrigin, WireMessage};
use writer::{H2Exchange, fields};

/// Where the piece of frame `n` sits in the made-up capture file: far apart, so an
/// origin's file offset tells which frame and which byte of it.
pub fn file_of(frame: u32) -> usize {
    frame as usize * 100_000 + 54
}

/// `bytes` as a stream cut into segments of `segment` bytes, in frames `first`,
/// `first + step`, …
pub fn stream(bytes: Vec<u8>, segment: usize, first: u32, step: u32) -> Stream {
    let mut pieces = Vec::new();
    for (i, at) in (0..bytes.len()).step_by(segment).enumerate() {
        let frame = first + step * i as u32;
        let len = segment.min(bytes.len() - at);
        pieces.push(StreamPiece {
            at,
            file: file_of(frame),
            len,
            frame,
        });
    }
    Stream {
        bytes,
        pieces,
        end: StreamEnd::Fin { frame: u32::MAX },
    }
}

/// A stream whose runs of bytes are in the given frames, in order.
pub fn stream_of(runs: &[(&[u8], u32)]) -> Stream {
    let mut stream = Stream::default();
    for &(run, frame) in runs {
        stream.pieces.push(StreamPiece {
            at: stream.bytes.len(),
            file: file_of(frame),
            len: run.len(),
            frame,
        });
        stream.bytes.extend(run);
    }
    stream.end = StreamEnd::Fin { frame: u32::MAX };
    stream
}

pub fn connection() -> Connection {
    Connection {
        number: 1,
        client: "10.0.0.1:40000".parse().unwrap(),
        server: "10.0.0.2:50051".parse().unwrap(),
    }
}

pub fn read_pair(client: &Stream, server: &Stream) -> H2Read {
    let start = H2Start::PriorKnowledge {
        client_at: 0,
        server_at: 0,
    };
    read_h2(&connection(), client, server, start, 0)
}

/// The client's bytes in frames 1, 2, …, the server's from frame 1000 on: the client
/// sent everything before the server answered.
pub fn read_conversation(client: Vec<u8>, server: Vec<u8>) -> H2Read {
    read_pair(&stream(client, 1400, 1, 1), &stream(server, 1400, 1000, 1))
}

pub fn text(exchange: &WireExchange) -> String {
    String::from_utf8_lossy(&exchange.text).into_owned()
}

pub fn parts(exchange: &WireExchange) -> (&WireMessage, Option<&WireMessage>, &[WireMessage]) {
    let WireParts::Http2 {
        request,
        interim,
        response,
    } = &exchange.parts
    else {
        panic!("not HTTP/2");
    };
    (request.as_ref().unwrap(), response.as_ref(), interim)
}

/// The text of `span` of the exchange's view.
pub fn at(exchange: &WireExchange, span: crate::input::source::Span) -> &str {
    std::str::from_utf8(&exchange.text[span.range()]).unwrap()
}

/// The problems' messages, for assertions and failure output.
pub fn messages(read: &H2Read) -> Vec<String> {
    use crate::input::capture::model::ReadProblem;
    (read.problems.iter())
        .map(|p| match p {
            ReadProblem::Syntax { message, .. } | ReadProblem::Incomplete { message, .. } => {
                message.clone()
            }
            other => format!("{other:?}"),
        })
        .collect()
}

/// A call that is not gRPC: the same exchange with an opaque body.
pub fn opaque(huffman: bool) -> H2Exchange {
    let mut call = grpc(huffman);
    call.request_headers[4].1 = "application/octet-stream".into();
    call
}

pub fn grpc(huffman: bool) -> H2Exchange {
    H2Exchange {
        request_headers: fields(&[
            (":method", "POST"),
            (":scheme", "http"),
            (":path", "/lf.a2a.v1.A2AService/SendMessage"),
            (":authority", "127.0.0.1:50051"),
            ("content-type", "application/grpc"),
        ]),
        // SendMessageRequest { message { message_id: "m-1" } }
        request_body: b"\0\0\0\0\x07\x12\x05\x0a\x03m-1".to_vec(),
        response_headers: fields(&[(":status", "200"), ("content-type", "application/grpc")]),
        // SendMessageResponse { message { message_id: "m-2" } }
        response_body: b"\0\0\0\0\x07\x12\x05\x0a\x03m-2".to_vec(),
        trailers: fields(&[("grpc-status", "0")]),
        huffman,
    }
}

/// Origins are sorted, cover the text without holes, and exact ones copy file bytes.
pub fn check_origins(exchange: &WireExchange, client: &Stream, server: &Stream) {
    let mut covered = 0;
    for origin in &exchange.origins {
        assert_eq!(origin.text.start, covered, "{:?}", exchange.origins);
        covered = origin.text.end;
        if !origin.exact {
            continue;
        }
        let piece = (client.pieces.iter().chain(&server.pieces))
            .find(|p| p.frame == origin.frame)
            .unwrap();
        let owner = if client.pieces.contains(piece) {
            client
        } else {
            server
        };
        let at = piece.at + (origin.file.start - piece.file);
        assert_eq!(origin.file.len(), origin.text.len());
        assert_eq!(
            &owner.bytes[at..at + origin.file.len()],
            &exchange.text[origin.text.range()]
        );
    }
    assert_eq!(covered, exchange.text.len());
}

/// The exact origin of the first text byte equal to `byte` after the head.
pub fn exact_origin_of(exchange: &WireExchange, byte: u8) -> TextOrigin {
    let (request, _, _) = parts(exchange);
    let at = request.body.raw.start
        + exchange.text[request.body.raw.range()]
            .iter()
            .position(|&b| b == byte)
            .unwrap();
    *exchange
        .origins
        .iter()
        .find(|o| o.exact && o.text.start <= at && at < o.text.end)
        .unwrap()
}

/// What holds for any input: problems point inside the file or their exchange's text,
/// exact origins copy file bytes, every span lies in its view, and each view reads as
/// an exchange.
pub fn check_invariants(read: &H2Read, client: &Stream, server: &Stream) {
    use crate::input::capture::wire::unshift_file_span;
    let pieces: Vec<&StreamPiece> = client.pieces.iter().chain(&server.pieces).collect();
    let file_end = pieces.iter().map(|p| p.file + p.len).max().unwrap_or(0);
    for problem in &read.problems {
        let span = problem_span(problem);
        assert!(
            unshift_file_span(span).is_some_and(|s| s.end <= file_end),
            "{problem:?}"
        );
    }
    for exchange in &read.exchanges {
        let mut last = 0;
        for origin in &exchange.origins {
            assert!(origin.text.start >= last && origin.text.end <= exchange.text.len());
            last = origin.text.start;
            if origin.exact {
                let piece = pieces.iter().find(|p| p.frame == origin.frame).unwrap();
                let owner = if client.pieces.contains(piece) {
                    client
                } else {
                    server
                };
                let at = piece.at + (origin.file.start - piece.file);
                assert_eq!(
                    &owner.bytes[at..at + origin.file.len()],
                    &exchange.text[origin.text.range()]
                );
            }
        }
        let (request, response, interim) = parts(exchange);
        for m in std::iter::once(request).chain(response).chain(interim) {
            for span in [m.start_line, m.first, m.second, m.body.raw] {
                assert!(m.span.start <= span.start && span.end <= m.span.end);
            }
            assert!(m.span.end <= exchange.text.len());
            let fields = m.headers.iter().chain(&m.trailers);
            assert!(
                fields
                    .flat_map(|(n, v)| [n, v])
                    .all(|s| s.end <= exchange.text.len())
            );
        }
        assert!(exchange.http2_exchange().is_some());
    }
    for (index, problem) in &read.exchange_problems {
        assert!(problem_span(problem).end <= read.exchanges[*index].text.len());
    }
}

fn problem_span(problem: &crate::input::capture::model::ReadProblem) -> crate::input::source::Span {
    use crate::input::capture::model::ReadProblem;
    match problem {
        ReadProblem::Syntax { span, .. } | ReadProblem::Incomplete { span, .. } => *span,
        ReadProblem::Undecodable { header, .. } => *header,
        ReadProblem::LengthMismatch { body, .. } => *body,
    }
}
