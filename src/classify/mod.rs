//! The second pipeline stage: turns each exchange into a view that rules read. JSON
//! bodies are decoded here, once; rules never parse bytes.

mod json;
mod media;

pub use json::JsonBody;
pub use media::MediaType;

use crate::capture::{Capture, Exchange, Message, Side};

/// What rules see of one exchange.
#[derive(Debug)]
pub struct ExchangeView<'a, 's> {
    pub exchange: &'a Exchange<'s>,
    pub request: Option<MessageView<'a, 's>>,
    pub response: Option<MessageView<'a, 's>>,
}

impl<'a, 's> ExchangeView<'a, 's> {
    pub fn messages(&self) -> impl Iterator<Item = &MessageView<'a, 's>> {
        self.request.iter().chain(self.response.iter())
    }
}

/// What rules see of one message.
#[derive(Debug)]
pub struct MessageView<'a, 's> {
    pub message: &'a Message<'s>,
    pub side: Side,
    pub media_type: Option<MediaType>,
    pub json: JsonBody,
}

/// Builds the view of every exchange in a capture.
pub fn classify<'a, 's>(capture: &'a Capture<'s>) -> Vec<ExchangeView<'a, 's>> {
    capture
        .exchanges
        .iter()
        .map(|exchange| ExchangeView {
            exchange,
            request: exchange.request.as_ref().map(|m| view(m, Side::Request)),
            response: exchange.response.as_ref().map(|m| view(m, Side::Response)),
        })
        .collect()
}

fn view<'a, 's>(message: &'a Message<'s>, side: Side) -> MessageView<'a, 's> {
    let media_type = MediaType::of(message);
    let declared_json = media_type.as_ref().is_some_and(MediaType::is_json);
    let json = JsonBody::decode(message.body.bytes(), declared_json);
    MessageView {
        message,
        side,
        media_type,
        json,
    }
}
