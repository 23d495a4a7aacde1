//! `capture-incomplete`: bytes the capture does not hold or cannot show, reported where
//! they go missing; nothing after them is guessed.

use crate::finding::{Finding, Severity};
use crate::input::capture::ReadProblem;
use crate::input::source::Label;
use crate::rules::{Hooks, Rule, RuleId};

pub struct CaptureIncomplete;

impl Rule for CaptureIncomplete {
    fn id(&self) -> RuleId {
        RuleId::CaptureIncomplete
    }

    fn hooks(&self) -> Hooks {
        Hooks::PROBLEMS
    }

    fn check_problems(&self, problems: &[ReadProblem], out: &mut Vec<Finding>) {
        for problem in problems {
            let ReadProblem::Incomplete {
                span,
                message,
                help,
                note,
            } = problem
            else {
                continue;
            };
            let label = if *note {
                "ends here"
            } else {
                "missing from here"
            };
            let mut finding = Finding::new(self.id(), Label::at(*span, label), message.clone())
                .help(help.clone());
            if *note {
                finding = finding.severity(Severity::Info);
            }
            out.push(finding);
        }
    }
}
