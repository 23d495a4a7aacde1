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
    // A header name is a token, with nothing to trim: only a name that begins or ends in
    // something else is trimmed (of Unicode whitespace too, as a HAR name may hold it).
    let plain = |b: Option<&u8>| b.is_some_and(u8::is_ascii_graphic);
    let bytes = name.as_bytes();
    let name = match plain(bytes.first()) && plain(bytes.last()) {
        true => name,
        false => name.trim(),
    };
    CREDENTIAL_HEADERS
        .iter()
        .any(|c| name.eq_ignore_ascii_case(c))
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
    // A member key is quoted: text without a quote (most finding messages and labels,
    // which are masked one by one) holds none, and skips the member search's set-up.
    let mut found = match memchr::memchr(b'"', text) {
        Some(_) => member_values(text),
        None => Vec::new(),
    };
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
    static JWT_START: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| memchr::memmem::Finder::new(b"eyJ"));
    while let Some(offset) = JWT_START.find(&text[at..]) {
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
        // An unsecured JWT (RFC 7519 §6) ends with its empty signature: `xxx.yyy.`.
        if dots == 2 && boundary_before && end - start >= 20 {
            found.push(start..end);
        }
        at = end.max(start + 3);
    }
    found
}

/// String values of credential members, without their quotes: plain JSON
/// (`"token": "v"`) and JSON escaped inside a JSON string (`\"token\":\"v\"`, as in a HAR
/// `text` member or an error message quoting a body).
fn member_values(text: &[u8]) -> Vec<Range<usize>> {
    // Every member name is searched for in one pass (a member name holds no quote, so an
    // occurrence that is a key never overlaps another match), and the quotes around it
    // checked. The keys matched are the same as searching for each `"member"` and
    // `\"member\"` in turn, each search going on after its last match.
    static MEMBERS: std::sync::LazyLock<aho_corasick::AhoCorasick> =
        std::sync::LazyLock::new(|| {
            aho_corasick::AhoCorasick::builder()
                .match_kind(aho_corasick::MatchKind::LeftmostLongest)
                .build(CREDENTIAL_MEMBERS)
                .expect("member names are valid patterns")
        });
    let mut found = Vec::new();
    let mut next = [[0usize; 2]; CREDENTIAL_MEMBERS.len()];
    for name in MEMBERS.find_iter(text) {
        let (i, name_start, name_end) = (name.pattern().as_usize(), name.start(), name.end());
        if name_start == 0 || text[name_start - 1] != b'"' {
            continue;
        }
        let quote = name_start - 1;
        // `"member"`
        if text.get(name_end) == Some(&b'"') && quote >= next[i][0] {
            let after_key = name_end + 1;
            next[i][0] = after_key;
            found.extend(string_after_colon(text, after_key, b"\""));
        }
        // `\"member\"`, JSON escaped inside a JSON string
        if quote >= 1
            && text[quote - 1] == b'\\'
            && text[name_end..].starts_with(b"\\\"")
            && quote > next[i][1]
        {
            let after_key = name_end + 2;
            next[i][1] = after_key;
            found.extend(string_after_colon(text, after_key, b"\\\""));
        }
    }
    found
}

/// After a key ending at `at`: `:` then a string opened by `quote`; the string's contents.
fn string_after_colon(text: &[u8], at: usize, quote: &[u8]) -> Option<Range<usize>> {
    // Whitespace, and the `data:` prefix of the next line of an SSE event whose JSON is
    // split over several `data:` lines.
    let skip_space = |mut from: usize| {
        loop {
            let blank = text[from..]
                .iter()
                .take_while(|b| b.is_ascii_whitespace())
                .count();
            let newline = text[from..from + blank].contains(&b'\n');
            from += blank;
            if newline && text[from..].starts_with(b"data:") {
                from += 5;
            } else {
                return from;
            }
        }
    };
    let colon = skip_space(at);
    if text.get(colon) != Some(&b':') {
        return None;
    }
    let open = skip_space(colon + 1);
    if !text[open..].starts_with(quote) {
        return None;
    }
    let start = open + quote.len();
    let mut end = start;
    while end < text.len() && !text[end..].starts_with(quote) {
        // In plain JSON a backslash escapes the next byte; in escaped JSON the quote
        // itself is `\"`, found by `starts_with`, and `\\` is an escaped backslash.
        let escape = (text[end] == b'\\' && quote.len() == 1) || text[end..].starts_with(b"\\\\");
        end += if escape { 2 } else { 1 };
    }
    let end = end.min(text.len());
    (end > start).then_some(start..end)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The one-pass member search finds what searching for each key in turn finds.
    #[test]
    fn member_search_matches_a_search_per_key() {
        fn per_key(text: &[u8]) -> Vec<Range<usize>> {
            let mut found = Vec::new();
            for member in CREDENTIAL_MEMBERS {
                for quote in [&b"\""[..], &b"\\\""[..]] {
                    let key = [quote, member.as_bytes(), quote].concat();
                    let mut at = 0;
                    while let Some(offset) = memchr::memmem::find(&text[at..], &key) {
                        at += offset + key.len();
                        found.extend(string_after_colon(text, at, quote));
                    }
                }
            }
            found.sort_by_key(|r| r.start);
            found
        }
        for text in [
            &br#"{"token": "a", "x": {"password":"b\"c"}, "api_key" : "d"}"#[..],
            br#"{"text": "{\"token\":\"e\",\"accessToken\": \"f\"}"}"#,
            br#""token"token": "g" "token""token":"h" \"token\"token\":\"i\""#,
            b"data: {\"credentials\":\ndata: \"j\"}\n",
            br#"{"refresh_token": 5, "clientSecret": "", "client_secret": "k"#,
            br#"{"oken": "x", "tokentoken": "y", "access_token":"z", "refreshToken" :"w"}"#,
            br#""password""password": "v", "apiKey":"u"" , "credentials":  "t""#,
        ] {
            let mut one_pass = member_values(text);
            one_pass.sort_by_key(|r| r.start);
            assert_eq!(one_pass, per_key(text), "{}", String::from_utf8_lossy(text));
        }
    }

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
        let escaped = br#"{"text": "{\"token\":\"tok-9\",\"url\":\"u\"}"}"#;
        let found: Vec<&[u8]> = find_in_text(escaped)
            .into_iter()
            .map(|r| &escaped[r])
            .collect();
        assert_eq!(found, [&b"tok-9"[..]]);
        let split = b"{\"token\":\n   \"tok-10\"}";
        assert_eq!(find_in_text(split).len(), 1);
        let sse = b"data: {\"token\":\r\ndata: \"tok-11\"}";
        let found: Vec<&[u8]> = find_in_text(sse).into_iter().map(|r| &sse[r]).collect();
        assert_eq!(found, [&b"tok-11"[..]]);
        let unsecured = b"a eyJhbGciOiJub25lIn0.eyJzdWIiOiJ1In0. b";
        assert_eq!(
            find_in_text(unsecured),
            vec![std::ops::Range { start: 2, end: 38 }]
        );
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

    #[test]
    fn credential_headers_by_name_in_any_case_and_padding() {
        for name in [
            "Authorization",
            "x-API-key",
            " Cookie\t",
            "\u{a0}set-cookie\u{2003}",
        ] {
            assert!(is_credential_header(name), "{name:?}");
        }
        for name in ["", " ", "Content-Type", "Authorization2", "a\u{e9}"] {
            assert!(!is_credential_header(name), "{name:?}");
        }
    }
}
