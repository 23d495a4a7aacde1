//! Recognises credential header lines in the text a report is about to show, so their
//! values are masked in every window whatever message they belong to.

/// Headers whose values are credentials.
const CREDENTIAL_HEADERS: &[&str] = &[
    "authorization",
    "proxy-authorization",
    "cookie",
    "set-cookie",
    "x-api-key",
    "api-key",
];

/// Is `name` a header whose value is a credential?
pub fn is_credential(name: &str) -> bool {
    CREDENTIAL_HEADERS
        .iter()
        .any(|c| name.trim().eq_ignore_ascii_case(c))
}

/// If `line` is a credential header line, the offset in it where the value starts.
pub fn credential_value_start(line: &[u8]) -> Option<usize> {
    let colon = line.iter().position(|&b| b == b':')?;
    let name = line[..colon].trim_ascii();
    let is_credential = CREDENTIAL_HEADERS
        .iter()
        .any(|c| name.eq_ignore_ascii_case(c.as_bytes()));
    if !is_credential {
        return None;
    }
    let leading = line[colon + 1..]
        .iter()
        .take_while(|b| **b == b' ' || **b == b'\t')
        .count();
    Some(colon + 1 + leading)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_values_of_credential_headers_only() {
        assert_eq!(credential_value_start(b"Authorization: Bearer x"), Some(15));
        assert_eq!(credential_value_start(b"cookie:\tsid=1"), Some(8));
        assert_eq!(credential_value_start(b"X-Api-Key:k"), Some(10));
        assert_eq!(
            credential_value_start(b"Content-Type: application/json"),
            None
        );
        assert_eq!(credential_value_start(b"no colon here"), None);
    }
}
