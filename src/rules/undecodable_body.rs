//! `undecodable-body`: a `Content-Encoding` that fails to decode or is unknown.

use crate::finding::Finding;
use crate::input::capture::ReadProblem;
use crate::input::source::Label;
use crate::rules::{Hooks, Rule, RuleId};

pub struct UndecodableBody;

impl Rule for UndecodableBody {
    fn id(&self) -> RuleId {
        RuleId::UndecodableBody
    }

    fn hooks(&self) -> Hooks {
        Hooks::PROBLEMS
    }

    fn check_problems(&self, problems: &[ReadProblem], out: &mut Vec<Finding>) {
        for problem in problems {
            if let ReadProblem::Undecodable {
                header,
                coding,
                reason,
            } = problem
            {
                let (label, message, help) = describe(coding, reason);
                out.push(Finding::new(self.id(), Label::at(*header, label), message).help(help));
            }
        }
    }
}

/// The label, message and help for a body that could not be decoded in `coding`: an
/// HTTP content coding, or one of the layers of a gRPC call (A2A §10).
fn describe(coding: &str, reason: &str) -> (&'static str, String, &'static str) {
    match coding {
        "protobuf" => (
            "not its method's type",
            format!("gRPC message does not decode: {reason}"),
            "each message of a call is its rpc's protobuf type (A2A §10.4); no rule checked this message",
        ),
        "gRPC framing" => (
            "not a whole message",
            format!("gRPC body is not a run of length-prefixed messages: {reason}"),
            "a gRPC body is messages, each a compressed-flag byte, a 4-byte length and that many bytes \
             (gRPC over HTTP/2); what follows the last whole message was not checked",
        ),
        "grpc-encoding" => (
            "not inflated",
            format!("gRPC message cannot be decompressed: {reason}"),
            "a2alint inflates gzip and deflate; a message flagged compressed needs the `grpc-encoding` \
             it was compressed with. No rule checked this message",
        ),
        "grpc-status-details-bin" => (
            "not a Status",
            format!("`grpc-status-details-bin` cannot be read: {reason}"),
            "the value is the base64 (padded or not) of a serialized google.rpc.Status (A2A §10.6); \
             clients cannot read the error's details, and no error rule saw them",
        ),
        _ => (
            "content coding",
            format!("body cannot be decoded as `{coding}`: {reason}"),
            "a2alint decodes gzip, deflate and br; no rule checked this body. Record the traffic with \
             `Accept-Encoding: identity` or fix the capture",
        ),
    }
}
