//! `unsupported-version-accepted` across a run: an agent card in one file judges the
//! versions that requests in another file declared. A folder holds the card (`.http`)
//! and gRPC calls (a pcap); `a2alint check` lints it as a user would.

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

const RULE: &str = "unsupported-version-accepted";

/// The card's discovery exchange, listing these `(url, binding, version)` interfaces.
fn card(interfaces: &[(&str, &str, &str)]) -> String {
    let interfaces: Vec<Value> = (interfaces.iter())
        .map(|(url, binding, version)| {
            json!({"url": url, "protocolBinding": binding, "protocolVersion": version})
        })
        .collect();
    let body = json!({"name": "Booking agent", "description": "Books tables", "version": "2.4.0",
        "supportedInterfaces": interfaces, "capabilities": {}, "defaultInputModes": ["text/plain"],
        "defaultOutputModes": ["text/plain"], "skills": []});
    format!(
        "GET /.well-known/agent-card.json HTTP/1.1\r\nHost: agent:8080\r\n\r\n\
         HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n{body}\r\n"
    )
}

/// `count` GetTask calls to `agent:50051` declaring `version`, each answered with the task.
fn calls(version: &str, count: usize) -> Vec<u8> {
    let call = |_| {
        let answer = Response::unary(&task("t-1", "c-1", TaskState::Working));
        let mut call =
            GrpcCall::a2a("GetTask", &get_task("t-1"), answer).a2a_version(Some(version));
        call.authority = "agent:50051".to_string();
        call
    };
    GrpcConnection::new((0..count).map(call).collect()).pcap()
}

fn findings(dir: &Path) -> Vec<String> {
    run_findings::rule_findings(dir, RULE)
}

fn folder(card_text: &str, pcap: &[u8]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("card.http"), card_text).unwrap();
    std::fs::write(dir.path().join("grpc.pcap"), pcap).unwrap();
    dir
}

#[test]
fn a_version_the_card_does_not_list_is_reported_at_the_call() {
    let dir = folder(&card(&[("agent:50051", "GRPC", "1.0")]), &calls("1.1", 3));
    let found = findings(dir.path());
    let [only] = &found[..] else {
        panic!("{found:#?}")
    };
    assert!(
        only.contains("grpc.pcap: call declares `a2a-version` 1.1"),
        "{only}"
    );
    assert!(
        only.contains("card.http does not list for GRPC at agent:50051"),
        "{only}"
    );
    assert!(only.contains("(it lists 1.0)"), "{only}");
    // Once per file and version: the other two calls are counted, not repeated.
    assert!(only.contains("2 more requests in this file"), "{only}");
}

#[test]
fn a_listed_version_is_quiet_and_patch_numbers_do_not_count() {
    let card_text = card(&[
        ("grpc://agent:50051", "GRPC", "1.0"),
        ("agent:50051", "grpc", "1.1"),
    ]);
    let dir = folder(&card_text, &calls("1.1.2", 1));
    assert_eq!(findings(dir.path()), Vec::<String>::new());
}

#[test]
fn a_card_of_another_interface_says_nothing() {
    // Another port, and the right authority over another binding: neither is this one.
    let card_text = card(&[
        ("agent:50052", "GRPC", "1.0"),
        ("http://agent:50051", "JSONRPC", "1.0"),
    ]);
    let dir = folder(&card_text, &calls("1.1", 1));
    assert_eq!(findings(dir.path()), Vec::<String>::new());
}

#[test]
fn without_a_card_only_the_major_version_is_judged() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("grpc.pcap"), calls("1.1", 1)).unwrap();
    std::fs::write(dir.path().join("later.pcap"), calls("99.0", 1)).unwrap();
    let found = findings(dir.path());
    let [only] = &found[..] else {
        panic!("{found:#?}")
    };
    assert!(
        only.contains("later.pcap: call declares `a2a-version` 99.0"),
        "{only}"
    );
}

#[test]
fn a_card_in_the_same_file_is_used_there_and_not_reported_again() {
    let dir = folder(&card(&[("agent:50051", "GRPC", "1.0")]), &calls("1.0", 1));
    let rpc = "POST /a2a HTTP/1.1\r\nHost: agent:8080\r\nContent-Type: application/json\r\n\
               A2A-Version: 1.1\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"GetTask\",\
               \"params\":{\"id\":\"t-1\"}}\r\nHTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n\
               {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"id\":\"t-1\",\"contextId\":\"c-1\",\
               \"status\":{\"state\":\"TASK_STATE_WORKING\"}}}\r\n";
    let with_rpc = card(&[("http://agent:8080/a2a", "JSONRPC", "1.0")]) + rpc;
    std::fs::write(dir.path().join("rpc.http"), with_rpc).unwrap();
    let found = findings(dir.path());
    let [only] = &found[..] else {
        panic!("{found:#?}")
    };
    assert!(
        only.contains("rpc.http: request declares A2A-Version 1.1"),
        "{only}"
    );
    assert!(only.contains("the agent card in this file"), "{only}");
}
