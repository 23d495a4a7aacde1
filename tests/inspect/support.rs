//! The gRPC capture the inspect tests read, written with the gRPC test writer, and
//! helpers to read tables and real a2a-python recordings.

use std::path::Path;

use a2alint::Profile;
use a2alint::protocol::inspect::{Row, inspect_source, write_table};

use crate::grpc::{
    End, GrpcCall, GrpcStatus, Response, a2a_error_info, bad_request, cancel_task, code, get_task,
    grpc_pcap, message_frame, method_path, retry_info, send_message, send_response_task,
    stream_status_update, stream_task, task, task_not_found,
};
use a2a_pb::protojson::TaskState;

/// A GetTask answered with `status` alone (Trailers-Only, no details).
fn get_task_answered(id: &str, status: i32, message: &str) -> GrpcCall {
    let answer = Response::trailers_only(&GrpcStatus::new(status, Some(message)));
    GrpcCall::a2a("GetTask", &get_task(id), answer)
}

/// One gRPC connection answering calls with each kind of status: success, A2A errors
/// with and without ErrorInfo, the transient codes (RetryInfo included), the codes a
/// client must not retry blindly, a code outside the seventeen, and a stream cut short.
pub fn grpc_calls() -> Vec<GrpcCall> {
    let working = task("t-1", "c-1", TaskState::Working);
    let not_cancelable = GrpcStatus::rich(
        code::FAILED_PRECONDITION,
        "Task cannot be canceled",
        vec![a2a_error_info("TASK_NOT_CANCELABLE", &[("taskId", "t-1")])],
    );
    let invalid_params = GrpcStatus::rich(
        code::INVALID_ARGUMENT,
        "Invalid parameters",
        vec![
            a2a_error_info("INVALID_PARAMS", &[]),
            bad_request(&[("message.message_id", "required")]),
        ],
    );
    let exhausted = GrpcStatus::rich(
        code::RESOURCE_EXHAUSTED,
        "Rate limit reached",
        vec![retry_info(1, 500_000_000)],
    );
    let unavailable = GrpcStatus::rich(
        code::UNAVAILABLE,
        "Agent is overloaded",
        vec![retry_info(30, 0)],
    );
    let stream = vec![
        message_frame(&stream_task(task("t-9", "c-9", TaskState::Submitted))),
        message_frame(&stream_status_update("t-9", "c-9", TaskState::Working)),
    ];
    let send = |id: &str, answer: Response| {
        GrpcCall::a2a("SendMessage", &send_message(id, "Book a table"), answer)
    };
    vec![
        send("m-1", Response::unary(&send_response_task(working))),
        GrpcCall::a2a(
            "GetTask",
            &get_task("t-2"),
            Response::trailers_only(&task_not_found("t-2")),
        ),
        get_task_answered("t-3", code::NOT_FOUND, "No such task"),
        GrpcCall::a2a(
            "CancelTask",
            &cancel_task("t-1"),
            Response::error(&not_cancelable),
        ),
        GrpcCall::a2a(
            "CancelTask",
            &cancel_task("t-1"),
            Response::error(&GrpcStatus::new(code::FAILED_PRECONDITION, Some("Not now"))),
        ),
        send("m-2", Response::trailers_only(&invalid_params)),
        send("m-3", Response::trailers_only(&unavailable)),
        send("m-4", Response::trailers_only(&exhausted)),
        get_task_answered("t-1", code::DEADLINE_EXCEEDED, "Deadline exceeded"),
        get_task_answered("t-1", code::UNAUTHENTICATED, "Credentials required"),
        get_task_answered("t-1", code::PERMISSION_DENIED, "Not yours"),
        get_task_answered("t-1", code::CANCELLED, "Cancelled"),
        get_task_answered("t-1", code::ABORTED, "Concurrent update"),
        get_task_answered("t-1", code::DATA_LOSS, "History lost"),
        get_task_answered("t-1", 42, "No such code"),
        GrpcCall::new(
            &method_path("GetTaskHistory"),
            vec![message_frame(&get_task("t-1"))],
            Response::trailers_only(&GrpcStatus::new(
                code::UNIMPLEMENTED,
                Some("Method not found"),
            )),
        ),
        GrpcCall::a2a(
            "SendStreamingMessage",
            &send_message("m-5", "Stream it"),
            Response::ok(stream.clone()),
        ),
        GrpcCall::a2a(
            "SendStreamingMessage",
            &send_message("m-6", "Stream it"),
            Response::ok(stream).end(End::DataEndStream),
        ),
    ]
}

pub const GRPC_CAPTURE: &str = "every-grpc-status.pcap";

pub fn grpc_rows() -> Vec<Row> {
    inspect_source(GRPC_CAPTURE, &grpc_pcap(grpc_calls()), Profile::Spec)
}

pub fn table_of(rows: &[Row]) -> String {
    let mut out = Vec::new();
    write_table(rows, &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

pub fn real_grpc(name: &str) -> Vec<Row> {
    let path = format!("samples/real/a2a-python/grpc/{name}");
    let bytes = std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join(&path)).unwrap();
    inspect_source(&path, &bytes, Profile::Spec)
}

/// The counts of one matrix line (JSON-RPC, HTTP+JSON, gRPC, OTHER).
pub fn matrix_line(table: &str, error: &str) -> Option<Vec<usize>> {
    let matrix = table.split("ERRORS BY BINDING").nth(1)?;
    matrix.lines().skip(1).find_map(|line| {
        let cells: Vec<&str> = line.split_whitespace().collect();
        let (name, counts) = cells.split_at(cells.len().checked_sub(4)?);
        (name.join(" ") == error).then(|| counts.iter().map(|c| c.parse().unwrap()).collect())
    })
}
