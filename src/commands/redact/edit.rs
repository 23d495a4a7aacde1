//! Byte edits to a capture file, applied in one pass, and the line-by-line preview
//! `--diff` prints (with the removed credentials masked, never shown).

use std::ops::Range;

use crate::output::resolve::masked_line;

/// Replace `range` of the file with `replacement`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edit {
    pub range: Range<usize>,
    pub replacement: Vec<u8>,
}

impl Edit {
    pub fn new(range: Range<usize>, replacement: impl Into<Vec<u8>>) -> Self {
        Edit {
            range,
            replacement: replacement.into(),
        }
    }
}

/// `bytes` with same-length `edits` written over them, in any order: overlapping edits
/// (a credential and its copy in a retransmitted segment) each mask all their bytes.
pub fn overwrite(bytes: &[u8], edits: &[Edit]) -> Vec<u8> {
    let mut out = bytes.to_vec();
    for edit in edits {
        debug_assert_eq!(edit.range.len(), edit.replacement.len());
        if let Some(target) = out.get_mut(edit.range.clone())
            && target.len() == edit.replacement.len()
        {
            target.copy_from_slice(&edit.replacement);
        }
    }
    out
}

/// `bytes` with `edits` applied. Edits are sorted; one that overlaps an earlier one is
/// dropped (the earlier already covers those bytes).
pub fn apply(bytes: &[u8], edits: &mut Vec<Edit>) -> Vec<u8> {
    edits.sort_by_key(|e| (e.range.start, e.range.end));
    let mut kept: Vec<Edit> = Vec::with_capacity(edits.len());
    for edit in edits.drain(..) {
        if kept
            .last()
            .is_none_or(|last| last.range.end <= edit.range.start)
        {
            kept.push(edit);
        }
    }
    let mut out = Vec::with_capacity(bytes.len());
    let mut at = 0;
    for edit in &kept {
        out.extend_from_slice(&bytes[at..edit.range.start]);
        out.extend_from_slice(&edit.replacement);
        at = edit.range.end;
    }
    out.extend_from_slice(&bytes[at..]);
    *edits = kept;
    out
}

/// A preview of the changed lines: `-` the old line with every replaced byte masked (so
/// no credential is shown, whatever the format), `+` the new.
pub fn preview(path: &str, before: &[u8], after: &[u8], edits: &[Edit]) -> String {
    let mut masked = before.to_vec();
    for edit in edits {
        masked[edit.range.clone()].fill(b'*');
    }
    let old: Vec<&[u8]> = masked.split(|&b| b == b'\n').collect();
    let new: Vec<&[u8]> = after.split(|&b| b == b'\n').collect();
    let mut out = format!("--- {path}\n+++ {path} (redacted)\n");
    // Redaction only changes lines in place (or drops a Content-Encoding line), so a
    // walk that resynchronises on equal lines is enough.
    let (mut i, mut j) = (0, 0);
    while i < old.len() || j < new.len() {
        match (old.get(i), new.get(j)) {
            (Some(a), Some(b)) if a == b => {
                i += 1;
                j += 1;
            }
            (Some(a), next) => {
                out.push_str(&format!("{}: - {}\n", i + 1, masked_line(a)));
                i += 1;
                let dropped_line = next.is_some_and(|b| old.get(i) == Some(b));
                if !dropped_line && let Some(b) = next {
                    out.push_str(&format!("{}: + {}\n", i, String::from_utf8_lossy(b)));
                    j += 1;
                }
            }
            (None, Some(b)) => {
                out.push_str(&format!("{}: + {}\n", i, String::from_utf8_lossy(b)));
                j += 1;
            }
            (None, None) => break,
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn applies_sorted_edits_and_drops_overlaps() {
        let mut edits = vec![
            Edit::new(6..9, "<r>"),
            Edit::new(0..2, "AB"),
            Edit::new(7..8, "zz"),
        ];
        assert_eq!(apply(b"ab cd secret end", &mut edits), b"AB cd <r>ret end");
        assert_eq!(edits.len(), 2);
    }

    #[test]
    fn preview_masks_what_was_removed() {
        let before = b"GET / HTTP/1.1\nAuthorization: Bearer sk-live-1\n\n";
        let mut edits = vec![Edit::new(30..46, "<redacted>")];
        let after = apply(before, &mut edits);
        let text = preview("x.http", before, &after, &edits);
        assert!(!text.contains("sk-live-1"), "{text}");
        assert!(
            text.contains("2: - Authorization: ****************"),
            "{text}"
        );
        // Even a line no heuristic recognises is masked where it was edited.
        let har = br#""value": "Bearer sk-live-2""#;
        let mut edits = vec![Edit::new(9..27, "\"<redacted>\"")];
        let after = apply(har, &mut edits);
        assert!(!preview("x.har", har, &after, &edits).contains("sk-live-2"));
        assert!(text.contains("2: + Authorization: <redacted>"), "{text}");
    }
}
