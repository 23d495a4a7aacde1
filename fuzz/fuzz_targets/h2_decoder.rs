//! HTTP/2 reader (frames, HPACK, streams, views) on two arbitrary directions of one
//! connection: never panics; problems lie inside the file or inside their exchange's
//! text, and every view's origins and spans hold as `pcap_reader` checks them.
//!
//! Input: the client's length (two bytes, big-endian, cut to what is there), a flags
//! byte, an order byte, the client's bytes, then the server's bytes.
//! - flags bit 0 puts the connection preface before the client's bytes (after the
//!   upgrade request, with bit 7); bits 1-2 and 3-4 say how the client's and the server's
//!   direction ended: capture end, FIN, RST, a gap; bits 5-6 cut each direction into TCP
//!   segments of the whole direction, 1400, 64 or 5 bytes; bit 7 starts with an
//!   `Upgrade: h2c` request and its `101` (each direction up to its first blank line, if
//!   both have one, the client's does not start with a blank line and the server's
//!   starts with `HTTP/`) instead of prior knowledge.
//! - order 0 numbers the client's segments as the capture's first frames, then the
//!   server's: every client frame comes first. Order `k` alternates runs of `k` segments,
//!   the client's first, as a conversation does.
//!
//! The "file" the origins point into is the client's bytes, then the server's.
#![no_main]

use std::net::SocketAddr;

use a2alint::input::capture::wire::h2::{H2Start, read_h2};
use a2alint::input::capture::wire::{Connection, Stream, StreamEnd, StreamPiece};
use libfuzzer_sys::fuzz_target;

const PREFACE: &[u8] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";

/// `bytes`, at `file` in the file, as a direction cut into segments of `size`;
/// `frame(n)` numbers segment `n`, and the direction ends in frame `end_frame`.
fn stream(
    bytes: Vec<u8>,
    file: usize,
    size: usize,
    frame: impl Fn(usize) -> u32,
    end: u8,
    end_frame: u32,
) -> Stream {
    let mut pieces = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let len = size.min(bytes.len() - at);
        pieces.push(StreamPiece {
            at,
            file: file + at,
            len,
            frame: frame(pieces.len()),
        });
        at += len;
    }
    let last = pieces.last().map(|p| p.frame);
    let end = match end & 3 {
        0 => StreamEnd::CaptureEnd,
        1 => StreamEnd::Fin { frame: end_frame },
        2 => StreamEnd::Reset { frame: end_frame },
        _ => StreamEnd::Gap {
            before: last,
            after: end_frame,
            missing: Some(100),
            snapshot: false,
        },
    };
    Stream { bytes, pieces, end }
}

/// Where the first blank line of `bytes` ends.
fn head_end(bytes: &[u8]) -> Option<usize> {
    bytes
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .map(|i| i + 4)
}

fuzz_target!(|data: &[u8]| {
    let Some((&[high, low, flags, order], rest)) = data.split_first_chunk::<4>() else {
        return;
    };
    let split = usize::from(u16::from_be_bytes([high, low])).min(rest.len());
    let (client, server) = rest.split_at(split);
    // As `read_http1` hands them over: a request starting with its request line (not a
    // blank line) and a response starting with `HTTP/` (the 101). A range of blank lines
    // makes `parse_head` panic (FUZZING.md, found #5), which no capture can reach.
    let upgrade = if flags & 0x80 != 0
        && !client.starts_with(b"\r")
        && !client.starts_with(b"\n")
        && server.starts_with(b"HTTP/")
    {
        head_end(client).zip(head_end(server))
    } else {
        None
    };
    // The HTTP/2 bytes start after the upgrade request, if any: the preface goes there.
    let at = upgrade.map_or(0, |(request, _)| request);
    let mut client_bytes = client[..at].to_vec();
    if flags & 1 != 0 {
        client_bytes.extend_from_slice(PREFACE);
    }
    client_bytes.extend_from_slice(&client[at..]);
    let file = [client_bytes.as_slice(), server].concat();

    let size = [usize::MAX, 1400, 64, 5][usize::from(flags >> 5 & 3)];
    let count = |len: usize| len.div_ceil(size);
    let (client_count, server_count) = (count(client_bytes.len()), count(server.len()));
    let k = usize::from(order);
    let client_frame = |n: usize| match k {
        0 => n + 1,
        _ => n / k * 2 * k + n % k + 1,
    };
    let server_frame = |n: usize| match k {
        0 => client_count + n + 1,
        _ => n / k * 2 * k + k + n % k + 1,
    };
    let last = [
        client_count.checked_sub(1).map(client_frame),
        server_count.checked_sub(1).map(server_frame),
    ]
    .into_iter()
    .flatten()
    .max()
    .unwrap_or(0);
    let frames = last + 2;
    let client_len = client_bytes.len();
    let client = stream(
        client_bytes,
        0,
        size,
        |n| client_frame(n) as u32,
        flags >> 1,
        last as u32 + 1,
    );
    let server = stream(
        server.to_vec(),
        client_len,
        size,
        |n| server_frame(n) as u32,
        flags >> 3,
        last as u32 + 2,
    );

    let connection = Connection {
        number: 1,
        client: SocketAddr::from(([10, 0, 0, 1], 40000)),
        server: SocketAddr::from(([10, 0, 0, 2], 8080)),
    };
    let start = match upgrade {
        Some((request, switching)) => H2Start::Upgrade {
            request: 0..request,
            switching: 0..switching,
            client_at: request,
            server_at: switching,
        },
        None => H2Start::PriorKnowledge {
            client_at: 0,
            server_at: 0,
        },
    };
    let first_index = usize::from(order & 3);
    let read = read_h2(&connection, &client, &server, start, first_index);

    for problem in &read.problems {
        a2alint_fuzz::check_file_problem(&file, problem);
    }
    for (i, exchange) in read.exchanges.iter().enumerate() {
        assert_eq!(exchange.index, first_index + i, "exchange indices run on");
        assert!(
            exchange.stream.is_some(),
            "an HTTP/2 exchange has a stream id"
        );
        a2alint_fuzz::check_wire_exchange(&file, frames, exchange);
    }
    for (index, problem) in &read.exchange_problems {
        let exchange = index
            .checked_sub(first_index)
            .and_then(|i| read.exchanges.get(i))
            .unwrap_or_else(|| panic!("a problem of exchange {index}, which is not there"));
        a2alint_fuzz::check_text_problem(&exchange.text, problem);
    }
});
