//! Masks credentials in the lines a report is about to show: credential header values
//! and, in bodies, credential JSON members and JWT-shaped strings, whatever message they
//! belong to.

use std::ops::Range;

use crate::input::secrets;

pub use secrets::is_credential_header as is_credential;

/// The byte ranges of `line` that must never be shown.
pub fn masked_ranges(line: &[u8]) -> Vec<Range<usize>> {
    let mut ranges: Vec<Range<usize>> = secrets::header_line_value(line).into_iter().collect();
    ranges.extend(secrets::find_in_text(line));
    ranges
}

/// `line` as text with its credentials replaced by `*` of the same length.
pub fn masked_line(line: &[u8]) -> String {
    let mut bytes = line.to_vec();
    for range in masked_ranges(line) {
        bytes[range].fill(b'*');
    }
    String::from_utf8_lossy(&bytes).into_owned()
}
