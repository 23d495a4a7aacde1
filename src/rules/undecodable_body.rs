//! `undecodable-body`: a `Content-Encoding` that fails to decode or is unknown.

use crate::capture::ReadProblem;
use crate::finding::{Finding, Label};
use crate::rules::{Rule, RuleId};

pub struct UndecodableBody;

impl Rule for UndecodableBody {
    fn id(&self) -> RuleId {
        RuleId::UndecodableBody
    }

    fn check_problems(&self, problems: &[ReadProblem], out: &mut Vec<Finding>) {
        for problem in problems {
            if let ReadProblem::Undecodable {
                header,
                coding,
                reason,
            } = problem
            {
                out.push(
                    Finding::new(
                        self.id(),
                        Label::at(*header, "content coding"),
                        format!("body cannot be decoded as `{coding}`: {reason}"),
                    )
                    .help(
                        "a2alint decodes gzip, deflate and br; no rule checked this body. Record \
                         the traffic with `Accept-Encoding: identity` or fix the capture",
                    ),
                );
            }
        }
    }
}
