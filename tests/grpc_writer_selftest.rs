//! Self-test of the gRPC writer (`tests/common/grpc/`): its bytes, read back, against the spec.
//!
//! Each test writes calls, reads each side's frames back (`grpc::read_frames`) and checks
//! them against the gRPC HTTP/2 spec: the 5-byte message prefix, the header and trailer
//! fields, Trailers-Only, the details encodings, and the ways a stream ends.

#[allow(dead_code)]
#[path = "common/grpc/mod.rs"]
mod grpc;
#[allow(dead_code)]
#[path = "common/h2.rs"]
mod h2;
#[allow(dead_code)]
#[path = "common/pcap/mod.rs"]
mod pcap;

use std::io::Read;

use a2a_pb::protojson::{
    GetTaskRequest, Role, SendMessageRequest, StreamResponse, Task, TaskState,
};
use base64::Engine;
use base64::engine::general_purpose::{STANDARD, STANDARD_NO_PAD};
use grpc::*;
use h2::{DATA, END_HEADERS, END_STREAM, GOAWAY, HEADERS, RST_STREAM};
use prost::Message;
use tonic_types::pb::{BadRequest, ErrorInfo, RetryInfo, Status};

/// The frames each side of a connection of these calls sent.
fn sides(connection: GrpcConnection) -> (Vec<ReadFrame>, Vec<ReadFrame>) {
    let (client, server) = connection.bytes();
    (read_frames(&client), read_frames(&server))
}

fn one(call: GrpcCall) -> (Vec<ReadFrame>, Vec<ReadFrame>) {
    sides(GrpcConnection::new(vec![call]))
}

/// `(kind, flags)` of each frame.
fn shape(frames: &[&ReadFrame]) -> Vec<(u8, u8)> {
    frames.iter().map(|f| (f.kind, f.flags)).collect()
}

fn get_task_call(response: Response) -> GrpcCall {
    GrpcCall::a2a("GetTask", &get_task("t-1"), response)
}

#[test]
fn a_unary_call_is_headers_messages_and_trailers() {
    let answer = Response::unary(&task("t-1", "c-1", TaskState::Working));
    let call = get_task_call(answer).metadata("authorization", "Bearer abc");
    let (client, server) = one(call);
    let request = on_stream(&client, 1);
    assert_eq!(
        shape(&request),
        [(HEADERS, END_HEADERS), (DATA, END_STREAM)]
    );
    assert_eq!(
        field_lines(&request[0].fields),
        [
            ":method: POST",
            ":scheme: http",
            ":path: /lf.a2a.v1.A2AService/GetTask",
            ":authority: agent",
            "te: trailers",
            "content-type: application/grpc",
            "a2a-version: 1.0",
            "authorization: Bearer abc",
        ]
    );
    // The 5-byte prefix: flag 0, then the length, big-endian.
    let encoded = get_task("t-1").encode_to_vec();
    let len = u8::try_from(encoded.len()).unwrap();
    assert_eq!(request[1].payload[..5], [0, 0, 0, 0, len]);
    let sent = GetTaskRequest::decode(&request[1].payload[5..]).unwrap();
    assert_eq!(sent, get_task("t-1"));

    let response = on_stream(&server, 1);
    let end = END_HEADERS | END_STREAM;
    assert_eq!(
        shape(&response),
        [(HEADERS, END_HEADERS), (DATA, 0), (HEADERS, end)]
    );
    let head = field_lines(&response[0].fields);
    assert_eq!(head, [":status: 200", "content-type: application/grpc"]);
    assert_eq!(field_lines(&response[2].fields), ["grpc-status: 0"]);
    let task = Task::decode(&grpc_messages(&response)[0].1[..]).unwrap();
    assert_eq!(task.id, "t-1");
    assert_eq!(task.status.unwrap().state, TaskState::Working as i32);
}

#[test]
fn trailers_only_is_one_headers_frame_ending_the_stream() {
    let (_, server) = one(get_task_call(Response::trailers_only(&task_not_found(
        "t-1",
    ))));
    let response = on_stream(&server, 1);
    assert_eq!(shape(&response), [(HEADERS, END_HEADERS | END_STREAM)]);
    let fields = &response[0].fields;
    let names: Vec<_> = fields.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        [
            ":status",
            "content-type",
            "grpc-status",
            "grpc-message",
            DETAILS_BIN
        ]
    );
    assert_eq!(value(fields, "grpc-status"), b"5");
    assert_eq!(value(fields, "grpc-message"), b"Task not found");
    // Unpadded base64 unless asked otherwise, of a google.rpc.Status with the ErrorInfo.
    let details = STANDARD_NO_PAD.decode(value(fields, DETAILS_BIN)).unwrap();
    let status = Status::decode(&details[..]).unwrap();
    assert_eq!(
        (status.code, status.message.as_str()),
        (5, "Task not found")
    );
    let any = &status.details[0];
    assert_eq!(any.type_url, "type.googleapis.com/google.rpc.ErrorInfo");
    let info = ErrorInfo::decode(&any.value[..]).unwrap();
    assert_eq!(info.reason, "TASK_NOT_FOUND");
    assert_eq!(info.domain, "a2a-protocol.org");
    assert_eq!(info.metadata["taskId"], "t-1");
}

#[test]
fn grpc_message_is_percent_encoded() {
    assert_eq!(percent_encode("50% café\n~ ok"), "50%25 caf%C3%A9%0A~ ok");
    let status = GrpcStatus::new(code::INVALID_ARGUMENT, Some("bad\tid 100%"));
    let (_, server) = one(get_task_call(Response::error(&status)));
    let trailers = &on_stream(&server, 1)[1].fields;
    let lines = field_lines(trailers);
    assert_eq!(lines, ["grpc-status: 3", "grpc-message: bad%09id 100%25"]);
}

#[test]
fn details_are_padded_or_unpadded_base64() {
    let violation = bad_request(&[("message.parts", "empty")]);
    let status = status(code::INVALID_ARGUMENT, "bad!", vec![violation]);
    let raw = status.encode_to_vec();
    assert_ne!(raw.len() % 3, 0, "a length that padding shows in");
    let padded = bin_value(&raw, BinEncoding::Padded);
    assert!(padded.ends_with(b"="));
    assert_eq!(STANDARD.decode(&padded).unwrap(), raw);
    let unpadded = bin_value(&raw, BinEncoding::Unpadded);
    assert!(!unpadded.contains(&b'='));
    assert_eq!(STANDARD_NO_PAD.decode(&unpadded).unwrap(), raw);
    let violations = BadRequest::decode(&status.details[0].value[..]).unwrap();
    let first = &violations.field_violations[0];
    assert_eq!(
        (&first.field[..], &first.description[..]),
        ("message.parts", "empty")
    );
    // In the trailers as asked.
    let trailers = GrpcStatus::new(3, None).with_details(&status);
    let padded_trailers = trailers.encoded(BinEncoding::Padded).fields();
    assert_eq!(value(&padded_trailers, DETAILS_BIN), padded);
}

#[test]
fn true_binary_details_follow_both_settings_saying_0xfe03() {
    let status = task_not_found("t-1").encoded(BinEncoding::TrueBinary);
    let raw = status.details.clone().unwrap();
    let call = get_task_call(Response::trailers_only(&status));
    let (client, server) = sides(GrpcConnection::new(vec![call]).true_binary());
    assert_eq!(first_settings(&client), [(0xfe03, 1)]);
    assert_eq!(first_settings(&server), [(0xfe03, 1)]);
    let value = value(&on_stream(&server, 1)[0].fields, DETAILS_BIN);
    assert_eq!((value[0], &value[1..]), (0, &raw[..]));
    assert_eq!(Status::decode(&value[1..]).unwrap().code, code::NOT_FOUND);
    // Unless asked, both SETTINGS frames are empty.
    let (client, server) = one(get_task_call(Response::ok(vec![])));
    assert!(first_settings(&client).is_empty() && first_settings(&server).is_empty());
}

#[test]
fn details_helpers_pack_the_google_rpc_types() {
    let retry = retry_info(3, 500);
    assert_eq!(retry.type_url, "type.googleapis.com/google.rpc.RetryInfo");
    let delay = RetryInfo::decode(&retry.value[..]).unwrap().retry_delay;
    assert_eq!(delay.map(|d| (d.seconds, d.nanos)), Some((3, 500)));
    let debug = debug_info(&["at x"], "boom").type_url;
    assert_eq!(debug, "type.googleapis.com/google.rpc.DebugInfo");
    let localized = localized_message("en-US", "no").type_url;
    assert_eq!(localized, "type.googleapis.com/google.rpc.LocalizedMessage");
    let bare = any_without_type_url("TASK_NOT_FOUND");
    assert_eq!(bare.type_url, "");
    assert_eq!(
        ErrorInfo::decode(&bare.value[..]).unwrap().reason,
        "TASK_NOT_FOUND"
    );
    assert_eq!(
        any_unknown().type_url,
        "type.googleapis.com/example.Unknown"
    );
    let info = error_info("QUOTA", "example.com", &[("limit", "5")]);
    let info = ErrorInfo::decode(&info.value[..]).unwrap();
    assert_eq!(
        (&info.domain[..], &info.metadata["limit"][..]),
        ("example.com", "5")
    );
}

#[test]
fn compressed_messages_carry_flag_one_and_grpc_encoding() {
    let request = send_message("m-1", &"long text ".repeat(50));
    for compression in [Compression::Gzip, Compression::Deflate] {
        let message = compressed_frame(&request, compression);
        let path = method_path("SendMessage");
        let call = GrpcCall::new(&path, vec![message], Response::ok(vec![]))
            .grpc_encoding(compression)
            .content_type("application/grpc+proto");
        let (client, _) = one(call);
        let stream = on_stream(&client, 1);
        let encoding = value(&stream[0].fields, "grpc-encoding");
        assert_eq!(encoding, compression.name().as_bytes());
        let content_type = value(&stream[0].fields, "content-type");
        assert_eq!(content_type, b"application/grpc+proto");
        let (flag, bytes) = grpc_messages(&stream).remove(0);
        assert_eq!(flag, 1);
        let mut plain = Vec::new();
        match compression {
            Compression::Gzip => flate2::read::GzDecoder::new(&bytes[..]).read_to_end(&mut plain),
            Compression::Deflate => {
                flate2::read::ZlibDecoder::new(&bytes[..]).read_to_end(&mut plain)
            }
        }
        .unwrap();
        assert_eq!(SendMessageRequest::decode(&plain[..]).unwrap(), request);
    }
    assert_eq!(raw_message(b"\xff\xff"), [0, 0, 0, 0, 2, 0xff, 0xff]);
    assert_eq!(prefixed(2, b""), [2, 0, 0, 0, 0]);
}

/// A frame's kind, flags and payload (empty for DATA).
type Seen = (u8, u8, Vec<u8>);

/// What follows the response headers on stream 1, and a GOAWAY, as
/// `(kind, flags, payload unless DATA)`.
fn after_headers(end: End) -> (Vec<Seen>, Vec<ReadFrame>) {
    let update = message_frame(&stream_status_update("t-1", "c-1", TaskState::Working));
    let response = Response::ok(vec![update]).end(end);
    let call = GrpcCall::a2a("SubscribeToTask", &subscribe_to_task("t-1"), response);
    let (client, server) = one(call);
    let goaway = server.iter().filter(|f| f.kind == GOAWAY);
    let frames = (on_stream(&server, 1).into_iter().skip(1).chain(goaway))
        .map(|f| {
            let payload = if f.kind == DATA {
                vec![]
            } else {
                f.payload.clone()
            };
            (f.kind, f.flags, payload)
        })
        .collect();
    (frames, client)
}

#[test]
fn streams_can_end_without_trailers() {
    let (server, _) = after_headers(End::DataEndStream);
    assert_eq!(server, [(DATA, END_STREAM, vec![])]);
    let (server, _) = after_headers(End::ServerReset(h2_code::INTERNAL_ERROR));
    assert_eq!(
        server,
        [(DATA, 0, vec![]), (RST_STREAM, 0, vec![0, 0, 0, 2])]
    );
    let (server, _) = after_headers(End::GoAway(h2_code::NO_ERROR));
    let goaway = vec![0, 0, 0, 1, 0, 0, 0, 0];
    assert_eq!(server, [(DATA, 0, vec![]), (GOAWAY, 0, goaway)]);
    let (server, client) = after_headers(End::ClientCancel);
    assert_eq!(server, [(DATA, 0, vec![])]);
    let last = client.last().unwrap();
    assert_eq!((last.kind, last.stream), (RST_STREAM, 1));
    assert_eq!(last.payload, [0, 0, 0, 8]);
    let (server, _) = after_headers(End::Open);
    assert_eq!(server, [(DATA, 0, vec![])]);

    // The cancel is a turn of its own after the server's.
    let call = get_task_call(Response::ok(vec![]).end(End::ClientCancel));
    let turns = GrpcConnection::new(vec![call]).turns();
    let sides: Vec<bool> = turns.iter().map(|(side, _)| *side).collect();
    assert_eq!(sides, [true, false, true, false, true]);
    // With no message, DataEndStream still ends the stream on DATA.
    let (_, server) = one(get_task_call(Response::ok(vec![]).end(End::DataEndStream)));
    let response = on_stream(&server, 1);
    assert_eq!(
        shape(&response),
        [(HEADERS, END_HEADERS), (DATA, END_STREAM)]
    );
    assert!(response[1].payload.is_empty());
}

#[test]
fn a_server_stream_carries_many_messages_and_calls_share_the_hpack_tables() {
    let events: Vec<StreamResponse> = (0..200)
        .map(|i| match i % 4 {
            0 => stream_task(task("t-1", "c-1", TaskState::Submitted)),
            1 => stream_status_update("t-1", "c-1", TaskState::Working),
            2 => stream_artifact_update("t-1", "c-1", "a-1", &format!("chunk {i}"), false),
            _ => stream_message(text_message(&format!("m-{i}"), Role::Agent, "hi")),
        })
        .collect();
    let streamed = Response::ok(events.iter().map(message_frame).collect());
    let canceled = Response::unary(&task("t-1", "c-1", TaskState::Canceled));
    let calls = vec![
        GrpcCall::a2a("SendStreamingMessage", &send_message("m-0", "go"), streamed),
        get_task_call(Response::trailers_only(&task_not_found("t-1"))).huffman(),
        GrpcCall::a2a("CancelTask", &cancel_task("t-1"), canceled),
    ];
    let (client, server) = sides(GrpcConnection::new(calls));
    let stream = on_stream(&server, 1);
    let read: Vec<(u8, StreamResponse)> = (grpc_messages(&stream).into_iter())
        .map(|(flag, bytes)| (flag, StreamResponse::decode(&bytes[..]).unwrap()))
        .collect();
    assert_eq!(read, events.into_iter().map(|e| (0, e)).collect::<Vec<_>>());
    // Each message in a DATA frame of its own.
    assert_eq!(stream.iter().filter(|f| f.kind == DATA).count(), 200);
    let path = |stream| value(&on_stream(&client, stream)[0].fields, ":path").to_vec();
    assert_eq!(path(3), b"/lf.a2a.v1.A2AService/GetTask");
    assert_eq!(path(5), b"/lf.a2a.v1.A2AService/CancelTask");
    let status = |stream, at: usize| on_stream(&server, stream)[at].fields.clone();
    assert_eq!(value(&status(3, 0), "grpc-status"), b"5");
    assert_eq!(value(&status(5, 2), "grpc-status"), b"0");
}

#[test]
fn a2a_builders_and_field_edits() {
    let message = send_message_without_id("hello").message.unwrap();
    assert_eq!(
        (&message.message_id[..], message.role),
        ("", Role::User as i32)
    );
    assert_eq!(cancel_task("t-2").id, "t-2");
    assert_eq!(
        method_path("SendMessage"),
        "/lf.a2a.v1.A2AService/SendMessage"
    );
    let call = get_task_call(Response::ok(vec![])).a2a_version(None);
    assert!(
        call.request_headers()
            .iter()
            .all(|(n, _)| n != "a2a-version")
    );
    let response = Response::trailers_only(&GrpcStatus::ok()).set_header(":status", "503");
    let End::Trailers(fields) = &response.end else {
        panic!("trailers-only ends with its block")
    };
    assert_eq!(value(fields, ":status"), b"503");
    let response = Response::ok(vec![]).trailer("x-extra", "1");
    let End::Trailers(fields) = &response.end else {
        panic!("ok ends with trailers")
    };
    assert_eq!(field_lines(fields), ["grpc-status: 0", "x-extra: 1"]);
}

/// The capture's TCP payloads, joined per direction, are the connection's bytes.
#[test]
fn the_pcap_carries_the_connection() {
    let call = get_task_call(Response::trailers_only(&task_not_found("t-1")));
    let connection = GrpcConnection::new(vec![call; 3]);
    let (_dir, path) = connection.write_temp("get-task.pcap");
    let file = std::fs::read(&path).unwrap();
    assert_eq!(file, connection.pcap());
    let (mut rest, _) = pcap_parser::pcap::parse_pcap_header(&file).unwrap();
    let (mut client, mut server) = (Vec::new(), Vec::new());
    while !rest.is_empty() {
        let (r, frame) = pcap_parser::pcap::parse_pcap_frame(rest).unwrap();
        rest = r;
        let sliced = etherparse::SlicedPacket::from_ethernet(frame.data).unwrap();
        let Some(etherparse::TransportSlice::Tcp(tcp)) = sliced.transport else {
            panic!("not TCP")
        };
        match (tcp.source_port(), tcp.destination_port()) {
            (40000, 50051) => client.extend(tcp.payload()),
            (50051, 40000) => server.extend(tcp.payload()),
            ports => panic!("unexpected ports {ports:?}"),
        }
    }
    assert_eq!((client, server), connection.bytes());
}
