//! `missing-message-id-accepted`: a send whose message has no `messageId` was answered
//! with success, so the server skipped required-field validation (A2A §5.7).

use serde_json::Value;

use crate::finding::Finding;
use crate::protocol::classify::ExchangeView;
use crate::rules::{Hooks, Rule, RuleId};

pub struct MissingMessageIdAccepted;

impl Rule for MissingMessageIdAccepted {
    fn id(&self) -> RuleId {
        RuleId::MissingMessageIdAccepted
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
        if message
            .get("messageId")
            .and_then(Value::as_str)
            .is_some_and(|id| !id.is_empty())
        {
            return;
        }
        if !view.succeeded() {
            return;
        }
        out.push(
            Finding::new(
                self.id(),
                request.opening_label(pointer, "no messageId"),
                "message without `messageId` was accepted: the server did not validate a required field",
            )
            .related(response.outcome_label("success"))
            .help(
                "`Message.messageId` is REQUIRED (A2A §5.7); reject the request with InvalidParams (-32602 / HTTP 400 \
                 INVALID_ARGUMENT) naming `message.messageId`, since the id is what makes retries detectable (§3.3.1)",
            ),
        );
    }
}
