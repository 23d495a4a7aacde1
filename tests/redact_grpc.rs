//! Credentials over gRPC: `authorization` metadata is redacted in place like any HTTP/2
//! field; a credential inside a protobuf message, which the view shows as proto3 JSON
//! and not byte for byte, is reported and masked in every output, and `redact` refuses
//! the file rather than guess where its bytes are.

#[allow(dead_code)]
#[path = "common/grpc/mod.rs"]
mod grpc;
#[allow(dead_code)]
#[path = "common/h2.rs"]
mod h2;
#[allow(dead_code)]
#[path = "common/pcap/mod.rs"]
mod pcap;

use a2alint::commands::redact::redact_source;
use a2alint::output::report::Format;
use a2alint::rules::RuleId;
use a2alint::{Options, lint_source};
use grpc::*;

const TOKEN: &str = "Bearer not-a-real-token-1234";
/// A JWT-shaped string (header.payload.signature), as a secret a text part might carry.
const JWT: &str = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZ2VudCJ9.c2lnbmF0dXJlLW5vdC1yZWFs";

fn call(text: &str) -> GrpcCall {
    GrpcCall::a2a(
        "SendMessage",
        &send_message("m-1", text),
        Response::unary(&send_response_task(task(
            "t-1",
            "c-1",
            a2a_pb::protojson::TaskState::Completed,
        ))),
    )
}

#[test]
fn authorization_metadata_is_redacted_in_place() {
    let pcap = GrpcConnection::new(vec![call("hello").metadata("authorization", TOKEN)]).pcap();
    let redaction = redact_source("run.pcap", &pcap)
        .unwrap()
        .expect("a credential");
    let after = &redaction.redacted;
    assert_eq!(after.len(), pcap.len());
    assert!(!String::from_utf8_lossy(after).contains("not-a-real-token"));
    let report = lint_source("run.pcap", after, &Options::default());
    assert!(
        report
            .diagnostics
            .iter()
            .all(|d| d.rule != RuleId::SecretInCapture)
    );
}

#[test]
fn a_credential_inside_a_message_is_masked_and_redact_says_it_cannot() {
    let pcap = GrpcConnection::new(vec![call(&format!("use {JWT} please"))]).pcap();
    let report = lint_source("run.pcap", &pcap, &Options::default());
    assert!(
        report
            .diagnostics
            .iter()
            .any(|d| d.rule == RuleId::SecretInCapture),
        "{:#?}",
        report.diagnostics
    );
    let reports = [report];
    for format in [Format::Human, Format::Json, Format::Sarif, Format::Concise] {
        let mut out = Vec::new();
        let context = a2alint::output::report::Context {
            summary: a2alint::output::report::Summary::of(&reports),
            ..Default::default()
        };
        a2alint::output::report::write(format, &reports, &context, &mut out).unwrap();
        assert!(
            !String::from_utf8_lossy(&out).contains(JWT),
            "{format:?} shows the JWT"
        );
    }
    let refusal = redact_source("run.pcap", &pcap).unwrap_err();
    assert!(refusal.contains("left unchanged"), "{refusal}");
}
