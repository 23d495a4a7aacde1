//! The layout of a HAR entry's text: which bytes of the HTTP text written for an entry
//! came from which JSON member, so that the resolver can place findings in the HAR file.

use std::ops::Range;

use super::entry::Entry;
use super::write::write_entry;
use crate::input::capture::Side;

/// Where one entry's text came from, worked out again for findings in it.
#[derive(Clone, Debug, Default)]
pub struct Layout {
    /// Each message's text, relative to the entry's start, with the line end after it.
    pub messages: Vec<(Side, Range<usize>)>,
    pub pieces: Vec<Piece>,
    /// Bytes written for the entry.
    pub len: usize,
    /// JSON pointers (in the entry) of credential values no window may show: those of
    /// credential headers, and every cookie's.
    pub secrets: Vec<String>,
}

/// Text written for one member of the entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Piece {
    /// Relative to the entry's start.
    pub start: usize,
    pub end: usize,
    pub side: Side,
    pub member: Member,
    /// Where the piece's text starts in the member's value (the path in a URL), or
    /// [`super::NOT_IN_VALUE`].
    pub value_offset: usize,
}

/// A member of a request or response that text was written for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Member {
    Method,
    Url,
    Version,
    Status,
    StatusText,
    HeaderName(usize),
    HeaderValue(usize),
    /// `postData.text` or `content.text`.
    Body,
}

impl Member {
    /// The JSON pointer of the member in its entry: `/response/headers/2/value`.
    pub fn pointer(self, side: Side) -> String {
        // Put together by hand: every finding placed in a HAR file asks for one, and
        // `format!` grew the string several times over for each.
        let (member, index, rest) = match (self, side) {
            (Member::Method, _) => ("method", None, ""),
            (Member::Url, _) => ("url", None, ""),
            (Member::Version, _) => ("httpVersion", None, ""),
            (Member::Status, _) => ("status", None, ""),
            (Member::StatusText, _) => ("statusText", None, ""),
            (Member::HeaderName(i), _) => ("headers/", Some(i), "/name"),
            (Member::HeaderValue(i), _) => ("headers/", Some(i), "/value"),
            (Member::Body, Side::Request) => ("postData/text", None, ""),
            (Member::Body, Side::Response) => ("content/text", None, ""),
        };
        let mut digits = itoa::Buffer::new();
        let index = index.map_or("", |i| digits.format(i));
        let mut pointer = String::with_capacity(32);
        pointer.extend(["/", side.name(), "/", member, index, rest]);
        pointer
    }
}

/// The layout of one entry from its JSON; `None` if it does not parse. `is_credential`
/// names the headers whose values are secrets.
pub fn layout_of(entry_json: &[u8], is_credential: impl Fn(&str) -> bool) -> Option<Layout> {
    let entry: Entry<'_> = serde_json::from_slice(entry_json).ok()?;
    let mut text = Vec::new();
    let mut layout = Layout::default();
    write_entry(&mut text, &entry, Some(&mut layout));
    layout.len = text.len();
    add_secrets(&mut layout, &entry, is_credential);
    Some(layout)
}

/// Adds to `layout` the pointers of `entry`'s credential values.
pub(super) fn add_secrets(
    layout: &mut Layout,
    entry: &Entry<'_>,
    is_credential: impl Fn(&str) -> bool,
) {
    let request = entry
        .request
        .as_ref()
        .map(|r| (Side::Request, &r.headers, &r.cookies));
    let response = entry
        .response
        .as_ref()
        .map(|r| (Side::Response, &r.headers, &r.cookies));
    for (side, headers, cookies) in [request, response].into_iter().flatten() {
        for (i, header) in headers.iter().flatten().enumerate() {
            if is_credential(&header.name.0) {
                layout.secrets.push(Member::HeaderValue(i).pointer(side));
            }
        }
        for i in 0..cookies.as_ref().map_or(0, Vec::len) {
            layout
                .secrets
                .push(format!("/{}/cookies/{i}/value", side.name()));
        }
    }
}

impl Layout {
    /// Empty again, keeping what it allocated, for the next entry.
    pub(super) fn clear(&mut self) {
        self.messages.clear();
        self.pieces.clear();
        self.len = 0;
        self.secrets.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_member_is_pointed_at_in_its_entry() {
        let pointers = [
            (Member::Method, Side::Request, "/request/method"),
            (Member::Url, Side::Request, "/request/url"),
            (Member::Version, Side::Response, "/response/httpVersion"),
            (Member::Status, Side::Response, "/response/status"),
            (Member::StatusText, Side::Response, "/response/statusText"),
            (
                Member::HeaderName(0),
                Side::Request,
                "/request/headers/0/name",
            ),
            (
                Member::HeaderValue(12),
                Side::Response,
                "/response/headers/12/value",
            ),
            (Member::Body, Side::Request, "/request/postData/text"),
            (Member::Body, Side::Response, "/response/content/text"),
        ];
        for (member, side, pointer) in pointers {
            assert_eq!(member.pointer(side), pointer);
        }
    }
}
