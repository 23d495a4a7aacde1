//! Same-size placeholders for HPACK strings, so `redact` can mask a header value in place.
//!
//! A dynamic table entry's size counts the decoded name and value (RFC 7541 §4.1), so a
//! replacement keeps the decoded length: every later eviction stays the same for both
//! peers. It keeps the encoded length too, so frames and TCP sequence numbers stay right.
//! A plain string becomes `*`s. A Huffman-coded one (§5.2) becomes symbols whose codes
//! add up to a bit count that pads to the same number of octets: mostly `*`, some with
//! shorter or longer codes (Appendix B). The result always reads as a placeholder to
//! `secrets::is_placeholder`: all `*`, `x` and `-`, or ending in ` -` or ` *`.

use crate::input::capture::wire::h2::huffman::{code_len, encode};

/// The symbol a masked value is made of (an 8-bit code).
const STAR: u8 = b'*';
/// Symbols whose codes are 1, 2 and 3 bits shorter than `*`'s.
const SHORTER: [u8; 3] = [b'x', b'-', b'0'];
/// Symbols whose codes are 2 to 7 bits longer than `*`'s (no code is 9 bits long).
const LONGER: [u8; 6] = [b'?', b'+', b'#', b'$', b'^', b'<'];

/// The octets to write in place of a value string of `octets` octets that decodes to
/// `len` bytes: a placeholder with the same decoded length, coded in as many octets.
/// `None` when no such placeholder exists (a short string of long codes, say).
pub fn placeholder(len: usize, octets: usize, huffman: bool) -> Option<Vec<u8>> {
    if !huffman {
        return (len == octets).then(|| vec![STAR; len]);
    }
    let text = huffman_text(len, octets)?;
    let coded = encode(&text);
    // Each construction below aims at the window; this checks it landed there.
    (coded.len() == octets && text.len() == len).then_some(coded)
}

/// `len` symbols whose codes total between `8 * octets - 7` and `8 * octets` bits: the
/// octets hold them with at most 7 bits of padding (§5.2).
fn huffman_text(len: usize, octets: usize) -> Option<Vec<u8>> {
    let most = 8 * octets;
    let least = most.saturating_sub(7);
    // `*`, `x` and `-` alone: 6 to 8 bits a symbol.
    let stars = 8 * len;
    let mut text = vec![STAR; len];
    if (least..=most).contains(&stars) || (stars > most && shorten(&mut text, stars - most, 2)) {
        return Some(text);
    }
    // Else the last word (what `is_placeholder` looks at) is `-` or `*` after a space,
    // and the symbols before it take as few or as many bits as needed.
    let prefix = len.checked_sub(2).filter(|&n| n > 0)?;
    let mut text = vec![STAR; prefix];
    text.extend(if stars > most { b" -" } else { b" *" });
    let total = bits(&text);
    let fits = if total > most {
        shorten(&mut text[..prefix], total - most, 3)
    } else {
        total >= least || lengthen(&mut text[..prefix], least - total)
    };
    fits.then_some(text)
}

fn bits(text: &[u8]) -> usize {
    text.iter().map(|&b| code_len(b)).sum()
}

/// Takes `by` bits off `run` (all `*`), from its end, at most `step` bits a symbol.
fn shorten(run: &mut [u8], mut by: usize, step: usize) -> bool {
    for symbol in run.iter_mut().rev() {
        if by == 0 {
            break;
        }
        let cut = by.min(step);
        *symbol = SHORTER[cut - 1];
        by -= cut;
    }
    by == 0
}

/// Adds at least `by` bits to `run` (all `*`), from its end: 2 to 7 bits a symbol, so a
/// lone bit left over is rounded up to 2 (the window is 8 bits wide).
fn lengthen(run: &mut [u8], by: usize) -> bool {
    let mut by = by.max(2);
    for symbol in run.iter_mut().rev() {
        if by == 0 {
            break;
        }
        let mut add = by.min(7);
        if by - add == 1 {
            add -= 1;
        }
        *symbol = LONGER[add - 2];
        by -= add;
    }
    by == 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::capture::wire::h2::huffman::decode;
    use crate::input::secrets::is_placeholder;

    fn decoded(coded: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        decode(coded, &mut out).unwrap();
        out
    }

    #[test]
    fn a_plain_string_becomes_stars() {
        assert_eq!(placeholder(5, 5, false).unwrap(), b"*****");
        assert_eq!(placeholder(5, 4, false), None);
    }

    #[test]
    fn every_reachable_size_gets_a_placeholder_of_the_same_size() {
        for len in 1..=200usize {
            // From all 5-bit symbols to all 30-bit ones.
            for octets in (5 * len).div_ceil(8)..=(30 * len).div_ceil(8) {
                let Some(coded) = placeholder(len, octets, true) else {
                    // Only the extremes may fail: fewer bits than ` -` after 5-bit
                    // symbols take, more than 15-bit symbols and ` *` give, or a string
                    // too short for a space.
                    let fewest = if len >= 3 { 5 * len + 2 } else { 6 * len };
                    let most = if len >= 3 { 15 * len - 16 } else { 8 * len };
                    assert!(
                        8 * octets < fewest || 8 * octets - 7 > most,
                        "{len} symbols in {octets} octets"
                    );
                    continue;
                };
                assert_eq!(coded.len(), octets);
                let text = decoded(&coded);
                assert_eq!(text.len(), len, "{len} symbols in {octets} octets");
                assert!(is_placeholder(&text), "{}", String::from_utf8_lossy(&text));
                assert!(!text.starts_with(b" "), "no leading space");
            }
        }
    }

    #[test]
    fn real_credentials_are_masked_to_their_size() {
        for value in [
            "Bearer sk-test-fake-key-0001",
            "session=fake-session-cookie; theme=dark",
            "sid=fake-set-cookie-value",
            "Basic dXNlcjpwYXNzd29yZA==",
            "eyJhbGciOiJub25lIn0.eyJzdWIiOiJ0ZXN0In0.c2lnbmF0dXJl",
            "secret",
            "x",
        ] {
            let octets = encode(value.as_bytes()).len();
            let coded = placeholder(value.len(), octets, true).expect(value);
            let text = decoded(&coded);
            assert_eq!(text.len(), value.len());
            assert!(is_placeholder(&text), "{}", String::from_utf8_lossy(&text));
            assert!(text.iter().all(|b| b"*x-0?+#$^< ".contains(b)), "{value}");
        }
        assert_eq!(decoded(&placeholder(6, 6, true).unwrap()), b"******");
    }

    #[test]
    fn refuses_what_no_placeholder_fits() {
        // Eight 5-bit symbols fill 5 octets exactly: no placeholder is that short.
        assert_eq!(encode(b"aaaaaaaa").len(), 5);
        assert_eq!(placeholder(8, 5, true), None);
        // One symbol in two octets needs a code of 9 to 16 bits: none is a placeholder.
        assert_eq!(placeholder(1, 2, true), None);
    }
}
