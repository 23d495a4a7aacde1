//! `stream-event-not-json`: an SSE `data:` payload in an A2A stream that is not JSON.

use crate::finding::Finding;
use crate::input::source::Label;
use crate::protocol::classify::{ExchangeView, JsonBody};
use crate::rules::{Hooks, Rule, RuleId};

pub struct StreamEventNotJson;

impl Rule for StreamEventNotJson {
    fn id(&self) -> RuleId {
        RuleId::StreamEventNotJson
    }

    fn hooks(&self) -> Hooks {
        Hooks::EXCHANGE
    }

    fn check_exchange(&self, view: &ExchangeView<'_, '_>, out: &mut Vec<Finding>) {
        let (true, Some(response)) = (view.is_a2a_operation(), &view.response) else {
            return;
        };
        let Some(content) = &response.message.body.content else {
            return;
        };
        for event in &response.events {
            let JsonBody::Invalid { at, reason } = &event.json else {
                continue;
            };
            let span = event.event.body_span(*at);
            out.push(
                Finding::new(
                    self.id(),
                    Label::in_body(response.exchange_index, response.side, content, span, reason.clone())
                        .member(format!("response/events/{}", event.event.index)),
                    format!("event {} of the stream is not JSON: {reason}", event.event.index + 1),
                )
                .help("each `data:` of an A2A stream carries one JSON document (A2A §9.4.2, §11.7); clients drop or choke on anything else"),
            );
        }
    }
}
