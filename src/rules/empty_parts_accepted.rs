//! `empty-parts-accepted`: a send whose message has no parts (an empty or missing
//! `parts`) was answered with success, so the server skipped required-field validation
//! (A2A §5.7: a required array MUST hold at least one element).

use serde_json::Value;

use crate::finding::Finding;
use crate::protocol::classify::ExchangeView;
use crate::rules::{Hooks, Rule, RuleId};

pub struct EmptyPartsAccepted;

impl Rule for EmptyPartsAccepted {
    fn id(&self) -> RuleId {
        RuleId::EmptyPartsAccepted
    }

    fn hooks(&self) -> Hooks {
        Hooks::EXCHANGE
    }

    fn check_exchange(&self, view: &ExchangeView<'_, '_>, out: &mut Vec<Finding>) {
        let (Some(request), Some(response), Some((pointer, message))) =
            (&view.request, &view.response, view.sent_message())
        else {
            return;
        };
        let (label, what) = match message.get("parts") {
            Some(Value::Array(parts)) if !parts.is_empty() => return,
            Some(Value::Array(_)) => (
                request.label(&format!("{pointer}/parts"), "no parts"),
                "an empty `parts`",
            ),
            // Not an array: a type error the server should have refused too, but that is
            // a different fault; absent is the same fault as empty (proto3 JSON leaves an
            // empty repeated field out, so over gRPC empty and absent are one thing).
            Some(_) => return,
            None => (request.opening_label(pointer, "no parts"), "no `parts`"),
        };
        if !view.succeeded() {
            return;
        }
        out.push(
            Finding::new(
                self.id(),
                label,
                format!("message with {what} was accepted: the server did not validate a required field"),
            )
            .related(response.outcome_label("success"))
            .help(
                "`Message.parts` is REQUIRED and a required array MUST hold at least one element (A2A §5.7); \
                 reject the request with InvalidParams (-32602 / HTTP 400 / gRPC INVALID_ARGUMENT) naming \
                 `message.parts`",
            ),
        );
    }
}
