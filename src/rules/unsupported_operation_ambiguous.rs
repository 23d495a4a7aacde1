//! `unsupported-operation-ambiguous`: UNSUPPORTED_OPERATION with no metadata saying which
//! of its cases it is.

use serde_json::Value;

use crate::finding::Finding;
use crate::protocol::classify::{ErrorView, ExchangeView};
use crate::rules::{Hooks, Rule, RuleId};

/// ErrorInfo metadata keys that SDKs add to every error (a2a-go, a2a-rust: `timestamp`).
const BOOKKEEPING: [&str; 5] = ["timestamp", "time", "requestId", "traceId", "taskId"];

pub struct UnsupportedOperationAmbiguous;

impl Rule for UnsupportedOperationAmbiguous {
    fn id(&self) -> RuleId {
        RuleId::UnsupportedOperationAmbiguous
    }

    fn hooks(&self) -> Hooks {
        Hooks::ERROR
    }

    fn check_error(
        &self,
        _view: &ExchangeView<'_, '_>,
        error: &ErrorView<'_>,
        out: &mut Vec<Finding>,
    ) {
        if error
            .a2a_error()
            .is_none_or(|e| e.reason != "UNSUPPORTED_OPERATION")
        {
            return;
        }
        // Bookkeeping (a timestamp, a request id) says nothing about which case it is.
        let says_which = error.infos().any(|i| {
            i.metadata
                .and_then(Value::as_object)
                .is_some_and(|m| m.keys().any(|k| !BOOKKEEPING.contains(&k.as_str())))
        });
        if says_which {
            return;
        }
        let label = match error.infos().next() {
            Some(info) => error.label(&info.pointer.to_string(), "no metadata"),
            None => error.label("/error/message", "only the text says why"),
        };
        out.push(
            Finding::new(
                self.id(),
                label,
                "UNSUPPORTED_OPERATION does not say which case it is (streaming off, no extended card, task in a terminal state)",
            )
            .help(
                "add ErrorInfo.metadata naming the case, for example {\"capability\": \"streaming\"} or \
                 {\"taskState\": \"TASK_STATE_COMPLETED\"}; otherwise clients must parse the text or fetch the card \
                 and the task again before deciding what to do (A2A §3.3.4)",
            ),
        );
    }
}
