//! HTTP/2 step two, first half: a header block's Huffman-coded strings (RFC 7541 §5.2)
//! are decoded in linear time and written out plain before the HPACK decoder sees the
//! block. The library's own Huffman decoder builds a table for every string, so a block
//! of many tiny strings would cost seconds; this pass also notes where each field's
//! value string sits. Strings are coded here too, for `redact`'s replacements.

use std::ops::Range;

/// Code lengths of the HPACK Huffman code for symbols 0 to 256 (EOS), RFC 7541
/// Appendix B. The code is canonical: the codes follow from the lengths.
const CODE_LENGTHS: [u8; 257] = [
    13, 23, 28, 28, 28, 28, 28, 28, 28, 24, 30, 28, 28, 30, 28, 28, 28, 28, 28, 28, 28, 28, 30, 28,
    28, 28, 28, 28, 28, 28, 28, 28, 6, 10, 10, 12, 13, 6, 8, 11, 10, 10, 8, 11, 8, 6, 6, 6, 5, 5,
    5, 6, 6, 6, 6, 6, 6, 6, 7, 8, 15, 6, 12, 10, 13, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7,
    7, 7, 7, 7, 7, 7, 7, 7, 8, 7, 8, 13, 19, 13, 14, 6, 15, 5, 6, 5, 6, 5, 6, 6, 6, 5, 7, 7, 6, 6,
    6, 5, 6, 7, 6, 5, 5, 6, 7, 7, 7, 7, 7, 15, 11, 14, 13, 28, 20, 22, 20, 20, 22, 22, 22, 23, 22,
    23, 23, 23, 23, 23, 24, 23, 24, 24, 22, 23, 24, 23, 23, 23, 23, 21, 22, 23, 22, 23, 23, 24, 22,
    21, 20, 22, 22, 23, 23, 21, 23, 22, 22, 24, 21, 22, 23, 23, 21, 21, 22, 21, 23, 22, 23, 23, 20,
    22, 22, 22, 23, 22, 22, 23, 26, 26, 20, 19, 22, 23, 22, 25, 26, 26, 26, 27, 27, 26, 24, 25, 19,
    21, 26, 27, 27, 26, 27, 24, 21, 21, 26, 26, 28, 27, 27, 27, 20, 24, 20, 21, 22, 21, 21, 23, 22,
    22, 25, 25, 24, 24, 26, 23, 26, 27, 26, 26, 27, 27, 27, 27, 27, 28, 27, 27, 27, 27, 27, 26, 30,
];
const LONGEST: usize = 30;
const SHORTEST: usize = 5;
const EOS: u16 = 256;

/// The canonical code by length: the first code of each length, how many codes have
/// it, the symbols ordered by length, then value, and each symbol's code.
struct Canonical {
    first: [u32; LONGEST + 1],
    count: [u32; LONGEST + 1],
    offset: [usize; LONGEST + 1],
    symbols: [u16; 257],
    codes: [u32; 257],
}

const fn canonical() -> Canonical {
    let mut code = Canonical {
        first: [0; LONGEST + 1],
        count: [0; LONGEST + 1],
        offset: [0; LONGEST + 1],
        symbols: [0; 257],
        codes: [0; 257],
    };
    let (mut len, mut next, mut first) = (1, 0, 0u32);
    while len <= LONGEST {
        code.offset[len] = next;
        code.first[len] = first;
        let mut symbol = 0;
        while symbol < 257 {
            if CODE_LENGTHS[symbol] as usize == len {
                code.symbols[next] = symbol as u16;
                code.codes[symbol] = first + code.count[len];
                next += 1;
                code.count[len] += 1;
            }
            symbol += 1;
        }
        first = (first + code.count[len]) << 1;
        len += 1;
    }
    code
}

static CODE: Canonical = canonical();

/// How many bits the code of `byte` takes (RFC 7541 Appendix B).
pub fn code_len(byte: u8) -> usize {
    usize::from(CODE_LENGTHS[usize::from(byte)])
}

/// `text` Huffman-coded, the last octet padded with the high bits of EOS, all ones (§5.2).
pub fn encode(text: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    let (mut acc, mut bits) = (0u64, 0);
    for &byte in text {
        acc = acc << code_len(byte) | u64::from(CODE.codes[usize::from(byte)]);
        bits += code_len(byte);
        while bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    if bits > 0 {
        out.push((acc << (8 - bits)) as u8 | 0xff >> bits);
    }
    out
}

/// Appends the string Huffman-coded in `bits` to `out`.
pub fn decode(bits: &[u8], out: &mut Vec<u8>) -> Result<(), &'static str> {
    // The next bits, left-aligned: `have` of them are the string's, and the ones past
    // them read as ones (the start of EOS, which is what padding is, §5.2). A code is
    // found from the window's top bits, so a symbol costs a few comparisons rather than
    // a step per bit.
    let (mut window, mut have) = (0u64, 0usize);
    let mut bytes = bits.iter();
    loop {
        while have <= 56 {
            let Some(&byte) = bytes.next() else { break };
            window |= u64::from(byte) << (56 - have);
            have += 8;
        }
        let padded = window | u64::MAX.checked_shr(have as u32).unwrap_or(0);
        let top = (padded >> (64 - LONGEST)) as u32;
        let Some((len, symbol)) = symbol_at(top) else {
            return Err("a Huffman string holds an invalid code");
        };
        if len > have {
            break;
        }
        if symbol == EOS {
            return Err("a Huffman string holds the EOS symbol");
        }
        out.push(symbol as u8);
        window <<= len;
        have -= len;
    }
    // §5.2: at most 7 bits of padding, all ones (the start of EOS).
    let rest = window.checked_shr(64 - have as u32).unwrap_or(0);
    if have > 7 || rest != (1 << have) - 1 {
        return Err("a Huffman string is not padded with the start of EOS");
    }
    Ok(())
}

/// The code at the top of `top` (its `LONGEST` bits): its length and symbol. Codes of one
/// length are consecutive from `first`, and a longer code's prefix lies past every
/// shorter code, so the shortest length whose range holds the prefix is the code's.
fn symbol_at(top: u32) -> Option<(usize, u16)> {
    (SHORTEST..=LONGEST).find_map(|len| {
        let prefix = top >> (LONGEST - len);
        let rank = prefix.wrapping_sub(CODE.first[len]);
        (rank < CODE.count[len]).then(|| (len, CODE.symbols[CODE.offset[len] + rank as usize]))
    })
}

/// Reads an HPACK integer with a `prefix`-bit prefix at `*at` (§5.1), copying its bytes
/// to `out`. Values are kept below 2^28, as the library does.
fn integer(
    block: &[u8],
    at: &mut usize,
    prefix: u8,
    out: &mut Vec<u8>,
) -> Result<usize, &'static str> {
    const SHORT: &str = "the header block ends inside a field";
    let start = *at;
    let max = (1usize << prefix) - 1;
    let mut value = usize::from(*block.get(*at).ok_or(SHORT)?) & max;
    *at += 1;
    if value == max {
        for shift in (0..28).step_by(7) {
            let byte = *block.get(*at).ok_or(SHORT)?;
            *at += 1;
            value += usize::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                out.extend(&block[start..*at]);
                return Ok(value);
            }
        }
        return Err("an HPACK integer is longer than 4 continuation bytes");
    }
    out.extend(&block[start..*at]);
    Ok(value)
}

fn write_length(len: usize, out: &mut Vec<u8>) {
    if len < 0x7f {
        out.push(len as u8);
        return;
    }
    out.push(0x7f);
    let mut rest = len - 0x7f;
    while rest >= 0x80 {
        out.push(rest as u8 | 0x80);
        rest >>= 7;
    }
    out.push(rest as u8);
}

/// Where a literal field's value string sits in its header block: the string's octets
/// after its length prefix (§5.2), and whether they are Huffman-coded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValueString {
    pub octets: Range<usize>,
    pub huffman: bool,
}

/// A header block with every Huffman string written plain, and one entry per field, in
/// order: its value string when the field is a literal (§6.2), `None` when indexed (§6.1).
pub struct PlainBlock {
    pub bytes: Vec<u8>,
    pub values: Vec<Option<ValueString>>,
}

/// `block` with every Huffman string written plain, and where its fields' values sit.
pub fn plain_block(block: &[u8]) -> Result<PlainBlock, &'static str> {
    let mut out = Vec::with_capacity(block.len() + block.len() / 2);
    let mut values = Vec::new();
    let mut at = 0;
    let mut discard = Vec::new();
    while let Some(&first) = block.get(at) {
        // §6: indexed (1xxxxxxx), literal with indexing (01), size update (001), literal
        // without indexing or never indexed (000x); a literal's name is a string when
        // its index is 0.
        let (prefix, literal) = match first {
            b if b & 0x80 != 0 => (7, false),
            b if b & 0x40 != 0 => (6, true),
            b if b & 0x20 != 0 => (5, false),
            _ => (4, true),
        };
        let index = integer(block, &mut at, prefix, &mut out)?;
        if prefix == 5 {
            continue;
        }
        if !literal {
            values.push(None);
            continue;
        }
        let mut value = None;
        for _ in 0..if index == 0 { 2 } else { 1 } {
            let huffman = block.get(at).is_some_and(|b| b & 0x80 != 0);
            discard.clear();
            let len = integer(block, &mut at, 7, &mut discard)?;
            let end = at.checked_add(len).filter(|&end| end <= block.len());
            let octets = at..end.ok_or("a string runs past the header block")?;
            let string = &block[octets.clone()];
            at += len;
            if huffman {
                discard.clear();
                decode(string, &mut discard)?;
                write_length(discard.len(), &mut out);
                out.extend(&discard);
            } else {
                write_length(len, &mut out);
                out.extend(string);
            }
            // The value is the last string (§6.2).
            value = Some(ValueString { octets, huffman });
        }
        values.push(value);
    }
    Ok(PlainBlock { bytes: out, values })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_the_rfc_7541_examples() {
        let mut out = Vec::new();
        let www = [
            0xf1, 0xe3, 0xc2, 0xe5, 0xf2, 0x3a, 0x6b, 0xa0, 0xab, 0x90, 0xf4, 0xff,
        ];
        decode(&www, &mut out).unwrap();
        assert_eq!(out, b"www.example.com");
        out.clear();
        // C.6.1: "Mon, 21 Oct 2013 20:13:21 GMT".
        let date = [
            0xd0, 0x7a, 0xbe, 0x94, 0x10, 0x54, 0xd4, 0x44, 0xa8, 0x20, 0x05, 0x95, 0x04, 0x0b,
            0x81, 0x66, 0xe0, 0x82, 0xa6, 0x2d, 0x1b, 0xff,
        ];
        decode(&date, &mut out).unwrap();
        assert_eq!(out, b"Mon, 21 Oct 2013 20:13:21 GMT");
    }

    #[test]
    fn encodes_what_it_decodes() {
        assert_eq!(
            encode(b"www.example.com"),
            [
                0xf1, 0xe3, 0xc2, 0xe5, 0xf2, 0x3a, 0x6b, 0xa0, 0xab, 0x90, 0xf4, 0xff
            ]
        );
        let every_byte: Vec<u8> = (0..=255).collect();
        let mut out = Vec::new();
        decode(&encode(&every_byte), &mut out).unwrap();
        assert_eq!(out, every_byte);
        let bits: usize = every_byte.iter().map(|&b| code_len(b)).sum();
        assert_eq!(encode(&every_byte).len(), bits.div_ceil(8));
    }

    /// The decoder as RFC 7541 describes it, a bit at a time: what `decode` must equal.
    fn decode_bit_by_bit(bits: &[u8]) -> Result<Vec<u8>, &'static str> {
        let (mut out, mut code, mut len) = (Vec::new(), 0u32, 0usize);
        for &byte in bits {
            for shift in (0..8).rev() {
                code = code << 1 | u32::from(byte >> shift & 1);
                len += 1;
                let rank = code.wrapping_sub(CODE.first[len]);
                if rank < CODE.count[len] {
                    let symbol = CODE.symbols[CODE.offset[len] + rank as usize];
                    if symbol == EOS {
                        return Err("a Huffman string holds the EOS symbol");
                    }
                    out.push(symbol as u8);
                    (code, len) = (0, 0);
                }
            }
        }
        if len > 7 || code != (1 << len) - 1 {
            return Err("a Huffman string is not padded with the start of EOS");
        }
        Ok(out)
    }

    #[test]
    fn decodes_as_the_bit_by_bit_reading_does() {
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut cases: Vec<Vec<u8>> = vec![vec![], vec![0xff], vec![0xff; 4], vec![0x00]];
        for _ in 0..4000 {
            let len = (next() % 40) as usize;
            let random: Vec<u8> = (0..len).map(|_| next() as u8).collect();
            // Codes of real text, cut or with bytes changed, and random bytes.
            let mut coded = encode(&random);
            if next() % 3 == 0 && !coded.is_empty() {
                let at = (next() as usize) % coded.len();
                coded[at] ^= 1 << (next() % 8);
            }
            if next() % 4 == 0 {
                coded.truncate((next() as usize) % (coded.len() + 1));
            }
            cases.extend([coded, random]);
        }
        for case in cases {
            let mut out = Vec::new();
            let result = decode(&case, &mut out).map(|()| out);
            assert_eq!(result, decode_bit_by_bit(&case), "{case:02x?}");
        }
    }

    #[test]
    fn refuses_bad_padding_and_eos() {
        let mut out = Vec::new();
        assert!(
            decode(
                &[
                    0xf1, 0xe3, 0xc2, 0xe5, 0xf2, 0x3a, 0x6b, 0xa0, 0xab, 0x90, 0xf4, 0xfe
                ],
                &mut out
            )
            .is_err()
        );
        assert!(decode(&[0xff, 0xff, 0xff, 0xff], &mut out).is_err());
        assert!(decode(&[0x00], &mut out).is_err());
        assert!(decode(&[], &mut out).is_ok());
    }

    #[test]
    fn writes_strings_plain_and_finds_values() {
        // C.4.1: four fields, one Huffman string; then a size update.
        let block = [
            0x82, 0x86, 0x84, 0x41, 0x8c, 0xf1, 0xe3, 0xc2, 0xe5, 0xf2, 0x3a, 0x6b, 0xa0, 0xab,
            0x90, 0xf4, 0xff, 0x20,
        ];
        let plain = plain_block(&block).unwrap();
        assert_eq!(plain.values.len(), 4);
        let authority = ValueString {
            octets: 5..17,
            huffman: true,
        };
        assert_eq!(plain.values, [None, None, None, Some(authority)]);
        assert_eq!(
            plain.bytes,
            [
                &[0x82, 0x86, 0x84, 0x41, 15][..],
                b"www.example.com",
                &[0x20]
            ]
            .concat()
        );
        let long = [&[0x00, 0x7f, 0x01][..], &[b'n'; 128], &[0x00]].concat();
        assert_eq!(plain_block(&long).unwrap().bytes, long);
        assert!(plain_block(&[0x40, 0x05, b'a']).is_err());
        assert!(plain_block(&[0xff, 0xff, 0xff, 0xff, 0xff, 0xff]).is_err());
    }
}
