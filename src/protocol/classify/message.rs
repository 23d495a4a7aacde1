//! The view of one message: its media type, its JSON (the body, each server-sent event,
//! or each gRPC message), the credentials its body holds, and a gRPC response's status.

use crate::input::capture::{Event, Message, Side, parse_events};
use crate::protocol::classify::{GrpcStatusView, JsonBody, MediaType, Payloads, grpc};

/// What rules see of one message.
#[derive(Debug)]
pub struct MessageView<'a, 's> {
    pub message: &'a Message<'s>,
    pub exchange_index: usize,
    pub side: Side,
    pub media_type: Option<MediaType>,
    pub json: JsonBody,
    /// For a `text/event-stream` body: its events, each with its data decoded as JSON.
    pub events: Vec<EventView<'a>>,
    /// Credentials stored in the decoded body (JWTs, credential JSON members), as ranges
    /// of it; found here once for `secret-in-capture`.
    pub body_secrets: Vec<std::ops::Range<usize>>,
    /// For a gRPC response: the status fields and the Status they carry.
    pub grpc_status: Option<GrpcStatusView<'a>>,
}

/// One server-sent event and its data read as JSON (A2A §9.4.2, §11.7).
#[derive(Debug)]
pub struct EventView<'a> {
    pub event: Event<'a>,
    pub json: JsonBody,
}

pub(super) fn view<'a, 's>(
    message: &'a Message<'s>,
    exchange_index: usize,
    side: Side,
    payloads: Payloads,
    server_streaming: bool,
) -> MessageView<'a, 's> {
    let media_type = MediaType::of(message);
    let declared_json = media_type.as_ref().is_some_and(MediaType::is_json);
    let is_stream = media_type
        .as_ref()
        .is_some_and(|m| m.essence == "text/event-stream");
    // A success response's payloads are read by no rule: they are checked, not built.
    let payloads = match message.status() {
        Some(200..=299) => payloads,
        _ => Payloads::Full,
    };
    let cut = message.body.cut;
    let (json, events) = match message.body.bytes() {
        // gRPC bodies are their messages as JSON, one document each (A2A §10.5).
        Some(_) if message.grpc.is_some() && server_streaming => {
            (JsonBody::Absent, grpc::stream_messages(message, payloads))
        }
        Some(_) if message.grpc.is_some() => (grpc::first_message(message, payloads), Vec::new()),
        Some(bytes) if is_stream => (JsonBody::Absent, stream_events(bytes, cut, payloads)),
        // Half a document says nothing about the agent; the reader has noted the cut.
        Some(_) if cut => (JsonBody::Absent, Vec::new()),
        bytes => (JsonBody::decode(bytes, declared_json, payloads), Vec::new()),
    };
    MessageView {
        message,
        exchange_index,
        side,
        media_type,
        json,
        events,
        body_secrets: message
            .body
            .bytes()
            .map(crate::input::secrets::find_in_text)
            .unwrap_or_default(),
        grpc_status: match side {
            Side::Response if message.grpc.is_some() => GrpcStatusView::read(message),
            _ => None,
        },
    }
}

/// The events of a stream; each event's data is a JSON document in both bindings.
/// Streams longer than this many events are checked up to it: decoding every event of a
/// hostile multi-gigabyte stream would cost time and memory for nothing.
pub const MAX_STREAM_EVENTS: usize = 100_000;

/// The events of a stream body, each read as JSON. In a `cut` body the event after the
/// last blank line is half an event (the connection closed inside it): it is not judged.
fn stream_events(body: &[u8], cut: bool, payloads: Payloads) -> Vec<EventView<'_>> {
    parse_events(body)
        .into_iter()
        .filter(|event| event.complete || !cut)
        .take(MAX_STREAM_EVENTS)
        .map(|event| {
            let json = JsonBody::decode(Some(&event.data), true, payloads);
            EventView { event, json }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::capture::read_http;

    fn data(events: &[EventView<'_>]) -> Vec<String> {
        events
            .iter()
            .map(|e| String::from_utf8_lossy(&e.event.data).into_owned())
            .collect()
    }

    #[test]
    fn a_cut_stream_drops_only_its_half_event() {
        let body = b"data: {\"a\":1}\n\ndata: not json\n\ndata: {\"b\":";
        let whole = stream_events(body, false, Payloads::Full);
        assert_eq!(data(&whole), ["{\"a\":1}", "not json", "{\"b\":"]);
        let cut = stream_events(body, true, Payloads::Full);
        assert_eq!(data(&cut), ["{\"a\":1}", "not json"]);
        assert!(matches!(cut[1].json, JsonBody::Invalid { .. }));
    }

    #[test]
    fn a_cut_body_is_not_read_as_a_json_document() {
        let src = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{\"a\":\r\n";
        let capture = read_http(src);
        let message = capture.exchanges[0].response.as_ref().unwrap();
        assert!(message.body.cut);
        let view = view(message, 0, Side::Response, Payloads::Full, false);
        assert!(matches!(view.json, JsonBody::Absent));
    }
}
