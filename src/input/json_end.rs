//! Finds where a JSON object, array or string ends, 64 bytes at a step, in JSON already
//! known to be valid: how `har_map` learns the span of the HAR entry being linted, and
//! how the pointer locator steps over what lies before the member it looks for.
//!
//! Only strings and the brackets of the container matter (in valid JSON the other kind
//! nests inside and balances). Each block of 64 bytes gives one bit mask per byte of
//! interest (quote, backslash, opening and closing bracket); escaped quotes are struck
//! out, the bytes inside strings follow from the quotes left (each flips in or out),
//! and the brackets outside them are counted. HAR bodies are JSON written inside JSON
//! strings, dense with `\"`: searching from one quote or backslash to the next stopped
//! every few bytes and was a tenth of a HAR run.

use std::ops::ControlFlow;

use super::byte_masks;

/// The end (just past its `}` or `]`) of the object or array opening at `start`, in JSON
/// already known to be valid; `None` if the text ends first or `start` opens neither.
pub fn container_end(json: &[u8], start: usize) -> Option<usize> {
    let (open, close) = match json.get(start)? {
        b'{' => (b'{', b'}'),
        b'[' => (b'[', b']'),
        _ => return None,
    };
    let mut scan = Scan::default();
    let wanted = [b'"', b'\\', open, close];
    byte_masks::scan(
        json,
        start,
        wanted,
        |at, [quote, backslash, open, close]| {
            let masks = Masks {
                quote,
                backslash,
                open,
                close,
            };
            match scan.block(&masks) {
                Step::Closed(end) => ControlFlow::Break(Some(at + end)),
                Step::Open => ControlFlow::Continue(()),
                Step::Unbalanced => ControlFlow::Break(None),
            }
        },
    )?
}

/// The end (just past its closing quote) of the string opening at `start`, in JSON
/// already known to be valid; `None` if the text ends first or `start` is no quote.
pub fn string_end(json: &[u8], start: usize) -> Option<usize> {
    if json.get(start) != Some(&b'"') {
        return None;
    }
    let mut scan = Scan::default();
    byte_masks::scan(json, start + 1, [b'"', b'\\'], |at, [quote, backslash]| {
        let closing = quote & !scan.escapes(backslash);
        match closing {
            0 => ControlFlow::Continue(()),
            _ => ControlFlow::Break(at + closing.trailing_zeros() as usize + 1),
        }
    })
}

/// What a block did to the container.
enum Step {
    /// It closed, just before this offset in the block.
    Closed(usize),
    Open,
    /// A bracket closed more than was opened: not the container asked about.
    Unbalanced,
}

/// One bit per byte of a block, bit `i` for byte `i`.
struct Masks {
    quote: u64,
    backslash: u64,
    open: u64,
    close: u64,
}

/// What one block leaves to the next.
#[derive(Debug, Default)]
struct Scan {
    /// Containers open.
    depth: usize,
    /// The next block starts inside a string.
    in_string: bool,
    /// The next block's first byte is escaped (this block ended with a backslash that
    /// escapes).
    escaped: bool,
}

impl Scan {
    fn block(&mut self, masks: &Masks) -> Step {
        let quotes = masks.quote & !self.escapes(masks.backslash);
        let inside = flips(quotes) ^ if self.in_string { u64::MAX } else { 0 };
        self.in_string = inside >> 63 == 1;
        // A quote flips in or out; the opening quote counts as inside, the closing one
        // as outside, and neither is a bracket, so the brackets outside strings are exact.
        let mut brackets = (masks.open | masks.close) & !inside;
        while brackets != 0 {
            let i = brackets.trailing_zeros();
            if masks.open >> i & 1 == 1 {
                self.depth += 1;
            } else {
                let Some(depth) = self.depth.checked_sub(1) else {
                    return Step::Unbalanced;
                };
                self.depth = depth;
                if depth == 0 {
                    return Step::Closed(i as usize + 1);
                }
            }
            brackets &= brackets - 1;
        }
        Step::Open
    }

    /// The bytes a backslash escapes: the one after each backslash not itself escaped.
    /// Outside strings JSON has no backslash, so every one met escapes.
    ///
    /// Without a loop over the backslashes (HAR bodies hold one every few bytes): in a run
    /// of backslashes, every other byte after the run's first is escaped, so whether the
    /// byte after the run is depends on whether the run starts on an even or an odd bit
    /// and on its length. Adding the run starts on odd bits to the backslashes carries
    /// through each such run and lands just past it, which tells the runs apart.
    fn escapes(&mut self, backslashes: u64) -> u64 {
        const EVEN: u64 = 0x5555_5555_5555_5555;
        let carried = u64::from(self.escaped);
        let backslashes = backslashes & !carried;
        let follows_backslash = backslashes << 1 | carried;
        let odd_starts = backslashes & !EVEN & !follows_backslash;
        let (past_odd_runs, overflow) = odd_starts.overflowing_add(backslashes);
        self.escaped = overflow;
        (EVEN ^ past_odd_runs << 1) & follows_backslash
    }
}

/// Bit `i` is set where an odd number of bits `0..=i` of `bits` are: the prefix XOR.
fn flips(mut bits: u64) -> u64 {
    for shift in [1, 2, 4, 8, 16, 32] {
        bits ^= bits << shift;
    }
    bits
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::input::byte_masks::BLOCK;

    /// The end as the full scanner of JSON spans finds it.
    fn full_end(json: &[u8], start: usize) -> Option<usize> {
        crate::input::json_span::locate_value(&json[start..], "").map(|span| start + span.end)
    }

    #[test]
    fn finds_the_end_of_an_object_as_the_full_scan_does() {
        let json = br#"[ {"a": {"b": "}{\"}", "c": [1, {"d": "\\"}]}, "e": "x\\\"{"} , {"f": 2}]"#;
        let first = 2;
        let second = memchr::memmem::find(json, br#"{"f""#).unwrap();
        for start in [first, second] {
            assert!(full_end(json, start).is_some());
            assert_eq!(container_end(json, start), full_end(json, start), "{start}");
        }
        assert_eq!(json[container_end(json, first).unwrap() - 1], b'}');
        // Cut short: no end, rather than a wrong one.
        assert_eq!(container_end(br#"{"a": "}"#, 0), None);
        assert_eq!(container_end(br#"{"a": "\"#, 0), None);
    }

    /// Runs of backslashes and strings across block edges: each byte of the edge tried.
    #[test]
    fn escapes_and_strings_carry_across_blocks() {
        for pad in 0..BLOCK + 3 {
            for slashes in 1..5 {
                let escaped = "\\".repeat(slashes * 2 - 1);
                let text = format!(
                    "{{\"{}\": \"{escaped}\"{}\", \"b\": {{\"c\": \"\\\\\"}}}}  ",
                    "p".repeat(pad),
                    "}".repeat(slashes)
                );
                let json = text.as_bytes();
                assert!(full_end(json, 0).is_some(), "{text}");
                assert_eq!(container_end(json, 0), full_end(json, 0), "{text}");
            }
        }
    }

    #[test]
    fn finds_the_end_of_a_string_across_blocks() {
        for pad in 0..BLOCK + 3 {
            for slashes in 0..4 {
                let text = format!(
                    "\"{}{}\\\"x\\\\\" ",
                    "p".repeat(pad),
                    "\\\\".repeat(slashes)
                );
                let json = text.as_bytes();
                let full: String = serde_json::from_str::<serde_json::Value>(text.trim())
                    .map(|value| serde_json::to_string(&value).unwrap())
                    .unwrap();
                assert_eq!(string_end(json, 0), Some(full.len()), "{text}");
            }
        }
        assert_eq!(string_end(br#""cut \""#, 0), None);
        assert_eq!(string_end(b"{}", 0), None);
    }

    /// Any JSON value, its strings drawn from the characters that matter here.
    fn json_value() -> impl Strategy<Value = serde_json::Value> {
        let text = "[\"\\\\{}\\[\\] a\\n]{0,12}";
        let leaf = prop_oneof![
            Just(serde_json::Value::Null),
            any::<i32>().prop_map(serde_json::Value::from),
            text.prop_map(serde_json::Value::String),
        ];
        leaf.prop_recursive(5, 48, 6, move |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6).prop_map(serde_json::Value::Array),
                prop::collection::btree_map(text, inner, 0..6)
                    .prop_map(|map| serde_json::Value::Object(map.into_iter().collect())),
            ]
        })
    }

    proptest! {
        #[test]
        fn any_container_ends_where_the_full_scan_says(
            members in prop::collection::btree_map("[a-z\"\\\\{\\[]{0,4}", json_value(), 0..8),
            array in any::<bool>(),
            pretty in any::<bool>(),
            lead in 0usize..70,
        ) {
            let container = match array {
                true => serde_json::Value::Array(members.into_values().collect()),
                false => serde_json::Value::Object(members.into_iter().collect()),
            };
            let body = match pretty {
                true => serde_json::to_string_pretty(&container).unwrap(),
                false => serde_json::to_string(&container).unwrap(),
            };
            let text = format!("{}{body}, {{\"next\": 1}}]", " ".repeat(lead));
            let json = text.as_bytes();
            prop_assert_eq!(container_end(json, lead), full_end(json, lead));
            prop_assert_eq!(container_end(json, lead), Some(lead + body.len()));
            for (key, _) in text.match_indices('"').filter(|&(i, _)| i > lead).take(3) {
                let full = crate::input::json_span::locate_value(&json[key..], "").map(|s| key + s.end);
                if full.is_some_and(|end| serde_json::from_slice::<String>(&json[key..end]).is_ok()) {
                    prop_assert_eq!(string_end(json, key), full);
                }
            }
        }
    }
}
