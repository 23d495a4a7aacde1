//! The quick pass's string steps: the end of a string's plain run, the length of an
//! escape, and a checked string's escapes decoded (RFC 8259 §7).

/// The first byte at or after `at` that ends a string's plain run: `"`, `\` or a control
/// character; `bytes.len()` if none. Sixteen bytes at a time where the processor compares
/// them at once (every x86-64 one), eight at a time otherwise. Inlined: it runs for every
/// string, most of them a key of a few bytes, where a call cost more than the scan.
#[inline(always)]
pub(super) fn plain_run_end(bytes: &[u8], mut at: usize) -> usize {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    while let Some(chunk) = bytes
        .get(at..at + 16)
        .and_then(|chunk| <[u8; 16]>::try_from(chunk).ok())
    {
        // SAFETY: the build targets processors with SSE2, all `stops_sse2` needs.
        let stops = unsafe { stops_sse2(chunk) };
        if stops != 0 {
            return at + stops.trailing_zeros() as usize;
        }
        at += 16;
    }
    plain_run_end_by_words(bytes, at)
}

/// The bits of the bytes of `chunk` that end a plain run, lowest bit first.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[target_feature(enable = "sse2")]
fn stops_sse2(chunk: [u8; 16]) -> u32 {
    use std::arch::x86_64::{
        _mm_cmpeq_epi8, _mm_min_epu8, _mm_movemask_epi8, _mm_or_si128, _mm_set_epi64x,
        _mm_set1_epi8,
    };
    let half = |i: usize| i64::from_le_bytes(chunk[i * 8..i * 8 + 8].try_into().expect("eight"));
    let lane = _mm_set_epi64x(half(1), half(0));
    let quote = _mm_cmpeq_epi8(lane, _mm_set1_epi8(b'"' as i8));
    let backslash = _mm_cmpeq_epi8(lane, _mm_set1_epi8(b'\\' as i8));
    // A control byte is one no larger than 0x1F, unsigned.
    let control = _mm_cmpeq_epi8(_mm_min_epu8(lane, _mm_set1_epi8(0x1F)), lane);
    _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(quote, backslash), control)) as u32
}

/// [`plain_run_end`] eight bytes at a time: a byte's high bit is set in `stops` where it
/// is one of them, and the lowest such bit is always a true one.
fn plain_run_end_by_words(bytes: &[u8], mut at: usize) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    while let Some(word) = bytes
        .get(at..at + 8)
        .and_then(|chunk| <[u8; 8]>::try_from(chunk).ok())
    {
        let word = u64::from_le_bytes(word);
        let quote = word ^ (ONES * u64::from(b'"'));
        let backslash = word ^ (ONES * u64::from(b'\\'));
        let stops = (quote.wrapping_sub(ONES) & !quote)
            | (backslash.wrapping_sub(ONES) & !backslash)
            | (word.wrapping_sub(ONES * 0x20) & !word);
        let stops = stops & HIGHS;
        if stops != 0 {
            return at + (stops.trailing_zeros() / 8) as usize;
        }
        at += 8;
    }
    bytes[at..]
        .iter()
        .position(|&b| ends_plain_run(b))
        .map_or(bytes.len(), |run| at + run)
}

fn ends_plain_run(byte: u8) -> bool {
    byte == b'"' || byte == b'\\' || byte < 0x20
}

/// The length of the escape starting at a backslash, given the bytes after it; `None` for
/// an invalid escape and for a surrogate's `\u`.
pub(super) fn escape_len(after: &[u8]) -> Option<usize> {
    match *after.first()? {
        b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => Some(2),
        b'u' => {
            let code = hex_code(after.get(1..5)?)?;
            (!(0xD800..0xE000).contains(&code)).then_some(6)
        }
        _ => None,
    }
}

fn hex_code(digits: &[u8]) -> Option<u32> {
    digits.iter().try_fold(0, |code, &digit| {
        Some(code * 16 + char::from(digit).to_digit(16)?)
    })
}

/// A string's escapes decoded; `raw` was checked by `Quick::string`.
pub(super) fn unescape(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut rest = raw;
    while let Some(slash) = rest.find('\\') {
        out.push_str(&rest[..slash]);
        let escape = rest.as_bytes()[slash + 1];
        let mut len = 2;
        out.push(match escape {
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                len = 6;
                hex_code(&rest.as_bytes()[slash + 2..slash + 6])
                    .and_then(char::from_u32)
                    .unwrap_or(char::REPLACEMENT_CHARACTER)
            }
            other => char::from(other),
        });
        rest = &rest[slash + len..];
    }
    out.push_str(rest);
    out
}
