//! `binding-divergence` across all three bindings in one run: a folder holding the same
//! GetTask over JSON-RPC (`.http`), HTTP+JSON (`.http`) and gRPC (a pcap) is quiet when
//! they agree and names the binding that answers differently when they do not.

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

const JSONRPC: &str = "POST /a2a HTTP/1.1\r\nHost: agent.example\r\nContent-Type: application/json\r\n\
A2A-Version: 1.0\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"GetTask\",\"params\":{\"id\":\"t-1\"}}\r\n\
HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":\
{\"code\":-32001,\"message\":\"Task not found\",\"data\":[{\"@type\":\
\"type.googleapis.com/google.rpc.ErrorInfo\",\"reason\":\"TASK_NOT_FOUND\",\"domain\":\"a2a-protocol.org\"}]}}\r\n";

const REST: &str = "GET /tasks/t-1 HTTP/1.1\r\nHost: agent.example\r\nA2A-Version: 1.0\r\n\r\n\
HTTP/1.1 404 Not Found\r\nContent-Type: application/a2a+json\r\n\r\n{\"error\":{\"code\":404,\
\"status\":\"NOT_FOUND\",\"message\":\"Task not found\",\"details\":[{\"@type\":\
\"type.googleapis.com/google.rpc.ErrorInfo\",\"reason\":\"TASK_NOT_FOUND\",\"domain\":\"a2a-protocol.org\"}]}}\r\n";

fn divergences(dir: &Path) -> Vec<String> {
    run_findings::rule_findings(dir, "binding-divergence")
}

fn folder(grpc_answer: Response) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("jsonrpc.http"), JSONRPC).unwrap();
    std::fs::write(dir.path().join("rest.http"), REST).unwrap();
    let call = GrpcCall::a2a("GetTask", &get_task("t-1"), grpc_answer);
    let pcap = GrpcConnection::new(vec![call]).pcap();
    std::fs::write(dir.path().join("grpc.pcap"), pcap).unwrap();
    dir
}

#[test]
fn three_bindings_that_agree_are_quiet() {
    let dir = folder(Response::trailers_only(&task_not_found("t-1")));
    assert_eq!(divergences(dir.path()), Vec::<String>::new());
}

#[test]
fn a_grpc_answer_that_differs_is_reported_at_the_grpc_call() {
    let task = task("t-1", "c-1", TaskState::Completed);
    let dir = folder(Response::unary(&task));
    let found = divergences(dir.path());
    let [only] = &found[..] else {
        panic!("{found:#?}")
    };
    assert!(
        only.contains("grpc.pcap: GetTask on task \"t-1\""),
        "{only}"
    );
    assert!(
        only.contains("no A2A error over gRPC but TASK_NOT_FOUND over JSON-RPC"),
        "{only}"
    );
    assert!(only.contains("jsonrpc.http:"), "{only}");
}

#[test]
fn without_json_rpc_grpc_is_compared_with_http_json() {
    let dir = folder(Response::trailers_only(&GrpcStatus::rich(
        code::PERMISSION_DENIED,
        "forbidden",
        vec![a2a_error_info("UNSUPPORTED_OPERATION", &[])],
    )));
    std::fs::remove_file(dir.path().join("jsonrpc.http")).unwrap();
    let found = divergences(dir.path());
    let [only] = &found[..] else {
        panic!("{found:#?}")
    };
    assert!(
        only.contains("UNSUPPORTED_OPERATION over gRPC but TASK_NOT_FOUND over HTTP+JSON"),
        "{only}"
    );
    assert!(only.contains("rest.http:"), "{only}");
}
