//! Bit masks of where given bytes are in a 64-byte block, sixteen or thirty-two bytes
//! compared at once: how `json_end` steps over JSON and the line index finds line feeds
//! without stopping at each one.

use std::ops::ControlFlow;

/// Bytes per block: one bit of a `u64` mask each.
pub const BLOCK: usize = 64;

/// Steps through `text` from `from`, 64 bytes at a time, handing `step` each block's
/// offset and, for each of `wanted`, its mask (bit `i` set where byte `offset + i` is that
/// byte), until `step` breaks; what it broke with, or `None` at the end of the text. The
/// last block is padded with spaces, so none of `wanted` may be a space.
///
/// The processor's features are asked about once per scan, not once per block.
pub fn scan<const N: usize, R>(
    text: &[u8],
    from: usize,
    wanted: [u8; N],
    step: impl FnMut(usize, [u64; N]) -> ControlFlow<R>,
) -> Option<R> {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        if std::is_x86_feature_detected!("avx2") {
            // SAFETY: the processor has AVX2, as just asked (the answer is cached).
            return unsafe { scan_avx2(text, from, wanted, step) };
        }
        // SAFETY: the build targets processors with SSE2 (every x86-64 one has it, and
        // this is only compiled when the target enables it), which is all `sse2` needs.
        scan_with(text, from, wanted, step, |block, wanted| unsafe {
            sse2(block, wanted)
        })
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    scan_with(text, from, wanted, step, byte_by_byte)
}

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[target_feature(enable = "avx2")]
fn scan_avx2<const N: usize, R>(
    text: &[u8],
    from: usize,
    wanted: [u8; N],
    step: impl FnMut(usize, [u64; N]) -> ControlFlow<R>,
) -> Option<R> {
    scan_with(text, from, wanted, step, |block, wanted| {
        avx2(block, wanted)
    })
}

/// [`scan`] with the masks of a block found by `masks`.
#[inline(always)]
fn scan_with<const N: usize, R>(
    text: &[u8],
    from: usize,
    wanted: [u8; N],
    mut step: impl FnMut(usize, [u64; N]) -> ControlFlow<R>,
    masks: impl Fn(&[u8; BLOCK], [u8; N]) -> [u64; N],
) -> Option<R> {
    let mut at = from;
    while at < text.len() {
        let found = match text.get(at..at + BLOCK) {
            Some(block) => masks(block.try_into().expect("a whole block"), wanted),
            None => {
                let mut block = [b' '; BLOCK];
                block[..text.len() - at].copy_from_slice(&text[at..]);
                masks(&block, wanted)
            }
        };
        if let ControlFlow::Break(done) = step(at, found) {
            return Some(done);
        }
        at += BLOCK;
    }
    None
}

/// Thirty-two bytes compared at once. Never inlined: inlined into the loop of a scan, the
/// optimiser took four masks apart bit by bit (`json_end`'s scan took ten times the
/// instructions).
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[target_feature(enable = "avx2")]
#[inline(never)]
fn avx2<const N: usize>(block: &[u8; BLOCK], wanted: [u8; N]) -> [u64; N] {
    use std::arch::x86_64::{
        __m256i, _mm256_cmpeq_epi8, _mm256_movemask_epi8, _mm256_set_epi64x, _mm256_set1_epi8,
    };
    let lanes: [__m256i; 2] = std::array::from_fn(|lane| {
        let word = |i| word(block, lane * 4 + i);
        _mm256_set_epi64x(word(3), word(2), word(1), word(0))
    });
    wanted.map(|byte| {
        let wanted = _mm256_set1_epi8(byte as i8);
        let bits = |lane: __m256i| _mm256_movemask_epi8(_mm256_cmpeq_epi8(lane, wanted)) as u32;
        u64::from(bits(lanes[0])) | u64::from(bits(lanes[1])) << 32
    })
}

/// Sixteen bytes compared at once; never inlined, as [`avx2`].
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[target_feature(enable = "sse2")]
#[inline(never)]
fn sse2<const N: usize>(block: &[u8; BLOCK], wanted: [u8; N]) -> [u64; N] {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_movemask_epi8, _mm_set_epi64x, _mm_set1_epi8,
    };
    let lanes: [__m128i; 4] = std::array::from_fn(|lane| {
        _mm_set_epi64x(word(block, lane * 2 + 1), word(block, lane * 2))
    });
    wanted.map(|byte| {
        let wanted = _mm_set1_epi8(byte as i8);
        (lanes.iter().enumerate()).fold(0u64, |mask, (lane, &bytes)| {
            let bits = _mm_movemask_epi8(_mm_cmpeq_epi8(bytes, wanted)) as u16;
            mask | u64::from(bits) << (lane * 16)
        })
    })
}

/// The `i`th eight bytes of a block, as the vector registers take them.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
fn word(block: &[u8; BLOCK], i: usize) -> i64 {
    i64::from_le_bytes(block[i * 8..i * 8 + 8].try_into().expect("eight bytes"))
}

/// The masks found one byte at a time: other processors' way, and what the vector ways
/// are tested against.
#[cfg(any(test, not(all(target_arch = "x86_64", target_feature = "sse2"))))]
fn byte_by_byte<const N: usize>(block: &[u8; BLOCK], wanted: [u8; N]) -> [u64; N] {
    wanted.map(|wanted| {
        (block.iter().enumerate())
            .filter(|&(_, &byte)| byte == wanted)
            .fold(0u64, |mask, (i, _)| mask | 1 << i)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every block's masks, as `scan` hands them over.
    fn blocks<const N: usize>(text: &[u8], from: usize, wanted: [u8; N]) -> Vec<(usize, [u64; N])> {
        let mut seen = Vec::new();
        let none = scan(text, from, wanted, |at, masks| {
            seen.push((at, masks));
            ControlFlow::<()>::Continue(())
        });
        assert_eq!(none, None);
        seen
    }

    #[test]
    fn vector_masks_are_the_masks_byte_by_byte() {
        let mut block = [0u8; BLOCK];
        for (i, byte) in block.iter_mut().enumerate() {
            *byte = b"\"\\{}[]a\n"[i * 7 % 8];
        }
        block[63] = b'}';
        block[0] = b'"';
        let wanted = *b"\"\\{}[]\na";
        let expected = byte_by_byte(&block, wanted);
        assert!(expected.iter().all(|&mask| mask != 0), "{expected:?}");
        assert_eq!(blocks(&block, 0, wanted), [(0, expected)]);
        #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
        {
            // SAFETY: as in `scan`.
            assert_eq!(unsafe { sse2(&block, wanted) }, expected);
            if std::is_x86_feature_detected!("avx2") {
                // SAFETY: just asked.
                assert_eq!(unsafe { avx2(&block, wanted) }, expected);
            }
        }
    }

    #[test]
    fn the_last_block_is_padded_with_spaces_and_a_break_stops_the_scan() {
        let text = b"a\nb\n\n";
        assert_eq!(blocks(text, 0, [b'\n']), [(0, [0b11010])]);
        assert_eq!(blocks(text, 3, [b'\n', b'a']), [(3, [0b11, 0])]);
        assert_eq!(blocks(text, 5, [b'\n']), []);
        let long = [b'x'; 200];
        // 190 bytes from the tenth: two whole blocks and a padded one.
        assert_eq!(blocks(&long, 10, [b'x']).len(), 3);
        let mut steps = 0;
        let second = scan(&long, 0, [b'x'], |at, _| {
            steps += 1;
            match at {
                0 => ControlFlow::Continue(()),
                _ => ControlFlow::Break(at),
            }
        });
        assert_eq!((second, steps), (Some(BLOCK), 2));
    }
}
