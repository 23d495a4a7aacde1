//! `rest-error-shape`: an HTTP+JSON error whose JSON body is not a `google.rpc.Status`
//! wrapper (A2A §11.6).

use serde_json::Value;

use crate::finding::Finding;
use crate::input::source::Label;
use crate::protocol::classify::{Doc, ExchangeView, problem_members};
use crate::rules::{Hooks, Rule, RuleId};

pub struct RestErrorShape;

const HELP: &str = "HTTP+JSON errors are {\"error\": {\"code\": <HTTP status>, \"status\": \"<google.rpc.Code>\", \
                    \"message\": \"...\", \"details\": [{\"@type\": \"type.googleapis.com/google.rpc.ErrorInfo\", ...}]}} \
                    (A2A §11.6, AIP-193)";

impl Rule for RestErrorShape {
    fn id(&self) -> RuleId {
        RuleId::RestErrorShape
    }

    fn hooks(&self) -> Hooks {
        Hooks::EXCHANGE
    }

    fn check_exchange(&self, view: &ExchangeView<'_, '_>, out: &mut Vec<Finding>) {
        let Some(response) = &view.response else {
            return;
        };
        // problem+json bodies are `problem-json-error`'s.
        if response
            .media_type
            .as_ref()
            .is_some_and(|m| m.essence == "application/problem+json")
        {
            return;
        }
        for (doc, body) in view.rest_error_documents() {
            if !problem_members(body).is_empty() {
                continue;
            }
            for (label, message) in shape_problems(&doc, body) {
                out.push(Finding::new(self.id(), label, message).help(HELP));
            }
        }
    }
}

fn shape_problems(response: &Doc<'_>, body: &Value) -> Vec<(Label, String)> {
    let Some(object) = body.as_object() else {
        return vec![(
            response.label("", "not an object"),
            "HTTP+JSON error body is not a JSON object".into(),
        )];
    };
    let error = match object.get("error") {
        Some(Value::Object(error)) => error,
        Some(Value::String(_)) => {
            return vec![(
                response.label("/error", "a string"),
                "HTTP+JSON error body has `error` as a string; expected a google.rpc.Status object"
                    .into(),
            )];
        }
        Some(_) => {
            return vec![(
                response.label("/error", "not an object"),
                "HTTP+JSON `error` is not an object".into(),
            )];
        }
        None => {
            let what = if object.contains_key("jsonrpc") {
                "is a JSON-RPC envelope, not a google.rpc.Status wrapper"
            } else if object
                .get("code")
                .is_some_and(|c| c.as_i64().is_some_and(|c| c < 0))
                && object.contains_key("message")
            {
                "is a bare JSON-RPC error object, not a google.rpc.Status wrapper"
            } else {
                "has no `error` object"
            };
            return vec![(
                response.opening_label("", "no `error` object"),
                format!("HTTP+JSON error body {what}"),
            )];
        }
    };
    let mut problems = Vec::new();
    for member in ["code", "message"] {
        if !error.contains_key(member) {
            problems.push((
                response.opening_label("/error", format!("no `{member}`")),
                format!("HTTP+JSON `error` has no `{member}`"),
            ));
        }
    }
    if error.get("details").is_some_and(|d| !d.is_array()) {
        problems.push((
            response.label("/error/details", "not an array"),
            "HTTP+JSON `error.details` is not an array".into(),
        ));
    }
    problems
}
