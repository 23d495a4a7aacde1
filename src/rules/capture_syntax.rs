//! `capture-syntax`: bytes that should be an HTTP/1.x message but cannot be read as one.

use crate::capture::{Capture, ReadProblem};
use crate::finding::{Finding, Label};
use crate::rules::{Rule, RuleId};

pub struct CaptureSyntax;

impl Rule for CaptureSyntax {
    fn id(&self) -> RuleId {
        RuleId::CaptureSyntax
    }

    fn check_capture(&self, capture: &Capture<'_>, out: &mut Vec<Finding>) {
        for problem in &capture.problems {
            if let ReadProblem::Syntax {
                span,
                message,
                help,
            } = problem
            {
                let finding =
                    Finding::new(self.id(), Label::at(*span, "cannot read this"), message).help(
                        format!(
                            "{help}; a2alint skipped to the next `###` separator or start line"
                        ),
                    );
                out.push(finding);
            }
        }
    }
}
