//! `stream-event-order`: a stream that sends a Task again in its middle. A stream
//! starts with the Task (or a single Message), then carries status and artifact
//! updates (A2A §3.1.2, §3.1.6); a final Task snapshot may close it (§11.7), but a Task
//! between updates makes a client replace the state it has built from them.

use serde_json::Value;

use crate::finding::Finding;
use crate::protocol::classify::{Binding, EventView, ExchangeView, Generation};
use crate::rules::{Hooks, Rule, RuleId};

pub struct StreamEventOrder;

impl Rule for StreamEventOrder {
    fn id(&self) -> RuleId {
        RuleId::StreamEventOrder
    }

    fn hooks(&self) -> Hooks {
        Hooks::EXCHANGE
    }

    fn check_exchange(&self, view: &ExchangeView<'_, '_>, out: &mut Vec<Finding>) {
        let (Some(response), Some(operation)) = (&view.response, view.operation) else {
            return;
        };
        // 0.3 streams used `kind` and had other rules.
        let streaming = operation.is_streaming();
        if !streaming || view.generation == Generation::V0_3 {
            return;
        }
        let payloads: Vec<Option<&str>> = (response.events.iter())
            .map(|event| payload_of(view.binding, event))
            .collect();
        let last = payloads.len().saturating_sub(1);
        // The first event is the Task (or Message); the last may be a final snapshot.
        for (i, payload) in payloads.iter().enumerate().skip(1) {
            if *payload != Some("task") || i == last {
                continue;
            }
            let event = &response.events[i];
            let pointer = match view.binding {
                Binding::JsonRpc => "/result/task",
                _ => "/task",
            };
            out.push(
                Finding::new(
                    self.id(),
                    response.doc(Some(&event.event)).key_label(pointer, "a Task again"),
                    format!(
                        "event {} of the stream is a Task again, between updates (events 1 to {} before it)",
                        i + 1,
                        i
                    ),
                )
                .help(
                    "send the Task once, first, then only statusUpdate and artifactUpdate events (A2A §3.1.2); \
                     a client that receives a Task mid-stream replaces the state it has built from the updates",
                ),
            );
        }
    }
}

/// Which StreamResponse payload an event carries: `task`, `message`, `statusUpdate` or
/// `artifactUpdate`; JSON-RPC events carry it in `result`.
fn payload_of(binding: Binding, event: &EventView<'_>) -> Option<&'static str> {
    let data = event.json.value()?;
    let response = match binding {
        Binding::JsonRpc => data.get("result")?,
        _ => data,
    };
    let object = response.as_object()?;
    ["task", "message", "statusUpdate", "artifactUpdate"]
        .into_iter()
        .find(|p| object.get(*p).is_some_and(Value::is_object))
}
