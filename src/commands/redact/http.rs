//! Plans the edits that redact a `.http` capture: credential header values, and
//! credentials in bodies, keeping `Content-Length` and chunk sizes right.

use crate::commands::redact::edit::Edit;
use crate::input::capture::{HttpReader, Message, Origin, Piece, map_pieces};
use crate::input::secrets::{self, PLACEHOLDER};

/// The edits that redact every message of `bytes`.
pub fn plan(bytes: &[u8]) -> Vec<Edit> {
    let mut edits = Vec::new();
    for exchange in HttpReader::new(bytes) {
        for message in exchange.request.iter().chain(exchange.response.iter()) {
            plan_message(bytes, message, &mut edits);
        }
    }
    edits
}

fn plan_message(bytes: &[u8], message: &Message<'_>, edits: &mut Vec<Edit>) {
    for header in &message.headers {
        if secrets::is_credential_header(header.name) && !secrets::is_placeholder(header.value) {
            edits.push(Edit::new(header.value_span.range(), PLACEHOLDER));
        }
    }
    let Some(content) = &message.body.content else {
        return;
    };
    let secrets_found = secrets::find_in_text(&content.bytes);
    if secrets_found.is_empty() {
        return;
    }
    match &content.origin {
        Origin::Verbatim { start } => {
            for range in &secrets_found {
                edits.push(Edit::new(
                    start + range.start..start + range.end,
                    PLACEHOLDER,
                ));
            }
            let new_len = redacted_len(message.body.raw.len(), &secrets_found);
            fix_content_length(message, new_len, edits);
        }
        Origin::Chunked(pieces) => plan_chunked(bytes, pieces, &secrets_found, edits),
        Origin::Decoded => {
            // The credential sits inside compressed bytes: write the body decoded and
            // redacted instead, without its Content-Encoding.
            let redacted = redact_text(&content.bytes, &secrets_found);
            replace_body(bytes, message, redacted, edits);
        }
    }
}

/// Each secret is replaced inside its chunk, whose size line is rewritten.
fn plan_chunked(
    bytes: &[u8],
    pieces: &[Piece],
    found: &[std::ops::Range<usize>],
    edits: &mut Vec<Edit>,
) {
    for piece in pieces {
        let inside: Vec<std::ops::Range<usize>> = found
            .iter()
            .filter(|r| r.start >= piece.decoded && r.end <= piece.decoded + piece.len)
            .map(|r| r.start - piece.decoded..r.end - piece.decoded)
            .collect();
        if inside.is_empty() {
            continue;
        }
        for range in &inside {
            edits.push(Edit::new(
                piece.raw + range.start..piece.raw + range.end,
                PLACEHOLDER,
            ));
        }
        if let Some(size_line) = chunk_size_digits(bytes, piece.raw) {
            let new_len = redacted_len(piece.len, &inside);
            edits.push(Edit::new(size_line, format!("{new_len:x}")));
        }
    }
    // A credential split across chunks is overwritten with `*` part by part, which keeps
    // every chunk's size (and reads as a placeholder).
    for range in found {
        let within_one = pieces
            .iter()
            .any(|p| range.start >= p.decoded && range.end <= p.decoded + p.len);
        if within_one {
            continue;
        }
        for piece in pieces {
            let (start, end) = (
                range.start.max(piece.decoded),
                range.end.min(piece.decoded + piece.len),
            );
            if start < end {
                let raw = map_pieces(pieces, start, false)..map_pieces(pieces, end, true);
                edits.push(Edit::new(raw.clone(), vec![b'*'; raw.len()]));
            }
        }
    }
}

/// The hex digits of the chunk-size line that ends just before `data_start`.
fn chunk_size_digits(bytes: &[u8], data_start: usize) -> Option<std::ops::Range<usize>> {
    let line_end = data_start.checked_sub(1)?;
    let line_end = if line_end > 0 && bytes[line_end - 1] == b'\r' {
        line_end - 1
    } else {
        line_end
    };
    let line_start = bytes[..line_end]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let digits = bytes[line_start..line_end]
        .iter()
        .take_while(|b| b.is_ascii_hexdigit())
        .count();
    (digits > 0).then_some(line_start..line_start + digits)
}

fn redacted_len(len: usize, found: &[std::ops::Range<usize>]) -> usize {
    let removed: usize = found.iter().map(|r| r.len()).sum();
    len - removed + found.len() * PLACEHOLDER.len()
}

fn redact_text(text: &[u8], found: &[std::ops::Range<usize>]) -> Vec<u8> {
    let mut edits: Vec<Edit> = found
        .iter()
        .map(|r| Edit::new(r.clone(), PLACEHOLDER))
        .collect();
    crate::commands::redact::edit::apply(text, &mut edits)
}

/// Replaces a compressed body with `body` as plain bytes: drops `Content-Encoding` and
/// `Transfer-Encoding`, and frames it with a fresh `Content-Length`.
fn replace_body(bytes: &[u8], message: &Message<'_>, body: Vec<u8>, edits: &mut Vec<Edit>) {
    let line_end = |at: usize| match &bytes[at..] {
        [b'\r', b'\n', ..] => at + 2,
        [b'\n', ..] => at + 1,
        _ => at,
    };
    for header in &message.headers {
        let framing = ["content-encoding", "transfer-encoding"]
            .iter()
            .any(|n| header.name.eq_ignore_ascii_case(n));
        if framing {
            edits.push(Edit::new(
                header.name_span.start..line_end(header.value_span.end),
                Vec::new(),
            ));
        }
    }
    let length = body.len();
    edits.push(Edit::new(message.body.raw.range(), body));
    match message.header("content-length") {
        Some(header) => edits.push(Edit::new(header.value_span.range(), length.to_string())),
        None => {
            let at = message.start_line_span.end;
            let newline = if bytes.get(at) == Some(&b'\r') {
                "\r\n"
            } else {
                "\n"
            };
            edits.push(Edit::new(
                at..at,
                format!("{newline}Content-Length: {length}"),
            ));
        }
    }
}

fn fix_content_length(message: &Message<'_>, new_len: usize, edits: &mut Vec<Edit>) {
    if let Some(header) = message.header("content-length") {
        edits.push(Edit::new(header.value_span.range(), new_len.to_string()));
    }
}
