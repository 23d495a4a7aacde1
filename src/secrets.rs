//! Finds credentials in capture bytes: credential header values, JSON members that hold
//! credentials (a push config `token`, `authentication.credentials`), and JWT-shaped
//! strings. Used to mask them in every output, by `secret-in-capture`, and by `redact`.

use std::ops::Range;

/// Headers whose values are credentials.
const CREDENTIAL_HEADERS: &[&str] = &[
    "authorization",
    "proxy-authorization",
    "cookie",
    "set-cookie",
    "x-api-key",
    "api-key",
];

/// JSON member names whose string values are credentials.
const CREDENTIAL_MEMBERS: &[&str] = &[
    "token",
    "credentials",
    "password",
    "apiKey",
    "api_key",
    "accessToken",
    "access_token",
    "refreshToken",
    "refresh_token",
    "clientSecret",
    "client_secret",
];

/// What `redact` writes in place of a credential.
pub const PLACEHOLDER: &str = "<redacted>";

/// Is `name` a header whose value is a credential?
pub fn is_credential_header(name: &str) -> bool {
    CREDENTIAL_HEADERS
        .iter()
        .any(|c| name.trim().eq_ignore_ascii_case(c))
}

/// Is this value already a redaction placeholder (`<redacted>`, `REDACTED`, `***`, `xxx`,
/// `Bearer <token>`)? Such values are not secrets.
pub fn is_placeholder(value: &[u8]) -> bool {
    let text = String::from_utf8_lossy(value);
    let text = text.trim();
    // `Bearer xxx`: the scheme is not the secret.
    let secret = text.rsplit(' ').next().unwrap_or(text);
    secret.is_empty()
        || secret.to_ascii_lowercase().contains("redacted")
        || (secret.starts_with('<') && secret.ends_with('>'))
        || secret
            .chars()
            .all(|c| matches!(c, '*' | 'x' | 'X' | '.' | '-' | '_' | '•'))
}

/// Byte ranges in `text` holding credentials that are not placeholders: JWT-shaped
/// strings, and string values of credential members (`"token": "..."`).
pub fn find_in_text(text: &[u8]) -> Vec<Range<usize>> {
    let mut found = member_values(text);
    for jwt in jwt_ranges(text) {
        if !found
            .iter()
            .any(|r| r.start <= jwt.start && jwt.end <= r.end)
        {
            found.push(jwt);
        }
    }
    found.retain(|r| !is_placeholder(&text[r.clone()]));
    found.sort_by_key(|r| r.start);
    found
}

/// The value of a credential header line (`Authorization: Bearer x`), if it is one.
pub fn header_line_value(line: &[u8]) -> Option<Range<usize>> {
    let colon = line.iter().position(|&b| b == b':')?;
    let name = std::str::from_utf8(&line[..colon]).ok()?;
    if !is_credential_header(name) {
        return None;
    }
    let leading = line[colon + 1..]
        .iter()
        .take_while(|b| matches!(b, b' ' | b'\t'))
        .count();
    Some(colon + 1 + leading..line.len())
}

/// JWT-shaped strings: `eyJ` then three base64url segments joined by dots.
fn jwt_ranges(text: &[u8]) -> Vec<Range<usize>> {
    let mut found = Vec::new();
    let mut at = 0;
    while let Some(offset) = memchr::memmem::find(&text[at..], b"eyJ") {
        let start = at + offset;
        let mut end = start;
        let mut dots = 0;
        while end < text.len() {
            match text[end] {
                b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' => end += 1,
                b'.' if dots < 2 => {
                    dots += 1;
                    end += 1;
                }
                _ => break,
            }
        }
        let boundary_before = start == 0 || !text[start - 1].is_ascii_alphanumeric();
        if dots == 2 && boundary_before && end - start >= 20 && text[end - 1] != b'.' {
            found.push(start..end);
        }
        at = end.max(start + 3);
    }
    found
}

/// String values of credential members, without their quotes.
fn member_values(text: &[u8]) -> Vec<Range<usize>> {
    let mut found = Vec::new();
    for member in CREDENTIAL_MEMBERS {
        let key = format!("\"{member}\"");
        let mut at = 0;
        while let Some(offset) = memchr::memmem::find(&text[at..], key.as_bytes()) {
            let after_key = at + offset + key.len();
            at = after_key;
            let rest = &text[after_key..];
            let colon = rest.iter().position(|b| !b.is_ascii_whitespace());
            let Some(colon) = colon.filter(|&c| rest[c] == b':') else {
                continue;
            };
            let value_start = rest[colon + 1..]
                .iter()
                .position(|b| !b.is_ascii_whitespace())
                .map(|p| colon + 1 + p);
            let Some(value_start) = value_start.filter(|&v| rest[v] == b'"') else {
                continue;
            };
            let start = after_key + value_start + 1;
            let mut end = start;
            while end < text.len() && text[end] != b'"' {
                end += if text[end] == b'\\' { 2 } else { 1 };
            }
            let end = end.min(text.len());
            if end > start {
                found.push(start..end);
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_jwts_and_credential_members_but_not_placeholders() {
        let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJlLXZhbHVl";
        let body = format!(
            r#"{{"url":"https://x.example/hook","token":"tok-1234","authentication":{{"scheme":"Bearer","credentials":"{jwt}"}},"note":"{jwt}"}}"#
        );
        let found: Vec<&str> = find_in_text(body.as_bytes())
            .into_iter()
            .map(|r| &body[r])
            .collect();
        assert_eq!(found, ["tok-1234", jwt, jwt]);
        assert!(find_in_text(br#"{"token": "<redacted>", "password": "***"}"#).is_empty());
        assert!(find_in_text(b"eyJ not a jwt.eyJ").is_empty());
    }

    #[test]
    fn header_lines_and_placeholders() {
        assert_eq!(
            header_line_value(b"Authorization: Bearer abc"),
            Some(15..25)
        );
        assert_eq!(header_line_value(b"Content-Type: text/plain"), None);
        for placeholder in [
            "<redacted>",
            "REDACTED",
            "Bearer ***",
            "xxx",
            "Bearer <token>",
            "",
        ] {
            assert!(is_placeholder(placeholder.as_bytes()), "{placeholder}");
        }
        assert!(!is_placeholder(b"Bearer sk-live-123"));
    }
}
