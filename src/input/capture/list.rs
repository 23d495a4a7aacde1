//! Reads one item of a header value that is a list (`Transfer-Encoding: gzip, chunked`,
//! `Content-Type: text/event-stream; charset=utf-8`) while the reader frames a body.

/// Which item of the list.
#[derive(Clone, Copy)]
pub enum Item {
    First,
    Last,
}

/// Is the `item` of `value`, split at `separator` and trimmed of whitespace, `expected`
/// in any case? A value that is not UTF-8 says nothing.
pub fn item_is(value: &[u8], separator: u8, item: Item, expected: &str) -> bool {
    // Nearly every value is ASCII: split and trimmed as bytes (as `str` splits and trims
    // ASCII), which spares the text check and the search by `char` that cost more than
    // the rest of a message's framing.
    if value.is_ascii() {
        let mut parts = value.split(|&b| b == separator);
        let part = match item {
            Item::First => parts.next(),
            Item::Last => parts.next_back(),
        };
        return part.is_some_and(|part| trim(part).eq_ignore_ascii_case(expected.as_bytes()));
    }
    let Ok(text) = std::str::from_utf8(value) else {
        return false;
    };
    let separator = char::from(separator);
    let part = match item {
        Item::First => text.split(separator).next(),
        Item::Last => text.rsplit(separator).next(),
    };
    part.is_some_and(|part| part.trim().eq_ignore_ascii_case(expected))
}

/// ASCII `bytes` trimmed as `str::trim` trims them: of the whitespace characters among
/// ASCII (which include the vertical tab that `u8::is_ascii_whitespace` leaves out).
fn trim(bytes: &[u8]) -> &[u8] {
    let space = |b: &u8| char::from(*b).is_whitespace();
    let start = bytes.iter().position(|b| !space(b)).unwrap_or(bytes.len());
    let end = bytes
        .iter()
        .rposition(|b| !space(b))
        .map_or(start, |last| last + 1);
    &bytes[start..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The same answers as splitting and trimming the value as text.
    #[test]
    fn answers_as_the_text_split_and_trimmed() {
        let values: [&[u8]; 12] = [
            b"chunked",
            b"gzip, chunked",
            b"chunked, gzip",
            b" CHUNKED\t",
            b"\x0bchunked\x0c",
            b"gzip,chunked,",
            b"",
            b",",
            "gzip, chunked\u{a0}".as_bytes(),
            "\u{2003}chunked".as_bytes(),
            b"gzip, \xffchunked",
            b"text/event-stream; charset=utf-8",
        ];
        for value in values {
            for (separator, expected) in [(b',', "chunked"), (b';', "text/event-stream")] {
                for item in [Item::First, Item::Last] {
                    let as_text = std::str::from_utf8(value).ok().and_then(|text| {
                        let separator = char::from(separator);
                        match item {
                            Item::First => text.split(separator).next(),
                            Item::Last => text.rsplit(separator).next(),
                        }
                    });
                    let expected_answer =
                        as_text.is_some_and(|part| part.trim().eq_ignore_ascii_case(expected));
                    let answer = item_is(value, separator, item, expected);
                    assert_eq!(answer, expected_answer, "{value:?} {expected}");
                }
            }
        }
        assert!(item_is(b"gzip, chunked", b',', Item::Last, "chunked"));
        assert!(item_is(
            "\u{2003}chunked".as_bytes(),
            b',',
            Item::Last,
            "chunked"
        ));
        assert!(!item_is(b"chunked, gzip", b',', Item::Last, "chunked"));
    }
}
