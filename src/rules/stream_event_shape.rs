//! `stream-event-shape`: a stream event that is neither a JSON-RPC response carrying the
//! request's id (JSON-RPC) nor a StreamResponse or error Status (HTTP+JSON).

use serde_json::Value;

use crate::finding::Finding;
use crate::protocol::classify::{Binding, ExchangeView, RequestId};
use crate::rules::{Hooks, Rule, RuleId};

pub struct StreamEventShape;

/// The members of a StreamResponse, of which exactly one is set (A2A §3.2.3).
const PAYLOADS: [&str; 4] = ["task", "message", "statusUpdate", "artifactUpdate"];

impl Rule for StreamEventShape {
    fn id(&self) -> RuleId {
        RuleId::StreamEventShape
    }

    fn hooks(&self) -> Hooks {
        Hooks::EXCHANGE
    }

    fn check_exchange(&self, view: &ExchangeView<'_, '_>, out: &mut Vec<Finding>) {
        let Some(response) = &view.response else {
            return;
        };
        let request_id = view.rpc().and_then(|rpc| match rpc.id {
            RequestId::Readable(id) => Some(id.clone()),
            _ => None,
        });
        if response.events.len() == crate::protocol::classify::MAX_STREAM_EVENTS
            && let Some(last) = response.events.last()
        {
            out.push(
                Finding::new(
                    self.id(),
                    response.doc(Some(&last.event)).opening_label("", "checked up to here"),
                    format!("stream has more than {} events; only those were checked", crate::protocol::classify::MAX_STREAM_EVENTS),
                )
                .help("a stream this long is unusual for one A2A operation; split the capture to have all of it checked"),
            );
        }
        for event in &response.events {
            let Some(data) = event.json.value() else {
                continue;
            };
            let doc = response.doc(Some(&event.event));
            let problem = match view.binding {
                Binding::JsonRpc => jsonrpc_problem(data, request_id.as_ref()),
                Binding::HttpJson => http_json_problem(data),
                // A server-stream message decoded as StreamResponse can hold at most one
                // payload (a oneof), but none is possible: an empty message.
                Binding::Grpc => http_json_problem(data),
                _ => return,
            };
            if let Some((pointer, message)) = problem {
                out.push(
                    Finding::new(self.id(), doc.opening_label(pointer, "this event"), format!("event {} {message}", event.event.index + 1))
                        .help(match view.binding {
                            Binding::JsonRpc => "every event of a JSON-RPC stream is a full response: {\"jsonrpc\": \"2.0\", \"id\": <request id>, \"result\": <StreamResponse>} or an error (A2A §9.4.2)",
                            Binding::Grpc => "every message of a server-streaming call is a StreamResponse with one of task, message, statusUpdate, artifactUpdate set (A2A §3.2.3, §10.5); errors end the call in its status",
                            _ => "every event of an HTTP+JSON stream is a StreamResponse with exactly one of task, message, statusUpdate, artifactUpdate (A2A §3.2.3, §11.7), or an error {\"error\": {...}}",
                        }),
                );
            }
        }
    }
}

fn jsonrpc_problem(data: &Value, request_id: Option<&Value>) -> Option<(&'static str, String)> {
    let Some(object) = data.as_object() else {
        return Some(("", "is not a JSON-RPC response object".into()));
    };
    if object.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return Some((
            "",
            "is not a JSON-RPC response: `jsonrpc` is not \"2.0\"".into(),
        ));
    }
    if object.contains_key("result") == object.contains_key("error") {
        return Some(("", "needs exactly one of `result` and `error`".into()));
    }
    match (object.get("id"), request_id) {
        (Some(id), Some(expected)) if id != expected => Some((
            "/id",
            format!("has id {id}, but the request id is {expected}"),
        )),
        (None, Some(expected)) => Some(("", format!("has no id; the request id is {expected}"))),
        _ => None,
    }
}

fn http_json_problem(data: &Value) -> Option<(&'static str, String)> {
    let Some(object) = data.as_object() else {
        return Some(("", "is not a JSON object".into()));
    };
    if object.contains_key("error") {
        // An error event; its shape is `rest-error-shape`'s business.
        return None;
    }
    let present: Vec<&str> = PAYLOADS
        .iter()
        .copied()
        // A payload is an object: `"message": "text"` is an error's text, not a Message.
        .filter(|p| object.get(*p).is_some_and(Value::is_object))
        .collect();
    match present.as_slice() {
        [_] => None,
        [] if object.contains_key("jsonrpc") => {
            Some(("", "is a JSON-RPC envelope on the HTTP+JSON binding".into()))
        }
        [] if object.contains_key("kind") => Some((
            "",
            "is an A2A 0.3 event (`kind`), not a StreamResponse".into(),
        )),
        [] => Some((
            "",
            "has none of task, message, statusUpdate, artifactUpdate".into(),
        )),
        many => Some((
            "",
            format!(
                "sets {} of task, message, statusUpdate, artifactUpdate; exactly one is allowed",
                many.join(" and ")
            ),
        )),
    }
}
