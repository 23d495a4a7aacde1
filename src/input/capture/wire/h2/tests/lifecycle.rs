//! How streams and the connection evolve: the dynamic table across streams, resets,
//! GOAWAY, interleaving, pushes, table size settings, a capture that stops mid-frame.

use super::writer::*;
use super::*;
use crate::input::capture::model::ReadProblem;
use crate::input::capture::wire::ExchangeEnd;

/// Client bytes: preface, SETTINGS and a GET on each of `streams`, in frame 1.
fn gets(streams: &[u32]) -> Vec<u8> {
    let mut hpack = Hpack::default();
    let mut client = [PREFACE.to_vec(), settings(&[])].concat();
    for &id in streams {
        let block = hpack.block(&fields(&[(":method", "GET"), (":path", "/")]), false);
        client.extend(header_frames(id, &block, true));
    }
    client
}

/// The server answers stream 1 with a block that first sets its table to `size`.
fn table_update(client_settings: &[(u16, u32)], size: usize, ack: bool) -> H2Read {
    let mut client = [PREFACE.to_vec(), settings(client_settings)].concat();
    client.extend(gets(&[1])[PREFACE.len() + 9..].to_vec());
    let mut server = settings(&[]);
    if ack {
        server.extend(settings_ack());
    }
    let block = [integer(size, 5, 0x20), vec![0x88]].concat();
    server.extend(header_frames(1, &block, true));
    read_conversation(client, server)
}

#[test]
fn reuses_the_dynamic_table_across_streams() {
    let mut call = grpc(false);
    call.request_headers
        .push(("x-agent-id".into(), "travel-planner-0123456789".into()));
    let mut hpack = Hpack::default();
    let first = hpack.block(&call.request_headers, false);
    // The second time, the custom field is one byte: an index into the dynamic table,
    // which only a decoder that kept its table can read.
    let second = hpack.block(&call.request_headers, false);
    assert_eq!(first.len() - second.len(), 37);
    let (two, server) = h2_conversation(&[call.clone(), call]);
    let read = read_conversation(two, server);
    assert!(read.problems.is_empty());
    assert_eq!(read.exchanges.len(), 2);
    assert_eq!(text(&read.exchanges[0]), text(&read.exchanges[1]));
    assert_eq!(read.exchanges[1].stream, Some(3));
}

#[test]
fn records_a_client_cancel_and_a_goaway() {
    let client = gets(&[1, 3]);
    let rst = frame(RST_STREAM, 0, 1, &8u32.to_be_bytes());
    let mut hpack = Hpack::default();
    let mut server = settings(&[]);
    server.extend(frame(GOAWAY, 0, 0, &[0, 0, 0, 1, 0, 0, 0, 0]));
    server.extend(header_frames(
        1,
        &hpack.block(&fields(&[(":status", "200")]), false),
        false,
    ));
    server.extend(data_frames(1, b"data: {}\n\n", false));
    let read = read_pair(
        &stream_of(&[(&client, 1), (&rst, 3)]),
        &stream_of(&[(&server, 2)]),
    );
    assert!(read.problems.is_empty(), "{:?}", read.problems);
    let ends: Vec<ExchangeEnd> = read.exchanges.iter().map(|e| e.end).collect();
    assert_eq!(
        ends,
        [
            ExchangeEnd::Reset {
                code: 8,
                by_client: true,
                frame: 3
            },
            ExchangeEnd::GoAway { frame: 2 }
        ]
    );
    let response = parts(&read.exchanges[0]).1.unwrap();
    assert!(response.body.cut);
    assert_eq!(
        &read.exchanges[0].text[response.body.raw.range()],
        b"data: {}\n\n"
    );
}

#[test]
fn untangles_interleaved_streams() {
    let mut hpack = Hpack::default();
    let mut client = [PREFACE.to_vec(), settings(&[])].concat();
    for id in [1, 3] {
        let block = hpack.block(&fields(&[(":method", "POST"), (":path", "/")]), false);
        client.extend(header_frames(id, &block, false));
    }
    for (id, part, end) in [
        (3, "b1", false),
        (1, "a1", false),
        (3, "b2", true),
        (1, "a2", true),
    ] {
        client.extend(data_frames(id, part.as_bytes(), end));
    }
    let mut hpack = Hpack::default();
    let mut server = settings(&[]);
    for id in [3, 1] {
        server.extend(header_frames(
            id,
            &hpack.block(&fields(&[(":status", "204")]), false),
            true,
        ));
    }
    let read = read_conversation(client, server);
    let bodies: Vec<(Option<u32>, &[u8])> = (read.exchanges.iter())
        .map(|e| (e.stream, &e.text[parts(e).0.body.raw.range()]))
        .collect();
    assert_eq!(bodies, [(Some(1), &b"a1a2"[..]), (Some(3), &b"b1b2"[..])]);
    assert!(
        read.exchanges
            .iter()
            .all(|e| e.end == ExchangeEnd::Complete)
    );
}

#[test]
fn a_pushed_stream_is_an_exchange_of_the_promised_request() {
    let client = gets(&[1]);
    let mut hpack = Hpack::default();
    let mut server = settings(&[]);
    let promised = hpack.block(
        &fields(&[(":method", "GET"), (":path", "/style.css")]),
        false,
    );
    server.extend(frame(
        PUSH_PROMISE,
        END_HEADERS,
        1,
        &[&[0, 0, 0, 2][..], &promised].concat(),
    ));
    server.extend(header_frames(
        1,
        &hpack.block(&fields(&[(":status", "200")]), false),
        true,
    ));
    let block = hpack.block(
        &fields(&[(":status", "200"), ("content-type", "text/css")]),
        false,
    );
    server.extend(header_frames(2, &block, false));
    server.extend(data_frames(2, b"p{}", true));
    let read = read_conversation(client, server);
    assert!(read.problems.is_empty(), "{:?}", read.problems);
    let pushed = &read.exchanges[1];
    assert_eq!(
        (pushed.index, pushed.stream, pushed.end),
        (1, Some(2), ExchangeEnd::Complete)
    );
    assert!(text(pushed).starts_with("GET /style.css HTTP/2\r\n"));
    assert!(text(pushed).ends_with("content-type: text/css\r\n\r\np{}\r\n"));
}

#[test]
fn a_client_header_table_size_bounds_the_server_encoder() {
    assert!(table_update(&[], 4096, true).problems.is_empty());
    assert!(table_update(&[(1, 8192)], 8192, true).problems.is_empty());
    let refused = table_update(&[], 8192, true);
    assert!(
        messages(&refused)[0].contains("more than the 4096 bytes"),
        "{:?}",
        refused.problems
    );
    // Lowered: until the server acknowledges, the old bound holds too.
    assert!(table_update(&[(1, 0)], 4096, false).problems.is_empty());
    assert!(!table_update(&[(1, 0)], 4096, true).problems.is_empty());
    assert!(table_update(&[(1, 0)], 0, true).problems.is_empty());
    // A2alint's own cap, whatever the client allowed.
    let capped = table_update(&[(1, u32::MAX)], 1 << 20, true);
    assert!(
        messages(&capped)[0].contains("a2alint keeps at most 65536"),
        "{:?}",
        capped.problems
    );
    assert_eq!(capped.exchanges.len(), 1);
}

#[test]
fn a_capture_ending_inside_a_frame_is_incomplete_unless_a_gap_explains_it() {
    let (client, mut server) = h2_conversation(&[grpc(false)]);
    server.truncate(server.len() - 3);
    let mut server = stream(server, 1400, 1000, 1);
    server.end = StreamEnd::CaptureEnd;
    let read = read_pair(&stream(client.clone(), 1400, 1, 1), &server);
    let [
        ReadProblem::Incomplete {
            message,
            note: false,
            ..
        },
    ] = &read.problems[..]
    else {
        panic!("{:?}", read.problems)
    };
    assert_eq!(message, "the capture ends inside an HTTP/2 frame");
    let (_, response, _) = parts(&read.exchanges[0]);
    assert!(response.unwrap().body.cut);
    assert_eq!(read.exchanges[0].end, ExchangeEnd::Unfinished);
    server.end = StreamEnd::Gap {
        before: Some(1000),
        after: 1002,
        missing: None,
        snapshot: false,
    };
    assert!(
        read_pair(&stream(client, 1400, 1, 1), &server)
            .problems
            .is_empty()
    );
}

#[test]
fn an_answer_captured_before_its_request_waits_for_it() {
    let client = gets(&[1]);
    let preface = PREFACE.len() + 9;
    let mut server = settings(&[]);
    let block = Hpack::default().block(&fields(&[(":status", "200")]), false);
    server.extend(header_frames(1, &block, true));
    // The request's segment came late (a retransmission): frame 5, after the answer.
    let client = stream_of(&[(&client[..preface], 1), (&client[preface..], 5)]);
    let read = read_pair(&client, &stream_of(&[(&server, 3)]));
    assert!(read.problems.is_empty(), "{:?}", read.problems);
    assert_eq!(read.exchanges[0].end, ExchangeEnd::Complete);
}
