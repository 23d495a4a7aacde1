//! Plans the edits that redact a pcap or pcapng capture: every credential byte in a
//! packet is replaced by `*` in place, so lengths, TCP sequence numbers and the framing
//! of every message stay as they were.

use std::ops::Range;

use crate::capture::wire::{TextOrigin, WireExchange, read_pcap};
use crate::capture::{Exchange, HttpReader, Message, Origin, map_pieces};
use crate::redact::edit::Edit;
use crate::secrets;
use crate::source::Span;

/// The edits that redact `file`, or why it cannot be redacted without changing what a
/// reader would decode (then nothing is changed).
pub fn plan(file: &[u8]) -> Result<Vec<Edit>, String> {
    let mut edits = Vec::new();
    let mut refusal: Option<String> = None;
    read_pcap(file, &mut |wire| {
        if refusal.is_some() {
            return;
        }
        let result = match wire.http2_exchange() {
            Some(exchange) => plan_exchange(&wire, &exchange, &mut edits),
            None => HttpReader::new(&wire.text)
                .try_for_each(|exchange| plan_exchange(&wire, &exchange, &mut edits)),
        };
        if let Err(why) = result {
            refusal = Some(why);
        }
    });
    match refusal {
        Some(why) => Err(why),
        None => Ok(edits),
    }
}

fn plan_exchange(
    wire: &WireExchange,
    exchange: &Exchange<'_>,
    edits: &mut Vec<Edit>,
) -> Result<(), String> {
    for message in exchange.request.iter().chain(&exchange.response) {
        let fields = message.headers.iter().chain(&message.trailers);
        for header in fields {
            if secrets::is_credential_header(header.name) && !secrets::is_placeholder(header.value)
            {
                mask(wire, header.value_span, edits)
                    .map_err(|frame| hpack_refusal(wire, frame, header.name))?;
            }
        }
        plan_body(wire, message, edits)?;
    }
    Ok(())
}

fn plan_body(
    wire: &WireExchange,
    message: &Message<'_>,
    edits: &mut Vec<Edit>,
) -> Result<(), String> {
    let Some(content) = &message.body.content else {
        return Ok(());
    };
    for found in secrets::find_in_text(&content.bytes) {
        let span = Span::new(found.start, found.end);
        let text = match &content.origin {
            Origin::Verbatim { start } => span.shift(*start),
            Origin::Chunked(pieces) => {
                // Masked piece by piece: a secret may straddle two chunks.
                for piece in pieces {
                    let from = found.start.max(piece.decoded);
                    let to = found.end.min(piece.decoded + piece.len);
                    if from < to {
                        let start = map_pieces(pieces, from, false);
                        mask(wire, Span::new(start, start + (to - from)), edits)
                            .map_err(|frame| hpack_refusal(wire, frame, "body"))?;
                    }
                }
                continue;
            }
            Origin::Decoded => {
                return Err(format!(
                    "exchange {} holds a credential inside a compressed body; a2alint \
                     cannot replace it in a pcap without changing the packets' lengths",
                    wire.index
                ));
            }
        };
        mask(wire, text, edits).map_err(|frame| hpack_refusal(wire, frame, "body"))?;
    }
    Ok(())
}

/// Masks text span `span` of `wire`'s view in the file; `Err(frame)` when the bytes are
/// not in the file as they are shown (an HPACK-coded header).
fn mask(wire: &WireExchange, span: Span, edits: &mut Vec<Edit>) -> Result<(), u32> {
    for origin in overlapping(&wire.origins, span) {
        if !origin.exact {
            return Err(origin.frame);
        }
        let from = span.start.max(origin.text.start);
        let to = span.end.min(origin.text.end);
        let file: Range<usize> = origin.file.start + (from - origin.text.start)
            ..origin.file.start + (to - origin.text.start);
        edits.push(Edit::new(file.clone(), vec![b'*'; file.len()]));
    }
    Ok(())
}

fn overlapping(origins: &[TextOrigin], span: Span) -> impl Iterator<Item = &TextOrigin> {
    let first = origins.partition_point(|o| o.text.end <= span.start);
    origins[first..]
        .iter()
        .take_while(move |o| o.text.start < span.end)
}

fn hpack_refusal(wire: &WireExchange, frame: u32, what: &str) -> String {
    let stream = wire
        .stream
        .map_or(String::new(), |s| format!(", stream {s}"));
    format!(
        "frame {frame}{stream} carries `{what}` HPACK-coded; a2alint cannot yet replace a \
         credential inside an HTTP/2 header block without breaking both peers' header \
         tables, so this file was left unchanged"
    )
}
