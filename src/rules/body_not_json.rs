//! `body-not-json`: a body whose `Content-Type` is JSON but which is not valid JSON.

use crate::finding::Finding;
use crate::input::source::Label;
use crate::protocol::classify::{ExchangeView, JsonBody};
use crate::rules::{Hooks, Rule, RuleId};

pub struct BodyNotJson;

impl Rule for BodyNotJson {
    fn id(&self) -> RuleId {
        RuleId::BodyNotJson
    }

    fn hooks(&self) -> Hooks {
        Hooks::EXCHANGE
    }

    fn check_exchange(&self, view: &ExchangeView<'_, '_>, out: &mut Vec<Finding>) {
        for message in view.messages() {
            let (JsonBody::Invalid { at, reason }, Some(media_type)) =
                (&message.json, &message.media_type)
            else {
                continue;
            };
            let Some(content) = &message.message.body.content else {
                continue;
            };
            if !media_type.is_json() {
                continue;
            }
            let primary = Label::in_body(
                view.exchange.index,
                message.side,
                content,
                *at,
                reason.clone(),
            );
            out.push(
                Finding::new(
                    self.id(),
                    primary,
                    format!(
                        "{} body is declared `{}` but is not valid JSON: {reason}",
                        message.side.name(),
                        media_type.essence
                    ),
                )
                .related(Label::at(media_type.span, "declared here"))
                .help("send valid JSON, or a Content-Type that matches the body"),
            );
        }
    }
}
