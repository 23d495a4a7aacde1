//! What the views hold and where their bytes came from: start lines, fields, bodies,
//! trailers, Huffman strings, CONTINUATION, padding, content codings, an upgrade.

use super::writer::*;
use super::*;
use crate::input::capture::model::ReadProblem;
use crate::input::capture::wire::ExchangeEnd;

#[test]
fn writes_the_view_of_a_grpc_call() {
    let (client, server) = h2_conversation(&[grpc(false)]);
    let (client, server) = (stream(client, 1400, 1, 1), stream(server, 1400, 10, 1));
    let read = read_pair(&client, &server);
    assert!(read.problems.is_empty() && read.exchange_problems.is_empty());
    let [exchange] = &read.exchanges[..] else {
        panic!("{:?}", read.exchanges)
    };
    assert_eq!(
        text(exchange),
        "POST /lf.a2a.v1.A2AService/SendMessage HTTP/2\r\n:method: POST\r\n:scheme: http\r\n\
         :path: /lf.a2a.v1.A2AService/SendMessage\r\n:authority: 127.0.0.1:50051\r\n\
         content-type: application/grpc\r\n\r\n\
         {\n  \"message\": {\n    \"messageId\": \"m-1\"\n  }\n}\r\n\r\nHTTP/2 200\r\n\
         :status: 200\r\ncontent-type: application/grpc\r\n\r\n\
         {\n  \"message\": {\n    \"messageId\": \"m-2\"\n  }\n}\r\n\r\n\
         grpc-status: 0\r\n"
    );
    assert_eq!((exchange.index, exchange.stream), (0, Some(1)));
    assert_eq!(exchange.end, ExchangeEnd::Complete);
    let (request, response, interim) = parts(exchange);
    let response = response.unwrap();
    assert!(interim.is_empty());
    assert_eq!(at(exchange, request.first), "POST");
    assert_eq!(
        at(exchange, request.second),
        "/lf.a2a.v1.A2AService/SendMessage"
    );
    assert_eq!(at(exchange, request.headers[4].1), "application/grpc");
    let grpc = request.grpc.as_ref().unwrap();
    assert_eq!(grpc.messages.len(), 1);
    assert_eq!(
        at(exchange, grpc.messages[0].0),
        "{\n  \"message\": {\n    \"messageId\": \"m-1\"\n  }\n}"
    );
    assert_eq!(at(exchange, response.first), "200");
    assert_eq!(at(exchange, response.start_line), "HTTP/2 200");
    assert_eq!(at(exchange, response.trailers[0].0), "grpc-status");
    assert_eq!(response.span.end, response.trailers[0].1.end);
    assert!(!request.body.cut && !response.body.cut && response.body.decoded.is_none());
    check_origins(exchange, &client, &server);
    let exchange = exchange.http2_exchange().unwrap();
    assert_eq!(exchange.response.unwrap().trailers[0].value, b"0");
}

#[test]
fn body_origins_are_exact_file_bytes_across_segments() {
    let mut call = opaque(true);
    call.response_body = (0..40_000u32).map(|i| (i % 251) as u8).collect();
    let (client, server) = h2_conversation(&[call.clone(), call.clone()]);
    // Small segments: DATA frames and even frame headers straddle them.
    let (client, server) = (stream(client, 7, 1, 1), stream(server, 1000, 5000, 1));
    let read = read_pair(&client, &server);
    assert!(read.problems.is_empty(), "{:?}", read.problems);
    assert_eq!(read.exchanges.len(), 2);
    for exchange in &read.exchanges {
        let (request, response, _) = parts(exchange);
        assert_eq!(
            &exchange.text[response.unwrap().body.raw.range()],
            &call.response_body[..]
        );
        assert_eq!(
            at(exchange, request.headers[2].1),
            "/lf.a2a.v1.A2AService/SendMessage"
        );
        check_origins(exchange, &client, &server);
        // The response body is cut at segment and DATA frame boundaries alike.
        let exact = exchange.origins.iter().filter(|o| o.exact).count();
        assert!(exact > 40, "{exact}");
    }
    // The request body starts in the client's frame that holds its first byte.
    let origin = exact_origin_of(&read.exchanges[0], b'\x05');
    let piece = client
        .pieces
        .iter()
        .find(|p| p.frame == origin.frame)
        .unwrap();
    assert_eq!(
        client.bytes[piece.at + origin.file.start - piece.file],
        b'\x05'
    );
}

#[test]
fn padded_data_maps_past_its_pad_length() {
    let mut hpack = Hpack::default();
    let request = hpack.block(&fields(&[(":method", "PUT"), (":path", "/p")]), false);
    let mut client = [PREFACE.to_vec(), settings(&[])].concat();
    client.extend(header_frames(1, &request, false));
    let body_at = client.len() + 9 + 1;
    client.extend(frame(DATA, PADDED | END_STREAM, 1, b"\x03body\0\0\0"));
    let client = stream(client, 10_000, 1, 1);
    let read = read_pair(&client, &stream(settings(&[]), 100, 2, 1));
    let exchange = &read.exchanges[0];
    let (request, _, _) = parts(exchange);
    assert_eq!(&exchange.text[request.body.raw.range()], b"body");
    let origin = exact_origin_of(exchange, b'b');
    assert_eq!(
        origin.file,
        crate::input::source::Span::new(file_of(1) + body_at, file_of(1) + body_at + 4)
    );
    assert_eq!(exchange.end, ExchangeEnd::Unfinished);
    assert!(parts(exchange).1.is_none());
}

#[test]
fn reads_huffman_strings_and_the_rfc_7541_examples() {
    assert_eq!(
        huffman(b"www.example.com"),
        [
            0xf1, 0xe3, 0xc2, 0xe5, 0xf2, 0x3a, 0x6b, 0xa0, 0xab, 0x90, 0xf4, 0xff
        ]
    );
    let every_byte: Vec<u8> = (0..=255).collect();
    let decoded = loona_hpack::huffman::HuffmanDecoder::new().decode(&huffman(&every_byte));
    assert_eq!(decoded.unwrap(), every_byte);
    // RFC 7541 C.4.1 to C.4.3: three requests, Huffman strings, a table carried over.
    let blocks: [&[u8]; 3] = [
        &[
            0x82, 0x86, 0x84, 0x41, 0x8c, 0xf1, 0xe3, 0xc2, 0xe5, 0xf2, 0x3a, 0x6b, 0xa0, 0xab,
            0x90, 0xf4, 0xff,
        ],
        &[
            0x82, 0x86, 0x84, 0xbe, 0x58, 0x86, 0xa8, 0xeb, 0x10, 0x64, 0x9c, 0xbf,
        ],
        &[
            0x82, 0x87, 0x85, 0xbf, 0x40, 0x88, 0x25, 0xa8, 0x49, 0xe9, 0x5b, 0xa9, 0x7d, 0x7f,
            0x89, 0x25, 0xa8, 0x49, 0xe9, 0x5b, 0xb8, 0xe8, 0xb4, 0xbf,
        ],
    ];
    let mut client = [PREFACE.to_vec(), settings(&[])].concat();
    for (i, block) in blocks.iter().enumerate() {
        client.extend(header_frames(2 * i as u32 + 1, block, true));
    }
    let read = read_conversation(client, settings(&[]));
    assert!(read.problems.is_empty());
    let lines: Vec<String> = read.exchanges.iter().map(text).collect();
    assert!(lines[0].starts_with(
        "GET / HTTP/2\r\n:method: GET\r\n:scheme: http\r\n:path: /\r\n\
         :authority: www.example.com\r\n\r\n"
    ));
    assert!(lines[1].contains(":authority: www.example.com\r\ncache-control: no-cache\r\n"));
    assert!(lines[2].starts_with("GET /index.html HTTP/2\r\n"));
    assert!(lines[2].contains(":authority: www.example.com\r\ncustom-key: custom-value\r\n"));
}

#[test]
fn joins_continuation_frames() {
    let block = Hpack::default().block(&grpc(false).request_headers, true);
    let mut client = [PREFACE.to_vec(), settings(&[])].concat();
    let (a, rest) = block.split_at(5);
    let (b, c) = rest.split_at(7);
    client.extend(frame(HEADERS, END_STREAM, 1, a));
    client.extend(frame(CONTINUATION, 0, 1, b));
    client.extend(frame(CONTINUATION, END_HEADERS, 1, c));
    let read = read_conversation(client, settings(&[]));
    assert!(read.problems.is_empty(), "{:?}", read.problems);
    let (request, _, _) = parts(&read.exchanges[0]);
    assert_eq!(
        at(&read.exchanges[0], request.second),
        "/lf.a2a.v1.A2AService/SendMessage"
    );
}

#[test]
fn undoes_gzip_and_reports_a_broken_coding() {
    use std::io::Write;
    let mut gzip = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gzip.write_all(br#"{"ok":true}"#).unwrap();
    let mut call = opaque(false);
    call.response_headers
        .push(("content-encoding".into(), "gzip".into()));
    call.response_body = gzip.finish().unwrap();
    let mut broken = call.clone();
    broken.response_body = b"not gzip".to_vec();
    let (client, server) = h2_conversation(&[call, broken]);
    let read = read_conversation(client, server);
    let decoded = &parts(&read.exchanges[0]).1.unwrap().body;
    assert_eq!(decoded.decoded.as_deref(), Some(&br#"{"ok":true}"#[..]));
    assert!(parts(&read.exchanges[1]).1.unwrap().body.undecodable);
    let [(1, ReadProblem::Undecodable { header, coding, .. })] = &read.exchange_problems[..] else {
        panic!("{:?}", read.exchange_problems)
    };
    assert_eq!(
        (at(&read.exchanges[1], *header), coding.as_str()),
        ("gzip", "gzip")
    );
}

#[test]
fn escapes_control_bytes_in_fields() {
    let mut client = [PREFACE.to_vec(), settings(&[])].concat();
    let block = Hpack::default().block(
        &fields(&[(":method", "GET"), ("x-evil", "a\r\nb\0")]),
        false,
    );
    client.extend(header_frames(1, &block, true));
    let read = read_conversation(client, settings(&[]));
    let exchange = &read.exchanges[0];
    assert!(text(exchange).contains("\r\nx-evil: a\\x0d\\x0ab\\x00\r\n"));
    let (request, _, _) = parts(exchange);
    assert_eq!(at(exchange, request.headers[1].1), "a\\x0d\\x0ab\\x00");
    assert_eq!(read.exchange_problems.len(), 1);
}

#[test]
fn escapes_names_past_visible_ascii_and_keeps_tabs_in_values() {
    let mut client = [PREFACE.to_vec(), settings(&[])].concat();
    let block = Hpack::default().block(
        &fields(&[
            (":method", "GET"),
            ("x odd\tname", "tab\there\x7f, plain é"),
        ]),
        false,
    );
    client.extend(header_frames(1, &block, true));
    let read = read_conversation(client, settings(&[]));
    let exchange = &read.exchanges[0];
    let (request, _, _) = parts(exchange);
    assert_eq!(at(exchange, request.headers[1].0), "x\\x20odd\\x09name");
    assert_eq!(
        at(exchange, request.headers[1].1),
        "tab\there\\x7f, plain é"
    );
}

#[test]
fn follows_an_upgrade_from_http_1_1() {
    let request = b"GET /h2 HTTP/1.1\r\nHost: a\r\nConnection: Upgrade, HTTP2-Settings\r\n\
                    Upgrade: h2c\r\nHTTP2-Settings: AAEAACAA\r\n\r\n";
    let switching =
        b"HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: h2c\r\n\r\n";
    let client = [&request[..], PREFACE, &settings(&[])].concat();
    let mut server = [&switching[..], &settings(&[])].concat();
    // The upgrade allowed an 8 KiB table (HTTP2-Settings), acknowledged by the 101.
    let block = [integer(8192, 5, 0x20), vec![0x88]].concat();
    server.extend(header_frames(1, &block, false));
    server.extend(data_frames(1, b"hi", true));
    let (client, server) = (stream(client, 50, 1, 1), stream(server, 50, 100, 1));
    let start = H2Start::Upgrade {
        request: 0..request.len(),
        switching: 0..switching.len(),
        client_at: request.len(),
        server_at: switching.len(),
    };
    let read = read_h2(&connection(), &client, &server, start, 7);
    assert!(read.problems.is_empty(), "{:?}", read.problems);
    let exchange = &read.exchanges[0];
    assert_eq!((exchange.index, exchange.end), (7, ExchangeEnd::Complete));
    assert!(exchange.text.starts_with(request));
    let (request, response, interim) = parts(exchange);
    assert_eq!(
        (at(exchange, request.first), at(exchange, request.second)),
        ("GET", "/h2")
    );
    assert_eq!(at(exchange, request.headers[2].1), "h2c");
    assert_eq!(at(exchange, interim[0].first), "101");
    assert_eq!(at(exchange, response.unwrap().first), "200");
    assert!(text(exchange).ends_with("HTTP/2 200\r\n:status: 200\r\n\r\nhi\r\n"));
    check_origins(exchange, &client, &server);
}
