//! Hostile gRPC calls: a compression bomb, a message past the decoding limit, protobuf
//! nested past prost's limit, a cut message prefix. Each is one finding at its place in
//! the view, and the calls around it are still read and checked.

#[allow(dead_code)]
#[path = "common/grpc/mod.rs"]
mod grpc;
#[allow(dead_code)]
#[path = "common/h2.rs"]
mod h2;
#[allow(dead_code)]
#[path = "common/pcap/mod.rs"]
mod pcap;

use std::io::Write;

use a2alint::output::resolve::Diagnostic;
use a2alint::rules::RuleId;
use a2alint::{Options, lint_source};
use grpc::*;

/// 4 MiB of zeros and then some: gzip makes it a few KiB.
fn bomb() -> Vec<u8> {
    let mut gzip = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    gzip.write_all(&vec![0; (4 << 20) + 1024]).unwrap();
    gzip.finish().unwrap()
}

/// The findings of one connection holding `hostile` between two well-formed calls whose
/// answers each have a finding of their own (an ErrorInfo in the wrong domain).
fn lint_between(hostile: GrpcCall) -> Vec<Diagnostic> {
    let wrong_domain = || {
        let status = GrpcStatus::rich(
            code::NOT_FOUND,
            "Task not found",
            vec![error_info("TASK_NOT_FOUND", "a2a.org", &[])],
        );
        GrpcCall::a2a(
            "GetTask",
            &get_task("t-1"),
            Response::trailers_only(&status),
        )
    };
    let pcap = GrpcConnection::new(vec![wrong_domain(), hostile, wrong_domain()]).pcap();
    let report = lint_source("hostile.pcap", &pcap, &Options::default());
    let domains = (report.diagnostics.iter())
        .filter(|d| d.rule == RuleId::ErrorInfoDomain)
        .count();
    assert_eq!(
        domains, 2,
        "the calls around it are checked: {:#?}",
        report.diagnostics
    );
    report.diagnostics
}

fn undecodable(diagnostics: &[Diagnostic]) -> Vec<&Diagnostic> {
    (diagnostics.iter())
        .filter(|d| d.rule == RuleId::UndecodableBody)
        .collect()
}

#[test]
fn a_compression_bomb_stops_at_the_message_limit() {
    let call = GrpcCall::new(
        &method_path("GetTask"),
        vec![prefixed(1, &bomb())],
        Response::unary(&task("t-2", "c-1", a2a_pb::protojson::TaskState::Completed)),
    )
    .grpc_encoding(Compression::Gzip);
    let diagnostics = lint_between(call);
    let [finding] = &undecodable(&diagnostics)[..] else {
        panic!("{diagnostics:#?}")
    };
    assert!(
        finding.message.contains("inflates past 4 MiB"),
        "{}",
        finding.message
    );
    assert_eq!(finding.primary.text, "not inflated");
}

#[test]
fn a_message_past_the_limit_is_reported_not_decoded() {
    // A GetTaskRequest whose `tenant` (field 2) holds 4 MiB and a bit.
    let mut request = vec![0x12];
    let len = (4 << 20) + 8;
    prost::encoding::encode_varint(len as u64, &mut request);
    request.extend(vec![b'a'; len]);
    let call = GrpcCall::new(
        &method_path("GetTask"),
        vec![raw_message(&request)],
        Response::unary(&task("t-2", "c-1", a2a_pb::protojson::TaskState::Completed)),
    );
    let diagnostics = lint_between(call);
    let [finding] = &undecodable(&diagnostics)[..] else {
        panic!("{diagnostics:#?}")
    };
    assert!(
        finding.message.contains("past the 4 MiB"),
        "{}",
        finding.message
    );
}

#[test]
fn millions_of_empty_entries_in_a_small_gzip_message_are_refused() {
    // The fuzzers' finding #7: a Task whose history is 2-byte empty entries, inflated
    // from a gzip message of a few KiB.
    let history: Vec<u8> = std::iter::repeat_n([0x22, 0x00], 1 << 20)
        .flatten()
        .collect();
    let mut gzip = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    gzip.write_all(&history).unwrap();
    let response = Response::ok(vec![prefixed(1, &gzip.finish().unwrap())])
        .header("grpc-encoding", Compression::Gzip.name());
    let diagnostics = lint_between(GrpcCall::a2a("GetTask", &get_task("t-2"), response));
    let [finding] = &undecodable(&diagnostics)[..] else {
        panic!("{diagnostics:#?}")
    };
    assert!(
        finding.message.contains("more than 100000 fields"),
        "{}",
        finding.message
    );
}

#[test]
fn protobuf_nested_past_the_limit_is_a_finding() {
    // Groups of an unknown field, opened 200 deep and closed.
    let mut nested = vec![0x7b; 200];
    nested.extend([0x7c; 200]);
    let call = GrpcCall::new(
        &method_path("GetTask"),
        vec![raw_message(&nested)],
        Response::unary(&task("t-2", "c-1", a2a_pb::protojson::TaskState::Completed)),
    );
    let diagnostics = lint_between(call);
    let [finding] = &undecodable(&diagnostics)[..] else {
        panic!("{diagnostics:#?}")
    };
    assert!(
        finding.message.contains("gRPC message does not decode"),
        "{}",
        finding.message
    );
}

#[test]
fn a_cut_message_prefix_is_a_framing_finding() {
    let mut body = message_frame(&get_task("t-2"));
    body.extend([0, 0, 0]);
    let call = GrpcCall::new(
        &method_path("GetTask"),
        vec![body],
        Response::unary(&task("t-2", "c-1", a2a_pb::protojson::TaskState::Completed)),
    );
    let diagnostics = lint_between(call);
    let [finding] = &undecodable(&diagnostics)[..] else {
        panic!("{diagnostics:#?}")
    };
    assert!(
        finding.message.contains("length-prefixed"),
        "{}",
        finding.message
    );
}
