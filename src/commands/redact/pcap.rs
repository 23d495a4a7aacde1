//! Plans the edits that redact a pcap or pcapng capture: every credential byte in a
//! packet is replaced by `*` in place, so lengths, TCP sequence numbers and the framing
//! of every message stay as they were. An HTTP/2 header value is replaced where HPACK
//! coded it, by a placeholder of the same decoded and coded length, so both peers'
//! dynamic tables keep their sizes (RFC 7541 §4.1) and every later field decodes as before.

use std::ops::Range;

use crate::commands::redact::edit::Edit;
use crate::input::capture::wire::h2::{LiteralField, placeholder};
use crate::input::capture::wire::{
    TextOrigin, WireExchange, frame_offsets, payload_copies, read_pcap_literals,
};
use crate::input::capture::{Exchange, HttpReader, Message, Origin, map_pieces};
use crate::input::secrets;
use crate::input::source::Span;

/// The edits that redact `file` and how many credentials they replace, or why it
/// cannot be redacted without changing what a reader would decode (then nothing is
/// changed).
pub fn plan(file: &[u8]) -> Result<(Vec<Edit>, usize), String> {
    let mut edits = Vec::new();
    let mut credentials = 0;
    let mut refusal: Option<String> = None;
    let mut literals = Vec::new();
    let mut each = |wire: WireExchange| {
        if refusal.is_some() {
            return;
        }
        let mut plan = |exchange: &Exchange<'_>| plan_exchange(&wire, exchange, &mut edits);
        let result = match wire.http2_exchange() {
            Some(exchange) => plan(&exchange),
            None => HttpReader::new(&wire.text).try_fold(0, |n, e| Ok(n + plan(&e)?)),
        };
        match result {
            Ok(n) => credentials += n,
            Err(why) => refusal = Some(why),
        }
    };
    read_pcap_literals(file, &mut each, &mut |field| {
        if is_secret(&field) {
            literals.push(field);
        }
    });
    if let Some(why) = refusal {
        return Err(why);
    }
    for field in &literals {
        plan_literal(field, &mut edits)?;
    }
    // The same bytes again in a retransmitted or overlapping segment: masked alike.
    let edited: Vec<Range<usize>> = edits.iter().map(|e| e.range.clone()).collect();
    for copy in payload_copies(file, &edited) {
        let replacement = edits[copy.edit].replacement[copy.from].to_vec();
        edits.push(Edit::new(copy.at, replacement));
    }
    Ok((edits, credentials + literals.len()))
}

/// A literal field holding a credential that is not a placeholder yet.
fn is_secret(field: &LiteralField) -> bool {
    std::str::from_utf8(&field.name).is_ok_and(secrets::is_credential_header)
        && !secrets::is_placeholder(&field.value)
}

/// Replaces the coded value of an HPACK literal (RFC 7541 §6.2) in place. The dynamic
/// table entry it may add then holds the placeholder, and so does every indexed field
/// that refers to it (§6.1): those carry no value octets of their own.
fn plan_literal(field: &LiteralField, edits: &mut Vec<Edit>) -> Result<(), String> {
    let octets: usize = field.octets.iter().map(|r| r.len()).sum();
    let Some(replacement) = placeholder(field.value.len(), octets, field.huffman) else {
        return Err(format!(
            "frame {}, stream {}: the Huffman-coded `{}` value ({} characters in {octets} \
             octets) has no placeholder coded in exactly as many octets; a2alint cannot \
             replace it without changing the header block's length, so this file was left \
             unchanged",
            field.frame,
            field.stream,
            String::from_utf8_lossy(&field.name),
            field.value.len(),
        ));
    };
    let mut rest = replacement.as_slice();
    for range in &field.octets {
        let (here, after) = rest.split_at(range.len());
        edits.push(Edit::new(range.clone(), here));
        rest = after;
    }
    Ok(())
}

/// Masks the credentials of `exchange` that its view shows as the file holds them, and
/// returns how many. HPACK-coded header values are replaced from their literals instead
/// ([`plan_literal`]): the view shows them decoded.
fn plan_exchange(
    wire: &WireExchange,
    exchange: &Exchange<'_>,
    edits: &mut Vec<Edit>,
) -> Result<usize, String> {
    let mut count = 0;
    for message in exchange.request.iter().chain(&exchange.response) {
        let fields = message.headers.iter().chain(&message.trailers);
        for header in fields {
            let secret = secrets::is_credential_header(header.name)
                && !secrets::is_placeholder(header.value);
            // A value that is not the file's bytes was decoded from an HPACK block:
            // `plan_literal` replaces it where it is coded.
            if secret && mask(wire, header.value_span, edits).is_ok() {
                count += 1;
            }
        }
        count += plan_body(wire, message, edits)?;
    }
    Ok(count)
}

fn plan_body(
    wire: &WireExchange,
    message: &Message<'_>,
    edits: &mut Vec<Edit>,
) -> Result<usize, String> {
    let Some(content) = &message.body.content else {
        return Ok(0);
    };
    let found = secrets::find_in_text(&content.bytes);
    for found in &found {
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
                            .map_err(|frame| refusal(wire, frame, "body"))?;
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
        mask(wire, text, edits).map_err(|frame| refusal(wire, frame, "body"))?;
    }
    Ok(found.len())
}

/// Masks text span `span` of `wire`'s view in the file; `Err(frame)`, with nothing
/// masked, when the bytes are not in the file as they are shown.
fn mask(wire: &WireExchange, span: Span, edits: &mut Vec<Edit>) -> Result<(), u32> {
    if let Some(origin) = overlapping(&wire.origins, span).find(|o| !o.exact) {
        return Err(origin.frame);
    }
    for origin in overlapping(&wire.origins, span) {
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

fn refusal(wire: &WireExchange, frame: u32, what: &str) -> String {
    let stream = wire
        .stream
        .map_or(String::new(), |s| format!(", stream {s}"));
    format!(
        "frame {frame}{stream} carries `{what}` in bytes that are not the file's one for one; \
         a2alint cannot replace it in place, so this file was left unchanged"
    )
}

/// What `redact --diff` shows for a pcap: a binary file has no lines to compare, so each
/// change is named by its frame and place, never by the bytes it removes.
pub fn preview(path: &str, file: &[u8], edits: &[Edit]) -> String {
    let frames = frame_offsets(file);
    let mut out = format!("--- {path}\n+++ {path} (redacted)\n");
    let mut ranges: Vec<&Range<usize>> = edits.iter().map(|e| &e.range).collect();
    ranges.sort_by_key(|r| (r.start, r.end));
    ranges.dedup();
    for range in ranges {
        let frame = frames.partition_point(|&start| start <= range.start).max(1);
        out.push_str(&format!(
            "frame {frame}: {} bytes masked at file offset {}\n",
            range.len(),
            range.start
        ));
    }
    out
}
