//! `content-length-mismatch`: `Content-Length` disagrees with the body bytes the capture
//! holds before the next message.

use crate::finding::Finding;
use crate::input::capture::ReadProblem;
use crate::input::source::Label;
use crate::rules::{Hooks, Rule, RuleId};

pub struct ContentLengthMismatch;

impl Rule for ContentLengthMismatch {
    fn id(&self) -> RuleId {
        RuleId::ContentLengthMismatch
    }

    fn hooks(&self) -> Hooks {
        Hooks::PROBLEMS
    }

    fn check_problems(&self, problems: &[ReadProblem], out: &mut Vec<Finding>) {
        for problem in problems {
            if let ReadProblem::LengthMismatch {
                header,
                declared,
                actual,
                body,
            } = problem
            {
                let message = format!(
                    "Content-Length is {declared} but the capture holds {actual} body bytes before the next message"
                );
                out.push(
                    Finding::new(
                        self.id(),
                        Label::at(*header, format!("declares {declared} bytes")),
                        message,
                    )
                    .related(Label::at(*body, format!("{actual} bytes")))
                    .help(
                        "the capture was edited or truncated; correct Content-Length or record \
                             the exchange again (a2alint read the body up to the next message)",
                    ),
                );
            }
        }
    }
}
