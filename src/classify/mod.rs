//! The second pipeline stage: turns each exchange into a view that rules read. JSON
//! bodies are decoded here, once; rules never parse bytes.

mod json;
mod media;

pub use json::JsonBody;
pub use media::MediaType;

use crate::capture::{Exchange, Message, Side};

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

/// Builds the view of one exchange. Views are built and dropped one at a time, so decoded
/// JSON never accumulates over a large capture.
pub fn classify<'a, 's>(exchange: &'a Exchange<'s>) -> ExchangeView<'a, 's> {
    ExchangeView {
        exchange,
        request: exchange.request.as_ref().map(|m| view(m, Side::Request)),
        response: exchange.response.as_ref().map(|m| view(m, Side::Response)),
    }
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
