//! `retry-new-message-id`: a send retried after a retryable failure with the same content
//! but a new `messageId`, so the agent cannot tell it is a duplicate (A2A §3.3.1).

use crate::finding::Finding;
use crate::protocol::classify::{ErrorView, ExchangeView};
use crate::rules::{Hooks, Rule, RuleId};

pub struct RetryNewMessageId;

impl Rule for RetryNewMessageId {
    fn id(&self) -> RuleId {
        RuleId::RetryNewMessageId
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
        // Only a retry after a retryable failure is reported: without one earlier, there
        // is no need to hash this send's content.
        if !view.earlier_sends.any_retryable() {
            return;
        }
        let (Some(request), Some(record), Some((pointer, _))) =
            (&view.request, view.send_record(errors), view.sent_message())
        else {
            return;
        };
        // The latest earlier send of the same content is the one being retried.
        let Some(earlier) = view.earlier_sends.latest_with(record.content) else {
            return;
        };
        let (Some(why), Some(old_id), Some(new_id)) =
            (earlier.retryable, &earlier.message_id, &record.message_id)
        else {
            return;
        };
        if old_id == new_id {
            return;
        }
        out.push(
            Finding::new(
                self.id(),
                request.label(&format!("{pointer}/messageId"), format!("was \"{old_id}\"")),
                format!(
                    "send retried after {why} (exchange {}) with the same message but a new messageId \"{new_id}\"",
                    earlier.exchange
                ),
            )
            .help(
                "reuse the messageId when retrying a send: it is how an agent detects a duplicate (A2A §3.3.1); \
                 with a new one, the first attempt may already have started a task and the retry starts a second",
            ),
        );
    }
}
