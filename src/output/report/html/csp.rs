//! The HTML report's Content-Security-Policy: nothing is loaded, and only the report's
//! own script, named by its SHA-256 hash, may run, so markup that escaped escaping
//! still could not execute (no inline handler, no injected `<script>`).

use base64::Engine as _;

/// The policy for a page whose one script is `script`.
pub fn policy(script: &str) -> String {
    let hash = base64::engine::general_purpose::STANDARD.encode(sha256(script.as_bytes()));
    format!(
        "default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-{hash}'; \
         base-uri 'none'; form-action 'none'"
    )
}

/// SHA-256 (FIPS 180-4), the hash CSP names a script by.
fn sha256(data: &[u8]) -> [u8; 32] {
    use sha2::Digest as _;
    sha2::Sha256::digest(data).into()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(bytes: &[u8]) -> String {
        bytes.iter().map(|b| format!("{b:02x}")).collect()
    }

    #[test]
    fn sha256_matches_the_standard_vectors() {
        assert_eq!(
            hex(&sha256(b"")),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        assert_eq!(
            hex(&sha256(b"abc")),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        let long = b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
        assert_eq!(
            hex(&sha256(long)),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        );
    }

    #[test]
    fn only_the_hashed_script_may_run() {
        let policy = policy("alert(1)");
        let script = (policy.split("; "))
            .find(|d| d.starts_with("script-src"))
            .unwrap();
        assert!(script.starts_with("script-src 'sha256-"), "{policy}");
        assert!(!script.contains("unsafe"), "{policy}");
    }
}
