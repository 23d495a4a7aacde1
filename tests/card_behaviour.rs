//! `card-contradicted` across a run: the agent card in one capture, the answers that
//! contradict it in others (a `.http` file and gRPC calls in a pcap). `a2alint check`
//! lints the folder as a user would.

#[allow(dead_code)]
#[path = "common/grpc/mod.rs"]
mod grpc;
#[allow(dead_code)]
#[path = "common/h2.rs"]
mod h2;
#[allow(dead_code)]
#[path = "common/pcap/mod.rs"]
mod pcap;

#[path = "common/run_findings.rs"]
mod run_findings;

use std::path::Path;

use a2a_pb::protojson::TaskState;
use grpc::*;
use serde_json::{Value, json};

const RULE: &str = "card-contradicted";

/// The card's discovery exchange at `agent:8080`: JSON-RPC there, gRPC at `agent:50051`.
fn card(capabilities: Value) -> String {
    let body = json!({"name": "Booking agent", "description": "Books tables", "version": "2.4.0",
        "supportedInterfaces": [
            {"url": "http://agent:8080/a2a", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
            {"url": "agent:50051", "protocolBinding": "GRPC", "protocolVersion": "1.0"}],
        "capabilities": capabilities, "defaultInputModes": ["text/plain"],
        "defaultOutputModes": ["text/plain"], "skills": []});
    format!(
        "GET /.well-known/agent-card.json HTTP/1.1\r\nHost: agent:8080\r\n\r\n\
         HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n{body}\r\n"
    )
}

/// gRPC calls to `agent:50051`: a stream served, then a push config refused.
fn calls() -> Vec<u8> {
    let stream = GrpcCall::a2a(
        "SendStreamingMessage",
        &send_message("m-1", "Book a table"),
        Response::ok(vec![message_frame(&stream_task(task(
            "t-1",
            "c-1",
            TaskState::Submitted,
        )))]),
    );
    let refused = GrpcStatus::rich(
        code::FAILED_PRECONDITION,
        "Push notifications are not supported",
        vec![a2a_error_info("PUSH_NOTIFICATION_NOT_SUPPORTED", &[])],
    );
    let config = a2a_pb::GetTaskPushNotificationConfigRequest {
        task_id: "t-1".to_string(),
        id: "cfg-1".to_string(),
        ..Default::default()
    };
    let push = GrpcCall::a2a(
        "GetTaskPushNotificationConfig",
        &config,
        Response::error(&refused),
    );
    let calls: Vec<GrpcCall> = [stream, push]
        .into_iter()
        .map(|mut call| {
            call.authority = "agent:50051".to_string();
            call.a2a_version(Some("1.0"))
        })
        .collect();
    GrpcConnection::new(calls).pcap()
}

/// A JSON-RPC stream at `agent:8080`.
const RPC_STREAM: &str = "POST /a2a HTTP/1.1\r\nHost: agent:8080\r\nContent-Type: application/json\r\n\
    A2A-Version: 1.0\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"SendStreamingMessage\",\
    \"params\":{\"message\":{\"messageId\":\"m-2\",\"role\":\"ROLE_USER\",\"parts\":[{\"text\":\"hi\"}]}}}\r\n\
    HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n\
    data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"task\":{\"id\":\"t-2\",\"contextId\":\"c-2\",\
    \"status\":{\"state\":\"TASK_STATE_SUBMITTED\"}}}}\n\n";

fn findings(dir: &Path) -> Vec<String> {
    run_findings::rule_findings(dir, RULE)
}

fn folder(capabilities: Value) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("card.http"), card(capabilities)).unwrap();
    std::fs::write(dir.path().join("grpc.pcap"), calls()).unwrap();
    std::fs::write(dir.path().join("stream.http"), RPC_STREAM).unwrap();
    dir
}

#[test]
fn answers_in_other_files_are_judged_by_the_card_and_name_it() {
    let dir = folder(json!({"streaming": false, "pushNotifications": true}));
    let found = findings(dir.path());
    assert_eq!(found.len(), 3, "{found:#?}");
    let with = |needle: &str| found.iter().find(|f| f.contains(needle));
    let grpc_stream = with("grpc.pcap: a stream is served").expect("the gRPC stream");
    assert!(
        grpc_stream.contains("`capabilities.streaming: false` (agent card in ")
            && grpc_stream.contains("card.http, line 7)"),
        "{grpc_stream}"
    );
    let push = with("grpc.pcap: PushNotificationNotSupportedError").expect("the refusal");
    assert!(
        push.contains("`capabilities.pushNotifications: true`"),
        "{push}"
    );
    assert!(
        with("stream.http: a stream is served").is_some(),
        "{found:#?}"
    );
}

#[test]
fn answers_the_card_allows_are_quiet() {
    let dir = folder(json!({"streaming": true}));
    assert_eq!(findings(dir.path()), Vec::<String>::new());
}

#[test]
fn two_cards_that_disagree_judge_nothing_on_that_flag() {
    let dir = folder(json!({"streaming": false}));
    let newer = card(json!({"streaming": true}));
    std::fs::write(dir.path().join("card-2.http"), newer).unwrap();
    assert_eq!(findings(dir.path()), Vec::<String>::new());
}

#[test]
fn without_a_card_nothing_is_judged() {
    let dir = folder(json!({}));
    std::fs::remove_file(dir.path().join("card.http")).unwrap();
    assert_eq!(findings(dir.path()), Vec::<String>::new());
}
