//! Broken and hostile traffic: each case is a problem, never a panic or a memory blow-up.

use super::writer::*;
use super::*;
use crate::input::capture::model::ReadProblem;
use crate::input::capture::wire::ExchangeEnd;
use crate::input::capture::wire::h2::blocks::MAX_BLOCK_BYTES;
use crate::input::capture::wire::h2::streams::MAX_STREAMS;

/// The client's preface and SETTINGS, then `frames`; the server only sends SETTINGS.
fn client_sends(frames: &[Vec<u8>]) -> H2Read {
    let client = [PREFACE.to_vec(), settings(&[]), frames.concat()].concat();
    read_conversation(client, settings(&[]))
}

/// The single problem is a stopping one whose message holds `part`.
fn assert_stopped(read: &H2Read, part: &str) {
    let [
        ReadProblem::Syntax {
            message,
            skipped: true,
            span,
            ..
        },
    ] = &read.problems[..]
    else {
        panic!("{:?}", read.problems)
    };
    assert!(message.contains(part), "{message}");
    assert!(
        message.starts_with("HTTP/2 frame ") || message.contains("preface"),
        "{message}"
    );
    assert!(crate::input::capture::wire::unshift_file_span(*span).is_some());
}

fn get_block() -> Vec<u8> {
    Hpack::default().block(&fields(&[(":method", "GET"), (":path", "/")]), false)
}

#[test]
fn a_bad_or_cut_preface() {
    let read = read_conversation(b"GET / HTTP/1.1\r\n\r\n".to_vec(), settings(&[]));
    assert_stopped(&read, "connection preface");
    assert!(read.exchanges.is_empty());
    let mut cut = stream(PREFACE[..10].to_vec(), 100, 1, 1);
    cut.end = StreamEnd::CaptureEnd;
    let read = read_pair(&cut, &stream(Vec::new(), 100, 2, 1));
    assert!(matches!(
        &read.problems[..],
        [ReadProblem::Incomplete { .. }]
    ));
    let read = client_sends(&[]);
    assert!(read.problems.is_empty());
    let no_settings = [PREFACE.to_vec(), header_frames(1, &get_block(), true)].concat();
    assert_stopped(
        &read_conversation(no_settings, settings(&[])),
        "must end with a SETTINGS",
    );
}

#[test]
fn a_frame_larger_than_allowed() {
    let big = frame(DATA, END_STREAM, 1, &[b'x'; 20_000]);
    let read = client_sends(&[header_frames(1, &get_block(), false), big.clone()]);
    assert_stopped(&read, "more than the 16384");
    // A header claiming 16 MiB is refused before its bytes are looked for.
    let huge = [&[0xff, 0xff, 0xff, DATA, 0][..], &1u32.to_be_bytes()].concat();
    assert_stopped(&client_sends(&[huge]), "16777215 bytes long");
    // The server allowed it first: read.
    let client = [
        PREFACE.to_vec(),
        settings(&[]),
        header_frames(1, &get_block(), false),
        big,
    ]
    .concat();
    let server = settings(&[(5, 32_768)]);
    let read = read_pair(&stream(client, 1400, 10, 1), &stream(server, 1400, 1, 1));
    assert!(read.problems.is_empty(), "{:?}", read.problems);
    assert_eq!(parts(&read.exchanges[0]).0.body.raw.len(), 20_000);
}

#[test]
fn continuation_misuse() {
    let block = get_block();
    let lone = frame(CONTINUATION, END_HEADERS, 1, &block);
    assert_stopped(&client_sends(&[lone]), "must follow a HEADERS");
    let open = frame(HEADERS, 0, 1, &block[..2]);
    let data = frame(DATA, END_STREAM, 1, b"x");
    assert_stopped(&client_sends(&[open.clone(), data]), "only a CONTINUATION");
    let elsewhere = frame(CONTINUATION, END_HEADERS, 3, &block[2..]);
    assert_stopped(&client_sends(&[open, elsewhere]), "only a CONTINUATION");
}

#[test]
fn endless_continuation_stops_at_the_block_limit() {
    let mut frames = vec![frame(HEADERS, 0, 1, &[0; 100])];
    let chunk = vec![0u8; MAX_FRAME];
    frames.extend((0..MAX_BLOCK_BYTES / MAX_FRAME + 2).map(|_| frame(CONTINUATION, 0, 1, &chunk)));
    assert_stopped(&client_sends(&frames), "longer than 1048576 bytes");
}

#[test]
fn a_corrupt_block_stops_the_connection_but_keeps_what_was_read() {
    let first = header_frames(1, &get_block(), true);
    let corrupt = header_frames(3, &[0xff, 0xff, 0xff, 0xff, 0x0f], true);
    let read = client_sends(&[first, corrupt, header_frames(5, &get_block(), true)]);
    assert_stopped(&read, "HPACK header block is corrupt");
    assert_eq!(read.exchanges.len(), 1);
    assert_eq!(read.exchanges[0].end, ExchangeEnd::Unfinished);
}

#[test]
fn a_table_size_bomb() {
    let mut client = [PREFACE.to_vec(), settings(&[(1, u32::MAX)])].concat();
    client.extend(header_frames(1, &get_block(), true));
    let mut server = settings(&[]);
    server.extend(settings_ack());
    server.extend(header_frames(
        1,
        &[integer(0x0fff_ffff, 5, 0x20), vec![0x88]].concat(),
        true,
    ));
    assert_stopped(&read_conversation(client, server), "a2alint keeps at most");
}

/// A block that adds a 4000-byte field to the table, then refers to it `refs` times.
fn amplified(refs: usize, fresh: bool) -> Vec<u8> {
    let mut block = Vec::new();
    if fresh {
        block.extend([0x40, 1, b'x']);
        block.extend(integer(4000, 7, 0));
        block.extend(vec![b'v'; 4000]);
    }
    block.extend(vec![0x80 | 62; refs]);
    block
}

#[test]
fn a_header_list_past_the_limit() {
    let read = client_sends(&[header_frames(1, &amplified(70, true), true)]);
    assert_stopped(&read, "a2alint reads at most 262144");
    assert!(read.exchanges.is_empty());
}

#[test]
fn header_bytes_per_direction_are_bounded() {
    let mut frames = vec![header_frames(1, &amplified(60, true), true)];
    frames.extend((1..300).map(|i| header_frames(2 * i + 1, &amplified(60, false), true)));
    let read = client_sends(&frames);
    assert_stopped(&read, "decode to more than 64 MiB");
    assert!(read.exchanges.len() < 300);
}

#[test]
fn stream_ids_must_rise_and_run_out() {
    let block = [0x82, 0x84];
    let read = client_sends(&[
        header_frames(3, &block, true),
        header_frames(1, &block, true),
    ]);
    assert_stopped(&read, "stream 1 cannot be opened here");
    assert_stopped(
        &client_sends(&[header_frames(2, &block, true)]),
        "odd stream ids",
    );
    let many: Vec<Vec<u8>> = (0..=MAX_STREAMS as u32)
        .map(|i| header_frames(2 * i + 1, &block, true))
        .collect();
    let read = client_sends(&many);
    assert_stopped(&read, "more than 100000 streams");
    assert_eq!(read.exchanges.len(), MAX_STREAMS);
}

#[test]
fn frames_on_streams_never_opened() {
    assert_stopped(&client_sends(&[frame(DATA, 0, 1, b"x")]), "never opened");
    let rst = frame(RST_STREAM, 0, 5, &[0; 4]);
    assert_stopped(&client_sends(&[rst]), "never opened");
    let client = [PREFACE.to_vec(), settings(&[])].concat();
    let server = [settings(&[]), header_frames(1, &[0x88], true)].concat();
    assert_stopped(&read_conversation(client, server), "never opened");
}

#[test]
fn mangled_traffic_never_panics() {
    let mut call = H2Exchange {
        request_headers: fields(&[(":method", "POST"), (":path", "/a"), ("x", "y")]),
        request_body: vec![7; 300],
        response_headers: fields(&[(":status", "200"), ("content-encoding", "gzip")]),
        response_body: vec![0x1f, 0x8b, 8, 0, 0, 0],
        trailers: fields(&[("grpc-status", "0")]),
        huffman: true,
    };
    let (client, server) = h2_conversation(&[call.clone(), call.clone()]);
    call.huffman = false;
    let (plain_client, plain_server) = h2_conversation(&[call.clone(), call]);
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = move |below: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % below.max(1) as u64) as usize
    };
    for round in 0..3000 {
        let (mut c, mut s) = if round % 2 == 0 {
            (client.clone(), server.clone())
        } else {
            (plain_client.clone(), plain_server.clone())
        };
        let target = if next(2) == 0 { &mut c } else { &mut s };
        for _ in 0..1 + next(4) {
            let at = next(target.len());
            match next(3) {
                0 => target[at] = next(256) as u8,
                1 => target.truncate(at),
                _ => target.insert(at, next(256) as u8),
            }
            if target.is_empty() {
                break;
            }
        }
        let (c, s) = (
            stream(c, 1 + next(200), 1, 1),
            stream(s, 1 + next(200), 5000, 1),
        );
        check_invariants(&read_pair(&c, &s), &c, &s);
    }
}

#[test]
fn many_tiny_huffman_fields_are_refused_before_decoding() {
    // Empty Huffman-coded names and values: three bytes a field, a megabyte of them.
    let block: Vec<u8> = [0x00, 0x80, 0x80].repeat((MAX_BLOCK_BYTES - 16) / 3);
    let read = client_sends(&[header_frames(1, &block, true)]);
    assert_stopped(&read, "a2alint reads at most 262144");
}
