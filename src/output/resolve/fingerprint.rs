//! Fingerprints: a finding's logical identity (rule, file, exchange, JSON member,
//! occurrence) hashed, so that baselines, SARIF and GitLab can follow a finding when lines
//! move and unrelated exchanges come and go. The file is its path from the repository
//! root (`crate::input::repo_root`), so the identity is the same from every directory.

/// A stable 64-bit FNV-1a hash of `parts`, in hex. Stable across runs, platforms and
/// a2alint versions, unlike the standard library's hasher.
pub fn hash(parts: &[&str]) -> String {
    (parts.iter())
        .fold(Fingerprint::START, |hash, part| hash.part(part))
        .finish()
}

/// A [`hash`] fed part by part, so that a resolver hashes the parts every finding of a
/// rule in a file shares (the rule and the file's path, most of the bytes) once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fingerprint(u64);

impl Fingerprint {
    pub const START: Fingerprint = Fingerprint(0xcbf2_9ce4_8422_2325);

    /// The hash with `part` added. Each part is followed by 0xff, a byte no UTF-8 text
    /// holds, so that part boundaries count. A plain loop: a chained iterator per byte
    /// cost more than the hash.
    pub fn part(self, part: &str) -> Fingerprint {
        let mut hash = self.0;
        let mut mix = |byte: u8| {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        };
        part.bytes().for_each(&mut mix);
        mix(0xff);
        Fingerprint(hash)
    }

    pub fn finish(self) -> String {
        hex(self.0)
    }
}

/// `hash` as 16 lowercase hex digits, as `{:016x}` writes it, without the formatting
/// machinery: every diagnostic gets a fingerprint.
fn hex(hash: u64) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut digits = [0; 16];
    for (at, digit) in digits.iter_mut().enumerate() {
        *digit = DIGITS[((hash >> ((15 - at) * 4)) & 0xf) as usize];
    }
    // Hex digits are ASCII, so the bytes are the string; no char-by-char building.
    String::from_utf8(digits.to_vec()).expect("hex digits are ASCII")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stable_and_sensitive_to_part_boundaries() {
        assert_eq!(hash(&["a", "b"]), hash(&["a", "b"]));
        assert_ne!(hash(&["ab", ""]), hash(&["a", "b"]));
        // Pinned: a change here would orphan every stored baseline.
        assert_eq!(hash(&["error-info-missing", "x.http"]), "2ba9eb3de7bdd069");
        let shared = Fingerprint::START.part("error-info-missing");
        assert_eq!(shared.part("x.http").finish(), "2ba9eb3de7bdd069");
        for n in [0, 1, 0xabc, u64::MAX, 0x0123_4567_89ab_cdef] {
            assert_eq!(hex(n), format!("{n:016x}"));
        }
    }
}
