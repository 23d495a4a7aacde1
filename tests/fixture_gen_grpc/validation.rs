//! gRPC fixtures of `empty-parts-accepted` and `stream-event-order` (a send without parts
//! answered and refused, server streams that do and do not repeat the Task), and of
//! `unpaired-message` on a call the server cancelled at the client's deadline.

use a2a_pb::protojson::{SendMessageRequest, TaskState};

use crate::grpc::*;
use crate::{Fixture, fixture};

/// A SendMessageRequest whose message has no parts at all.
fn send_without_parts() -> SendMessageRequest {
    let mut request = send_message("m-1", "");
    if let Some(message) = request.message.as_mut() {
        message.parts.clear();
    }
    request
}

/// SendStreamingMessage answered with these messages, then OK.
fn stream(messages: Vec<Vec<u8>>) -> GrpcCall {
    GrpcCall::a2a(
        "SendStreamingMessage",
        &send_message("m-1", "Book a table for two"),
        Response::ok(messages),
    )
}

pub fn fixtures() -> Vec<Fixture> {
    let parts_required = GrpcStatus::rich(
        code::INVALID_ARGUMENT,
        "Validation failed",
        vec![
            error_info("INVALID_PARAMS", A2A_DOMAIN, &[]),
            bad_request(&[("message.parts", "Field must contain at least one element.")]),
        ],
    );
    let snapshot = |state| message_frame(&stream_task(task("t-1", "c-1", state)));
    let update = |state| message_frame(&stream_status_update("t-1", "c-1", state));
    vec![
        fixture(
            "empty-parts-accepted",
            "bad-grpc-send-without-parts-answered-task.pcap",
            vec![GrpcCall::a2a(
                "SendMessage",
                &send_without_parts(),
                Response::unary(&send_response_task(task(
                    "t-1",
                    "c-1",
                    TaskState::Completed,
                ))),
            )],
        ),
        fixture(
            "empty-parts-accepted",
            "ok-grpc-send-without-parts-rejected.pcap",
            vec![GrpcCall::a2a(
                "SendMessage",
                &send_without_parts(),
                Response::trailers_only(&parts_required),
            )],
        ),
        fixture(
            "unpaired-message",
            "bad-grpc-server-cancels-at-the-deadline.pcap",
            vec![
                GrpcCall::a2a(
                    "GetTask",
                    &get_task("t-1"),
                    Response::none(End::ServerReset(h2_code::CANCEL)),
                )
                .metadata("grpc-timeout", "1S"),
            ],
        ),
        fixture(
            "stream-event-order",
            "bad-grpc-task-again-mid-stream.pcap",
            vec![stream(vec![
                snapshot(TaskState::Submitted),
                update(TaskState::Working),
                snapshot(TaskState::Working),
                update(TaskState::Completed),
            ])],
        ),
        fixture(
            "stream-event-order",
            "ok-grpc-final-task-snapshot.pcap",
            vec![stream(vec![
                snapshot(TaskState::Submitted),
                update(TaskState::Working),
                update(TaskState::Completed),
                snapshot(TaskState::Completed),
            ])],
        ),
    ]
}
