//! gRPC fixtures of the rules on a whole call: its metadata, its messages, how they are
//! encoded, retries across calls, and the service it names.

use a2a_pb::protojson::{StreamResponse, TaskState};
use prost::Message as _;

use crate::grpc::*;
use crate::{Fixture, fixture, get_task_call};

/// The text every send of these fixtures carries: a retry repeats it.
const TEXT: &str = "Book a table for two";

/// `GetTask` answered with the completed task.
fn get_task_done() -> GrpcCall {
    get_task_call(Response::unary(&task("t-1", "c-1", TaskState::Completed)))
}

/// SendMessage with this message id, answered with a submitted task.
fn send_accepted(message_id: &str) -> GrpcCall {
    let answer = send_response_task(task("t-1", "c-1", TaskState::Submitted));
    GrpcCall::a2a(
        "SendMessage",
        &send_message(message_id, TEXT),
        Response::unary(&answer),
    )
}

/// SendMessage with this message id, answered as `response` says.
fn send_answered(message_id: &str, response: Response) -> GrpcCall {
    GrpcCall::a2a("SendMessage", &send_message(message_id, TEXT), response)
}

/// UNAVAILABLE: the agent is restarting, retry later.
fn unavailable() -> Response {
    Response::trailers_only(&GrpcStatus::new(
        code::UNAVAILABLE,
        Some("Agent is restarting"),
    ))
}

/// A server-streaming SendStreamingMessage sending these messages, then OK.
fn stream(messages: Vec<Vec<u8>>) -> GrpcCall {
    GrpcCall::a2a(
        "SendStreamingMessage",
        &send_message("m-1", TEXT),
        Response::ok(messages),
    )
}

/// GetTask answered NOT_FOUND whose `grpc-status-details-bin` is exactly these bytes.
fn not_found_with_details_field(value: &[u8]) -> GrpcCall {
    let status = GrpcStatus::new(code::NOT_FOUND, Some("Task not found"));
    get_task_call(Response::error(&status).trailer(DETAILS_BIN, value))
}

/// GetTask sent compressed with `compression`, answered with the task compressed too.
fn get_task_compressed(compression: Compression) -> GrpcCall {
    let answer = task("t-1", "c-1", TaskState::Working);
    let response = Response::ok(vec![compressed_frame(&answer, compression)])
        .header("grpc-encoding", compression.name());
    let request = compressed_frame(&get_task("t-1"), compression);
    GrpcCall::new(&method_path("GetTask"), vec![request], response).grpc_encoding(compression)
}

pub fn fixtures() -> Vec<Fixture> {
    let id_required = GrpcStatus::rich(
        code::INVALID_ARGUMENT,
        "message_id is required",
        vec![
            error_info("INVALID_PARAMS", A2A_DOMAIN, &[]),
            bad_request(&[("message.message_id", "is required")]),
        ],
    );
    let events = |second: StreamResponse| {
        vec![
            message_frame(&stream_task(task("t-1", "c-1", TaskState::Submitted))),
            message_frame(&second),
            message_frame(&stream_status_update("t-1", "c-1", TaskState::Completed)),
        ]
    };
    let artifact = stream_artifact_update("t-1", "c-1", "a-1", "Table booked", true);
    // A message flagged compressed in an encoding a2alint (and this server) does not know;
    // the server says so as the gRPC spec asks: UNIMPLEMENTED and what it accepts.
    let mut snappy = GrpcCall::new(
        &method_path("GetTask"),
        vec![prefixed(1, &get_task("t-1").encode_to_vec())],
        Response::trailers_only(&GrpcStatus::new(
            code::UNIMPLEMENTED,
            Some("Unsupported grpc-encoding: snappy"),
        ))
        .header("grpc-accept-encoding", "identity,deflate,gzip"),
    );
    snappy.grpc_encoding = Some("snappy".to_string());
    // GetTaskRequest.id (field 2) is a string; here it is a varint: protobuf, not this type.
    let not_get_task = GrpcCall::new(
        &method_path("GetTask"),
        vec![raw_message(b"\x10\x05")],
        Response::trailers_only(&GrpcStatus::new(
            code::INTERNAL,
            Some("Failed to parse request"),
        )),
    );
    // Status.code (field 1) is an int32; here it is a string.
    let not_a_status = GrpcStatus::new(code::NOT_FOUND, Some("Task not found"))
        .with_raw_details(b"\x0a\x03abc")
        .encoded(BinEncoding::Padded);
    let legacy = GrpcCall::new(
        "/a2a.v1.A2AService/SendMessage",
        vec![message_frame(&send_message("m-1", TEXT))],
        Response::unary(&send_response_task(task(
            "t-1",
            "c-1",
            TaskState::Submitted,
        ))),
    );
    vec![
        // version-header-missing
        fixture(
            "version-header-missing",
            "bad-grpc-get-task-without-version.pcap",
            vec![get_task_done().a2a_version(None)],
        ),
        fixture(
            "version-header-missing",
            "ok-grpc-get-task-with-version.pcap",
            vec![get_task_done()],
        ),
        // missing-message-id-accepted
        fixture(
            "missing-message-id-accepted",
            "bad-grpc-empty-message-id-answered-task.pcap",
            vec![GrpcCall::a2a(
                "SendMessage",
                &send_message_without_id(TEXT),
                Response::unary(&send_response_task(task(
                    "t-1",
                    "c-1",
                    TaskState::Submitted,
                ))),
            )],
        ),
        fixture(
            "missing-message-id-accepted",
            "ok-grpc-empty-message-id-rejected.pcap",
            vec![GrpcCall::a2a(
                "SendMessage",
                &send_message_without_id(TEXT),
                Response::trailers_only(&id_required),
            )],
        ),
        // retry-new-message-id
        fixture(
            "retry-new-message-id",
            "bad-grpc-retry-after-unavailable-new-id.pcap",
            vec![send_answered("m-1", unavailable()), send_accepted("m-2")],
        ),
        fixture(
            "retry-new-message-id",
            "bad-grpc-retry-after-reset-new-id.pcap",
            vec![
                send_answered(
                    "m-1",
                    Response::ok(Vec::new()).end(End::ServerReset(h2_code::INTERNAL_ERROR)),
                ),
                send_accepted("m-2"),
            ],
        ),
        fixture(
            "retry-new-message-id",
            "ok-grpc-retry-after-unavailable-same-id.pcap",
            vec![send_answered("m-1", unavailable()), send_accepted("m-1")],
        ),
        // secret-in-capture
        fixture(
            "secret-in-capture",
            "bad-grpc-authorization-bearer.pcap",
            vec![get_task_done().metadata("authorization", "Bearer a2a-test-token-7Qm4sZ9x")],
        ),
        fixture(
            "secret-in-capture",
            "ok-grpc-authorization-redacted.pcap",
            vec![get_task_done().metadata("authorization", "<redacted>")],
        ),
        // stream-event-shape
        fixture(
            "stream-event-shape",
            "bad-grpc-stream-empty-second-message.pcap",
            vec![stream(events(StreamResponse::default()))],
        ),
        fixture(
            "stream-event-shape",
            "ok-grpc-stream-every-message-has-a-payload.pcap",
            vec![stream(events(artifact))],
        ),
        // undecodable-body
        fixture(
            "undecodable-body",
            "bad-grpc-snappy-compressed-message.pcap",
            vec![snappy],
        ),
        fixture(
            "undecodable-body",
            "bad-grpc-request-not-its-protobuf-type.pcap",
            vec![not_get_task],
        ),
        fixture(
            "undecodable-body",
            "bad-grpc-status-details-not-base64.pcap",
            vec![not_found_with_details_field(b"%%not*base64%%")],
        ),
        fixture(
            "undecodable-body",
            "bad-grpc-status-details-not-a-status.pcap",
            vec![get_task_call(Response::trailers_only(&not_a_status))],
        ),
        fixture(
            "undecodable-body",
            "ok-grpc-gzip-compressed-message.pcap",
            vec![
                get_task_compressed(Compression::Gzip),
                get_task_compressed(Compression::Deflate),
            ],
        ),
        // legacy-protocol
        fixture(
            "legacy-protocol",
            "bad-grpc-legacy-package.pcap",
            vec![legacy],
        ),
        fixture(
            "legacy-protocol",
            "ok-grpc-current-package.pcap",
            vec![send_accepted("m-1")],
        ),
    ]
}
