//! `capture-syntax`: bytes that should be an HTTP/1.x message but cannot be read as one.

use crate::finding::Finding;
use crate::input::capture::ReadProblem;
use crate::input::source::Label;
use crate::rules::{Hooks, Rule, RuleId};

pub struct CaptureSyntax;

impl Rule for CaptureSyntax {
    fn id(&self) -> RuleId {
        RuleId::CaptureSyntax
    }

    fn hooks(&self) -> Hooks {
        Hooks::PROBLEMS
    }

    fn check_problems(&self, problems: &[ReadProblem], out: &mut Vec<Finding>) {
        for problem in problems {
            let ReadProblem::Syntax {
                span,
                message,
                help,
                skipped,
            } = problem
            else {
                continue;
            };
            let (label, recovery) = if *skipped {
                (
                    "cannot read this",
                    "a2alint skipped to the next `###` separator or start line",
                )
            } else {
                (
                    "read as far as possible",
                    "a2alint read the rest of the message as best it could",
                )
            };
            out.push(
                Finding::new(self.id(), Label::at(*span, label), message)
                    .help(format!("{help}; {recovery}")),
            );
        }
    }
}
