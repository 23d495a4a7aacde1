//! `task-existence-leak`: a task-scoped operation answered with 403 / PERMISSION_DENIED,
//! which tells a caller that a task it may not see exists (A2A §3.3.2, §13.1).

use crate::finding::Finding;
use crate::protocol::classify::{Binding, ErrorView, ExchangeView};
use crate::rules::{Hooks, Rule, RuleId};

pub struct TaskExistenceLeak;

impl Rule for TaskExistenceLeak {
    fn id(&self) -> RuleId {
        RuleId::TaskExistenceLeak
    }

    fn hooks(&self) -> Hooks {
        Hooks::ERRORS
    }

    fn check_errors(
        &self,
        view: &ExchangeView<'_, '_>,
        errors: &[ErrorView<'_>],
        out: &mut Vec<Finding>,
    ) {
        let (Some(operation), Some(response)) = (view.operation, &view.response) else {
            return;
        };
        if !operation.is_task_scoped() {
            return;
        }
        let denied = errors
            .iter()
            .find(|e| e.status() == Some("PERMISSION_DENIED"));
        let label = match (view.binding, denied) {
            // Over gRPC the answer is in the status fields, not the status line.
            (Binding::Grpc, Some(error)) => error.label("/error/code", "reveals the task exists"),
            _ if response.message.status() == Some(403) || denied.is_some() => {
                response.start_line_label("reveals the task exists")
            }
            _ => return,
        };
        let answer = match view.binding {
            Binding::Grpc => "PERMISSION_DENIED",
            _ => "403 / PERMISSION_DENIED",
        };
        out.push(
            Finding::new(
                self.id(),
                label,
                format!("{} on another caller's task is answered with {answer}", operation.method_name()),
            )
            .help(
                "answer TaskNotFoundError (-32001 / HTTP 404 / gRPC NOT_FOUND) for tasks the caller may not access, so \
                 that nobody can probe which task ids exist (A2A §3.3.2 Resource errors, §13.1)",
            ),
        );
    }
}
