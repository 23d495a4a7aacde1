//! gRPC fixtures of the rules on a call's status: `grpc-status` against the profile's
//! table, PERMISSION_DENIED on a task, and the HTTP rules that must stay quiet over gRPC.

use a2a_pb::protojson::TaskState;

use crate::grpc::*;
use crate::{Fixture, fixture, get_task_call};

/// SendStreamingMessage refused with UNSUPPORTED_OPERATION under `grpc-status: code`; the
/// ErrorInfo says which case, so only the code is in question.
fn unsupported(code: i32) -> GrpcCall {
    let info = a2a_error_info("UNSUPPORTED_OPERATION", &[("capability", "streaming")]);
    let status = GrpcStatus::rich(code, "Streaming is not supported", vec![info]);
    GrpcCall::a2a(
        "SendStreamingMessage",
        &send_message("m-1", "Summarise the report"),
        Response::error(&status),
    )
}

/// A stream of two events ending with TaskNotFoundError in the trailers.
fn stream_then_not_found() -> GrpcCall {
    let events = vec![
        message_frame(&stream_task(task("t-1", "c-1", TaskState::Working))),
        message_frame(&stream_status_update("t-1", "c-1", TaskState::Working)),
    ];
    GrpcCall::a2a(
        "SubscribeToTask",
        &subscribe_to_task("t-1"),
        Response::with_status(events, &task_not_found("t-1")),
    )
}

/// A SendMessage answered with a task.
fn send_ok(content_type: &str) -> GrpcCall {
    let answer = send_response_task(task("t-2", "c-2", TaskState::Submitted));
    GrpcCall::a2a(
        "SendMessage",
        &send_message("m-2", "Book a table for two"),
        Response::unary(&answer),
    )
    .content_type(content_type)
}

pub fn fixtures() -> Vec<Fixture> {
    let not_a_number = Response::trailers_only(&GrpcStatus::new(code::NOT_FOUND, Some("gone")))
        .set_header("grpc-status", "NOT_FOUND");
    let out_of_range = GrpcStatus::new(17, Some("Task not found"));
    let padded_not_found = task_not_found("t-1").encoded(BinEncoding::Padded);
    vec![
        // grpc-status-mismatch: UNSUPPORTED_OPERATION is FAILED_PRECONDITION in spec v1.0.1,
        // UNIMPLEMENTED in spec v1.0.0, which the tck profile follows.
        fixture(
            "grpc-status-mismatch",
            "bad-grpc-unsupported-unimplemented.pcap",
            vec![unsupported(code::UNIMPLEMENTED)],
        ),
        fixture(
            "grpc-status-mismatch",
            "ok-grpc-unsupported-unimplemented-under-spec-1.0.0.pcap",
            vec![unsupported(code::UNIMPLEMENTED)],
        ),
        fixture(
            "grpc-status-mismatch",
            "bad-grpc-unsupported-failed-precondition-under-spec-1.0.0.pcap",
            vec![unsupported(code::FAILED_PRECONDITION)],
        ),
        fixture(
            "grpc-status-mismatch",
            "ok-grpc-unsupported-failed-precondition.pcap",
            vec![unsupported(code::FAILED_PRECONDITION)],
        ),
        fixture(
            "grpc-status-mismatch",
            "bad-grpc-unsupported-failed-precondition-under-tck.pcap",
            vec![unsupported(code::FAILED_PRECONDITION)],
        ),
        fixture(
            "grpc-status-mismatch",
            "ok-grpc-unsupported-unimplemented-under-tck.pcap",
            vec![unsupported(code::UNIMPLEMENTED)],
        ),
        fixture(
            "grpc-status-mismatch",
            "bad-grpc-status-not-a-number.pcap",
            vec![get_task_call(not_a_number)],
        ),
        fixture(
            "grpc-status-mismatch",
            "bad-grpc-status-out-of-range.pcap",
            vec![get_task_call(Response::error(&out_of_range))],
        ),
        fixture(
            "grpc-status-mismatch",
            "ok-grpc-task-not-found-not-found.pcap",
            vec![get_task_call(Response::trailers_only(&padded_not_found))],
        ),
        // task-existence-leak
        fixture(
            "task-existence-leak",
            "bad-grpc-get-task-permission-denied.pcap",
            vec![get_task_call(Response::trailers_only(&GrpcStatus::new(
                code::PERMISSION_DENIED,
                Some("Caller may not read task t-1"),
            )))],
        ),
        fixture(
            "task-existence-leak",
            "ok-grpc-get-task-not-found.pcap",
            vec![get_task_call(Response::trailers_only(&task_not_found(
                "t-1",
            )))],
        ),
        // HTTP-level rules: every gRPC response is HTTP 200 `application/grpc`, errors
        // included, with no JSON body; none of these may fire on it.
        fixture(
            "http-status-mismatch",
            "ok-grpc-not-found-over-http-200.pcap",
            vec![
                get_task_call(Response::trailers_only(&task_not_found("t-1"))),
                stream_then_not_found(),
            ],
        ),
        fixture(
            "error-content-type",
            "ok-grpc-error-in-application-grpc.pcap",
            vec![get_task_call(Response::error(&padded_not_found))],
        ),
        fixture(
            "error-content-type",
            "ok-grpc-error-in-application-grpc-under-tck.pcap",
            vec![get_task_call(Response::trailers_only(&padded_not_found))],
        ),
        fixture(
            "jsonrpc-error-http-status",
            "ok-grpc-error-over-http-200.pcap",
            vec![get_task_call(Response::trailers_only(&task_not_found(
                "t-1",
            )))],
        ),
        fixture(
            "rest-error-shape",
            "ok-grpc-status-in-trailers.pcap",
            vec![
                get_task_call(Response::error(&task_not_found("t-1"))),
                stream_then_not_found(),
            ],
        ),
        fixture(
            "error-body-not-json",
            "ok-grpc-error-without-body.pcap",
            vec![
                get_task_call(Response::trailers_only(&GrpcStatus::new(
                    code::INTERNAL,
                    Some("Agent failed"),
                ))),
                get_task_call(Response::trailers_only(&task_not_found("t-1"))),
            ],
        ),
        fixture(
            "problem-json-error",
            "ok-grpc-error-status.pcap",
            vec![get_task_call(Response::error(&task_not_found("t-1")))],
        ),
        fixture(
            "request-content-type",
            "ok-grpc-content-types.pcap",
            vec![
                send_ok("application/grpc"),
                send_ok("application/grpc+proto"),
            ],
        ),
        fixture(
            "unpaired-message",
            "ok-grpc-whole-calls.pcap",
            vec![
                send_ok("application/grpc"),
                stream_then_not_found(),
                get_task_call(Response::trailers_only(&task_not_found("t-1"))),
            ],
        ),
    ]
}
