//! gRPC fixtures of the rules on an error's details: its ErrorInfo, BadRequest and text.

use a2a_pb::protojson::TaskState;

use crate::grpc::*;
use crate::{Fixture, fixture, get_task_call};

/// NOT_FOUND for task `t-1` with these details.
fn not_found(details: Vec<prost_types::Any>) -> GrpcStatus {
    GrpcStatus::rich(code::NOT_FOUND, "Task not found", details)
}

/// The ErrorInfo of TaskNotFoundError for task `t-1`.
fn task_not_found_info() -> prost_types::Any {
    a2a_error_info("TASK_NOT_FOUND", &[("taskId", "t-1")])
}

/// A SendMessage whose message has no id, answered INVALID_ARGUMENT with these details.
fn invalid_params(details: Vec<prost_types::Any>, encoding: BinEncoding) -> GrpcCall {
    let mut all = vec![error_info("INVALID_PARAMS", A2A_DOMAIN, &[])];
    all.extend(details);
    let status =
        GrpcStatus::rich(code::INVALID_ARGUMENT, "message_id is required", all).encoded(encoding);
    let request = send_message_without_id("Book a table for two");
    GrpcCall::a2a("SendMessage", &request, Response::error(&status))
}

/// SendStreamingMessage refused: streaming is off, with this ErrorInfo metadata.
fn streaming_unsupported(metadata: &[(&str, &str)]) -> GrpcCall {
    let info = a2a_error_info("UNSUPPORTED_OPERATION", metadata);
    let status = GrpcStatus::rich(
        code::FAILED_PRECONDITION,
        "Streaming is not supported",
        vec![info],
    );
    let request = send_message("m-1", "Summarise the report");
    GrpcCall::a2a(
        "SendStreamingMessage",
        &request,
        Response::trailers_only(&status),
    )
}

/// A CancelTask of `t-1` answered NOT_FOUND with a TASK_NOT_FOUND ErrorInfo and this text.
fn cancel_not_found(text: &str) -> GrpcCall {
    let status = GrpcStatus::rich(code::NOT_FOUND, text, vec![task_not_found_info()]);
    GrpcCall::a2a("CancelTask", &cancel_task("t-1"), Response::error(&status))
}

pub fn fixtures() -> Vec<Fixture> {
    let stream_events = vec![
        message_frame(&stream_task(task("t-1", "c-1", TaskState::Submitted))),
        message_frame(&stream_status_update("t-1", "c-1", TaskState::Working)),
    ];
    let stream_error = GrpcStatus::new(
        code::FAILED_PRECONDITION,
        Some("Task t-1 can no longer take messages"),
    );
    vec![
        // error-info-missing
        fixture(
            "error-info-missing",
            "bad-grpc-not-found-without-details.pcap",
            vec![get_task_call(Response::trailers_only(&GrpcStatus::new(
                code::NOT_FOUND,
                Some("Task not found"),
            )))],
        ),
        fixture(
            "error-info-missing",
            "bad-grpc-not-found-debug-info-only-under-spec-1.0.0.pcap",
            vec![get_task_call(Response::error(
                &not_found(vec![debug_info(&["tasks.get"], "no row t-1")])
                    .encoded(BinEncoding::Padded),
            ))],
        ),
        fixture(
            "error-info-missing",
            "bad-grpc-stream-failed-precondition-after-events.pcap",
            vec![GrpcCall::a2a(
                "SendStreamingMessage",
                &send_message("m-1", "Summarise the report"),
                Response::with_status(stream_events, &stream_error),
            )],
        ),
        fixture(
            "error-info-missing",
            "ok-grpc-not-found-with-error-info.pcap",
            vec![get_task_call(Response::trailers_only(
                &task_not_found("t-1").encoded(BinEncoding::TrueBinary),
            ))],
        )
        .true_binary(),
        // error-info-domain
        fixture(
            "error-info-domain",
            "bad-grpc-domain-a2a-org.pcap",
            vec![get_task_call(Response::trailers_only(&not_found(vec![
                error_info("TASK_NOT_FOUND", "a2a.org", &[("taskId", "t-1")]),
            ])))],
        ),
        fixture(
            "error-info-domain",
            "ok-grpc-domain-a2a-protocol-org.pcap",
            vec![get_task_call(Response::error(
                &not_found(vec![task_not_found_info()]).encoded(BinEncoding::Padded),
            ))],
        ),
        // error-info-reason
        fixture(
            "error-info-reason",
            "bad-grpc-reason-task-not-foundd.pcap",
            vec![get_task_call(Response::error(&not_found(vec![
                a2a_error_info("TASK_NOT_FOUNDD", &[("taskId", "t-1")]),
            ])))],
        ),
        fixture(
            "error-info-reason",
            "ok-grpc-reason-task-not-found.pcap",
            vec![get_task_call(Response::trailers_only(
                &not_found(vec![task_not_found_info()]).encoded(BinEncoding::TrueBinary),
            ))],
        )
        .true_binary(),
        // duplicate-error-info
        fixture(
            "duplicate-error-info",
            "bad-grpc-two-error-infos.pcap",
            vec![get_task_call(Response::trailers_only(
                &not_found(vec![
                    task_not_found_info(),
                    error_info("TASK_LOOKUP_FAILED", "agent.example", &[]),
                ])
                .encoded(BinEncoding::Padded),
            ))],
        ),
        fixture(
            "duplicate-error-info",
            "ok-grpc-one-error-info.pcap",
            vec![get_task_call(Response::error(&not_found(vec![
                task_not_found_info(),
                localized_message("en-US", "Task t-1 was not found"),
            ])))],
        ),
        // detail-missing-type
        fixture(
            "detail-missing-type",
            "bad-grpc-any-without-type-url.pcap",
            vec![get_task_call(Response::error(&not_found(vec![
                any_without_type_url("TASK_NOT_FOUND"),
            ])))],
        ),
        fixture(
            "detail-missing-type",
            "ok-grpc-typed-details.pcap",
            vec![get_task_call(Response::trailers_only(
                &not_found(vec![task_not_found_info(), debug_info(&[], "lookup")])
                    .encoded(BinEncoding::Padded),
            ))],
        ),
        // bad-request-detail-missing
        fixture(
            "bad-request-detail-missing",
            "bad-grpc-invalid-params-without-bad-request.pcap",
            vec![invalid_params(Vec::new(), BinEncoding::Unpadded)],
        ),
        fixture(
            "bad-request-detail-missing",
            "ok-grpc-bad-request-names-message-id.pcap",
            vec![invalid_params(
                vec![bad_request(&[("message.message_id", "is required")])],
                BinEncoding::Padded,
            )],
        ),
        // field-violation-path
        fixture(
            "field-violation-path",
            "bad-grpc-json-field-name.pcap",
            vec![invalid_params(
                vec![bad_request(&[("message.messageId", "is required")])],
                BinEncoding::Unpadded,
            )],
        ),
        fixture(
            "field-violation-path",
            "ok-grpc-proto-field-name.pcap",
            vec![invalid_params(
                vec![bad_request(&[("message.message_id", "is required")])],
                BinEncoding::TrueBinary,
            )],
        )
        .true_binary(),
        // unsupported-operation-ambiguous
        fixture(
            "unsupported-operation-ambiguous",
            "bad-grpc-unsupported-without-metadata.pcap",
            vec![streaming_unsupported(&[])],
        ),
        fixture(
            "unsupported-operation-ambiguous",
            "ok-grpc-unsupported-with-metadata.pcap",
            vec![streaming_unsupported(&[("capability", "streaming")])],
        ),
        // message-text-mismatch: the text is percent-encoded (the dash is not ASCII).
        fixture(
            "message-text-mismatch",
            "bad-grpc-task-not-found-reads-as-not-cancelable.pcap",
            vec![cancel_not_found(
                "Task cannot be canceled \u{2014} it is done",
            )],
        ),
        fixture(
            "message-text-mismatch",
            "ok-grpc-task-not-found-text-matches.pcap",
            vec![cancel_not_found(
                "Task not found: t-1 \u{2014} check the id",
            )],
        ),
    ]
}
