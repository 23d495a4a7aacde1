//! Finds things in HAR bytes without parsing them: where `log.entries` starts, JSON
//! strings, `"value"` members past the last readable entry, and line numbers without an
//! index of every line. Used by `har_map` to place findings in a HAR file.

use std::ops::Range;

use crate::input::capture::har::skip_ws;
use crate::input::source::Span;

/// Bytes per chunk of the HAR file's line count.
pub(super) const CHUNK: usize = 1 << 13;

pub(super) fn first_byte(span: Span) -> Span {
    Span::new(span.start, (span.start + 1).min(span.end))
}

/// The characters of a JSON string token, without its quotes.
pub(super) fn string_inside(har: &[u8], token: Span) -> Span {
    if token.len() >= 2 && har[token.start] == b'"' {
        Span::new(token.start + 1, token.end - 1)
    } else {
        token
    }
}

/// The characters of every `"value": "..."` string in `region`, found by text alone:
/// for bytes that no longer parse as entries.
pub(super) fn value_strings(har: &[u8], region: Range<usize>) -> Vec<Span> {
    let from = region.start.saturating_sub(64);
    let mut found = Vec::new();
    for key in memchr::memmem::find_iter(&har[from..region.end], b"\"value\"") {
        let mut pos = skip_ws(har, from + key + 7);
        if har.get(pos) != Some(&b':') {
            continue;
        }
        pos = skip_ws(har, pos + 1);
        if har.get(pos) != Some(&b'"') {
            continue;
        }
        let start = pos + 1;
        let mut end = start;
        while end < har.len() && har[end] != b'"' && har[end] != b'\n' {
            end += if har[end] == b'\\' { 2 } else { 1 };
        }
        found.push(Span::new(start, end.min(har.len())));
    }
    found
}

/// Line numbers in the HAR file without an index of every line: newlines are counted
/// once per chunk of the file, and within a chunk when asked.
pub(super) struct Lines {
    /// For each chunk: the newlines before it, and where the line holding its first
    /// byte starts.
    chunks: Vec<(usize, usize)>,
}

impl Lines {
    pub(super) fn new(text: &[u8]) -> Self {
        let mut chunks = Vec::with_capacity(text.len() / CHUNK + 1);
        let (mut newlines, mut line_start) = (0, 0);
        for (i, chunk) in text.chunks(CHUNK).enumerate() {
            chunks.push((newlines, line_start));
            for nl in memchr::memchr_iter(b'\n', chunk) {
                newlines += 1;
                line_start = i * CHUNK + nl + 1;
            }
        }
        if chunks.is_empty() {
            chunks.push((0, 0));
        }
        Lines { chunks }
    }

    fn chunk(&self, offset: usize) -> usize {
        (offset / CHUNK).min(self.chunks.len() - 1)
    }

    /// 0-based line of `offset`.
    pub(super) fn line_of(&self, text: &[u8], offset: usize) -> usize {
        let offset = offset.min(text.len());
        let chunk = self.chunk(offset);
        self.chunks[chunk].0 + memchr::memchr_iter(b'\n', &text[chunk * CHUNK..offset]).count()
    }

    /// Where the line holding `offset` starts.
    pub(super) fn line_start(&self, text: &[u8], offset: usize) -> usize {
        let offset = offset.min(text.len());
        let chunk = self.chunk(offset);
        match memchr::memrchr(b'\n', &text[chunk * CHUNK..offset]) {
            Some(nl) => chunk * CHUNK + nl + 1,
            None => self.chunks[chunk].1,
        }
    }
}
