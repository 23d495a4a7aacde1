//! `stream-closed-early`: a task's stream the agent ended before the task settled. A
//! stream carries its task to a terminal state, or to an interrupted one (A2A §3.1.2,
//! §3.1.6, §11.7); one that stops while the task is still submitted or working, or that
//! ends by saying the task it has just delivered does not exist, leaves the client with no
//! outcome. Under `tck` a subscription must end at a terminal state, as the test kit's
//! STREAM-SUB-002 asks.

use serde_json::Value;

use crate::finding::Finding;
use crate::protocol::classify::{
    Binding, ErrorView, EventView, ExchangeView, Generation, Operation,
};
use crate::protocol::profile::Profile;
use crate::rules::{Hooks, Rule, RuleId};

pub struct StreamClosedEarly;

const TERMINAL: [&str; 4] = [
    "TASK_STATE_COMPLETED",
    "TASK_STATE_FAILED",
    "TASK_STATE_CANCELED",
    "TASK_STATE_REJECTED",
];
const INTERRUPTED: [&str; 2] = ["TASK_STATE_INPUT_REQUIRED", "TASK_STATE_AUTH_REQUIRED"];

impl Rule for StreamClosedEarly {
    fn id(&self) -> RuleId {
        RuleId::StreamClosedEarly
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
        let (Some(response), Some(operation)) = (&view.response, view.operation) else {
            return;
        };
        let streaming = operation.is_streaming();
        if !streaming || view.generation == Generation::V0_3 || !ended_by_agent(view) {
            return;
        }
        // The state the stream left its task in, from the last event that says one (a
        // hollow payload keeps its `status.state`, `json_skim`).
        let last = (response.events.iter().enumerate())
            .filter_map(|(i, event)| state_of(view.binding, event).map(|s| (i, s)))
            .next_back();
        let Some((last_at, state)) = last else {
            return;
        };
        if let Some(error) = errors.iter().find(|e| e.reason() == Some("TASK_NOT_FOUND")) {
            let message = format!(
                "the stream delivered its task ({state}), then ended saying the task does not exist"
            );
            out.push(
                Finding::new(self.id(), error.label("/error/code", "TASK_NOT_FOUND"), message)
                    .help(
                        "a stream follows one task to its end (A2A §3.1.2, §3.1.6): send the updates that \
                         take it to a terminal or interrupted state; TaskNotFoundError is for a task the \
                         caller cannot see, and this caller has just been shown it",
                    ),
            );
            return;
        }
        // An error ends the stream, well-formed or not (`rest-error-shape` and
        // `stream-event-shape` judge its form): an `error` event, an `error` member, or a
        // bare JSON-RPC error object (`code` and `message`, as a2a-rust sends over HTTP+JSON).
        let error_event = |e: &EventView<'_>| {
            let bare = |j: &Value| {
                j.get("code").is_some() && j.get("message").is_some_and(Value::is_string)
            };
            e.event.kind == Some("error")
                || e.json
                    .value()
                    .is_some_and(|j| j.get("error").is_some() || bare(j))
        };
        if !errors.is_empty() || response.events.iter().any(error_event) {
            return;
        }
        let kit_subscription =
            view.profile == Profile::Tck && operation == Operation::SubscribeToTask;
        let settled =
            TERMINAL.contains(&state) || (!kit_subscription && INTERRUPTED.contains(&state));
        if settled {
            return;
        }
        let event = &response.events[last_at];
        let label = response
            .doc(Some(&event.event))
            .label("", format!("last state: {state}"));
        let (message, help) = if kit_subscription && INTERRUPTED.contains(&state) {
            (
                format!(
                    "the subscription ended at {state}; a2a-tck expects its last event to carry a terminal state"
                ),
                "the test kit's STREAM-SUB-002 (test_subscribe_terminates_at_terminal_state) keeps a \
                 subscription open until the task is terminal; A2A §11.7 also lets a stream close at an \
                 interrupted state, so only the tck profile reports this",
            )
        } else {
            (
                format!("the stream ended while its task was still {state}"),
                "keep the stream open until the task reaches a terminal or interrupted state (A2A §3.1.2, \
                 §3.1.6, §11.7); a client that saw the stream end has no outcome and must poll GetTask",
            )
        };
        out.push(Finding::new(self.id(), label, message).help(help));
    }
}

/// Did the agent end the stream? Over gRPC its status came; over HTTP the body was read
/// to its end (a capture that stopped mid-stream says nothing of the agent).
fn ended_by_agent(view: &ExchangeView<'_, '_>) -> bool {
    let Some(response) = view.response.as_ref() else {
        return false;
    };
    match view.binding {
        Binding::Grpc => response.grpc_status.is_some(),
        _ => !response.message.body.cut,
    }
}

/// The task state an event carries: its Task's or its status update's. Read member by
/// member: a JSON pointer would be parsed (and its tokens unescaped) for every event.
fn state_of<'e>(binding: Binding, event: &'e EventView<'_>) -> Option<&'e str> {
    let data = event.json.value()?;
    let response = match binding {
        Binding::JsonRpc => data.get("result")?,
        _ => data,
    };
    let status_of = |payload: &str| response.get(payload).and_then(|p| p.get("status"));
    let status = status_of("task").or_else(|| status_of("statusUpdate"))?;
    status.get("state")?.as_str()
}
