//! HTTP/2 step four for gRPC calls: a body is written as its messages in proto3 JSON
//! rather than as protobuf bytes, and the Status of `grpc-status-details-bin` is decoded
//! after the fields that carry it (A2A §10.6).

use std::ops::Range;

use crate::input::capture::model::ReadProblem;
use crate::input::capture::wire::grpc::{is_grpc, render_body, render_status};
use crate::input::capture::wire::h2::streams::{H2Stream, Head, Side};
use crate::input::capture::wire::h2::view::Text;
use crate::input::capture::wire::{Stream, WireGrpc, WireMessage};
use crate::input::source::Span;

const DETAILS: &[u8] = b"grpc-status-details-bin";

/// A stream that is a gRPC call: its request's content type is gRPC's.
pub struct GrpcCall {
    pub path: String,
}

impl GrpcCall {
    pub fn of(stream: &H2Stream) -> Option<GrpcCall> {
        let Some(Head::Fields(block)) = &stream.request.head else {
            return None;
        };
        is_grpc(block.value(b"content-type")?).then(|| GrpcCall {
            path: String::from_utf8_lossy(block.value(b":path").unwrap_or_default()).into_owned(),
        })
    }
}

impl Text {
    /// Writes the body of one side of a gRPC call as its rendered messages, each mapped
    /// to the DATA frames its bytes came in.
    pub fn grpc_body(
        &mut self,
        dir: &Stream,
        side: &Side,
        call: &GrpcCall,
        is_request: bool,
        message: &mut WireMessage,
        inflate_left: &mut usize,
    ) {
        let mut body = Vec::with_capacity(side.data_len);
        for range in &side.data {
            body.extend(dir.bytes.get(range.clone()).unwrap_or_default());
        }
        let encoding = match &side.head {
            Some(Head::Fields(block)) => block.value(b"grpc-encoding").unwrap_or_default(),
            _ => b"",
        };
        let encoding = String::from_utf8_lossy(encoding);
        let rendered = render_body(&body, &call.path, &encoding, is_request, inflate_left);
        let at = self.text.len();
        self.text.extend(&rendered.text);
        let mut grpc = WireGrpc::default();
        let messages = &rendered.messages;
        for (i, m) in messages.iter().enumerate() {
            // The rendering of a message, up to the next one, maps to its bytes, prefix
            // included; the last one's also covers a line about bytes after it.
            let next = messages
                .get(i + 1)
                .map_or(rendered.text.len(), |n| n.text.start);
            let origin = dir.locate(stream_range(&side.data, m.data.clone()));
            self.origin_of(Span::new(at + m.text.start, at + next), origin);
            grpc.messages
                .push((Span::new(at + m.text.start, at + m.text.end), m.json));
        }
        if messages.is_empty() {
            let origin = dir.locate(stream_range(&side.data, 0..body.len()));
            self.origin_of(Span::new(at, self.text.len()), origin);
        }
        for (range, coding, reason) in rendered.problems {
            self.problems.push(ReadProblem::Undecodable {
                header: Span::new(at + range.start, at + range.end - 2),
                coding: coding.to_string(),
                reason,
            });
        }
        message.grpc = Some(grpc);
    }

    /// After the trailers (or, for a trailers-only response, the head): the Status that
    /// `grpc-status-details-bin` carries, decoded.
    pub fn grpc_status(
        &mut self,
        fields: &[crate::input::capture::wire::h2::hpack::Field],
        spans: &[(Span, Span)],
        origin: Option<(u32, Span)>,
        message: &mut WireMessage,
    ) {
        let Some(index) = fields
            .iter()
            .position(|f| f.name.eq_ignore_ascii_case(DETAILS))
        else {
            return;
        };
        let (text, status) = render_status(&fields[index].value, self.true_binary);
        let at = self.text.len();
        self.text.extend(&text);
        self.origin(at, origin, false);
        let grpc = message.grpc.get_or_insert_with(WireGrpc::default);
        match status {
            Ok(json) => grpc.status = Some(Span::new(at + json.start, at + json.end)),
            Err(reason) => self.problems.push(ReadProblem::Undecodable {
                header: spans
                    .get(index)
                    .map_or(Span::new(at, at), |&(_, value)| value),
                coding: "grpc-status-details-bin".into(),
                reason,
            }),
        }
        message.span.end = self.text.len();
    }
}

/// The direction's bytes of `joined`, a range of the DATA payloads joined end to end.
fn stream_range(data: &[Range<usize>], joined: Range<usize>) -> Range<usize> {
    let to_stream = |offset: usize, end: bool| {
        let mut before = 0;
        for range in data {
            let len = range.len();
            let inside = if end {
                offset <= before + len
            } else {
                offset < before + len
            };
            if inside {
                return range.start + (offset - before);
            }
            before += len;
        }
        data.last().map_or(0, |r| r.end)
    };
    let start = to_stream(joined.start, false);
    start..to_stream(joined.end, true).max(start)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joined_offsets_map_into_each_data_payload() {
        let data = [10..15, 24..30];
        assert_eq!(stream_range(&data, 0..5), 10..15);
        assert_eq!(stream_range(&data, 5..11), 24..30);
        assert_eq!(stream_range(&data, 3..8), 13..27);
    }
}
