//! Labels on what a message holds: a JSON member of its body or of one stream event
//! (found lazily with the pointer locator), its start line, a header.

use crate::input::capture::{Content, Event, Header, Side};
use crate::input::json_span;
use crate::input::source::Label;
use crate::input::source::Span;
use crate::protocol::classify::MessageView;

/// A JSON document of a message, the body or one event's data, that labels point into.
#[derive(Clone, Copy, Debug)]
pub struct Doc<'v> {
    exchange_index: usize,
    side: Side,
    content: Option<&'v Content<'v>>,
    event: Option<&'v Event<'v>>,
    start_line: Span,
    raw: Span,
    /// Where the document sits in its message, for the label's member name: empty for
    /// the body, `/grpc-status-details-bin` for a gRPC Status.
    member_prefix: &'static str,
}

impl Doc<'_> {
    /// A document with no bytes behind it, for tests of what reads errors.
    #[cfg(test)]
    pub(crate) fn detached() -> Doc<'static> {
        Doc {
            exchange_index: 0,
            side: Side::Response,
            content: None,
            event: None,
            start_line: Span::default(),
            raw: Span::default(),
            member_prefix: "",
        }
    }

    /// A label on the value at `pointer`; on the document as a whole when it is absent.
    pub fn label(&self, pointer: &str, text: impl Into<String>) -> Label {
        self.locate(pointer, json_span::locate_value, text)
    }

    /// A label on the member name at `pointer` (`"data"` rather than its value).
    pub fn key_label(&self, pointer: &str, text: impl Into<String>) -> Label {
        self.locate(pointer, json_span::locate_key, text)
    }

    /// A label on the first byte of the value at `pointer`: the `{` of an object that
    /// lacks a member, say.
    pub fn opening_label(&self, pointer: &str, text: impl Into<String>) -> Label {
        let first_byte = |json: &[u8], pointer: &str| {
            json_span::locate_value(json, pointer)
                .map(|s| Span::new(s.start, (s.start + 1).min(s.end)))
        };
        self.locate(pointer, first_byte, text)
    }

    /// Is this an event of a stream rather than a whole body?
    pub fn in_stream(&self) -> bool {
        self.event.is_some()
    }

    fn locate(
        &self,
        pointer: &str,
        find: fn(&[u8], &str) -> Option<Span>,
        text: impl Into<String>,
    ) -> Label {
        let side = self.side.name();
        // Joined rather than formatted: every label of a finding is named so.
        let member = match self.event {
            Some(event) => format!("{side}/events/{}{pointer}", event.index),
            None => [side, self.member_prefix, pointer].concat(),
        };
        let Some(content) = self.content else {
            return Label::at(self.start_line, text).member(member);
        };
        let (bytes, whole): (&[u8], Span) = match self.event {
            Some(event) => (&event.data, event.span),
            None => (&content.bytes, Span::new(0, content.bytes.len())),
        };
        let span = match (find(bytes, pointer), self.event) {
            (Some(span), Some(event)) => event.body_span(span),
            (Some(span), None) => span,
            (None, _) if self.event.is_none() => return Label::at(self.raw, text).member(member),
            (None, _) => whole,
        };
        Label::in_body(self.exchange_index, self.side, content, span, text).member(member)
    }
}

impl<'a> MessageView<'a, '_> {
    /// The message body, or one of its stream events, as a document to label.
    pub fn doc<'v>(&'v self, event: Option<&'v Event<'v>>) -> Doc<'v> {
        Doc {
            exchange_index: self.exchange_index,
            side: self.side,
            content: self.message.body.content.as_ref(),
            event,
            start_line: self.message.start_line_span,
            raw: self.message.body.raw,
            member_prefix: "",
        }
    }

    /// The `google.rpc.Status` decoded from a gRPC response's `grpc-status-details-bin`,
    /// as a document to label.
    pub fn status_doc(&self) -> Doc<'_> {
        let status = self.message.grpc.as_ref().and_then(|g| g.status.as_ref());
        let raw = status.map_or(self.message.body.raw, |c| match c.origin {
            crate::input::capture::Origin::Verbatim { start } => {
                Span::new(start, start + c.bytes.len())
            }
            _ => self.message.body.raw,
        });
        Doc {
            exchange_index: self.exchange_index,
            side: self.side,
            content: status,
            event: None,
            start_line: self.message.start_line_span,
            raw,
            member_prefix: "/grpc-status-details-bin",
        }
    }

    /// The error a gRPC response's status fields carry.
    pub fn grpc_error(&self) -> Option<crate::protocol::classify::ErrorView<'_>> {
        let status = self.grpc_status.as_ref()?;
        let http = self.message.status().unwrap_or(200);
        crate::protocol::classify::ErrorView::read_grpc(status, http, self.status_doc())
    }

    /// A label on the JSON member at `pointer` of this message's body; on the body (or the
    /// start line, for a message without one) when the member is absent.
    pub fn label(&self, pointer: &str, text: impl Into<String>) -> Label {
        self.doc(None).label(pointer, text)
    }

    /// A label on the member name at `pointer` (`"data"` rather than its value).
    pub fn key_label(&self, pointer: &str, text: impl Into<String>) -> Label {
        self.doc(None).key_label(pointer, text)
    }

    /// A label on the first byte of the value at `pointer`.
    pub fn opening_label(&self, pointer: &str, text: impl Into<String>) -> Label {
        self.doc(None).opening_label(pointer, text)
    }

    /// A label on the start line (`HTTP/1.1 404 Not Found`).
    pub fn start_line_label(&self, text: impl Into<String>) -> Label {
        Label::at(self.message.start_line_span, text)
            .member([self.side.name(), "/start-line"].concat())
    }

    /// A label on what says how a response ended: over gRPC its `grpc-status` field, else
    /// its start line.
    pub fn outcome_label(&self, text: impl Into<String>) -> Label {
        match &self.grpc_status {
            Some(grpc) => Label::at(grpc.status.value_span, text)
                .member([self.side.name(), "/trailer/grpc-status"].concat()),
            None => self.start_line_label(text),
        }
    }

    pub fn header(&self, name: &str) -> Option<&Header<'_>> {
        self.message.header(name)
    }
}
