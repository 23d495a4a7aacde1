//! The HTML report's last line of defence: every string from a capture or a finding goes
//! through here before it reaches the page, as element text or as an attribute value.

use std::fmt::Write as _;

/// `s` as element text: markup characters escaped, and characters that could change how
/// the text reads (control characters, bidirectional overrides) shown as visible marks.
pub fn text(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + s.len() / 8);
    push_text(&mut out, s);
    out
}

/// Appends `s` to `out` as element text; see [`text`].
pub fn push_text(out: &mut String, s: &str) {
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '\n' | '\t' => out.push(c),
            // CR before LF is the line ending; a lone CR is shown.
            '\r' => {}
            c => push_shown(out, c),
        }
    }
}

/// Prose from a finding or a rule (``a `Content-Type` header``): as [`text`], with each
/// backquoted part as `<code>`, as the Markdown it is written in would show it.
pub fn prose(s: &str) -> String {
    if s.matches('`').count() % 2 != 0 {
        return text(s);
    }
    let mut out = String::with_capacity(s.len() + 16);
    for (i, part) in s.split('`').enumerate() {
        match i % 2 {
            0 => push_text(&mut out, part),
            _ => {
                out.push_str("<code>");
                push_text(&mut out, part);
                out.push_str("</code>");
            }
        }
    }
    out
}

/// `s` as an attribute value in double quotes: as [`text`], with line breaks and tabs as
/// character references so that they survive attribute normalisation.
pub fn attr(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\n' => out.push_str("&#10;"),
            '\t' => out.push_str("&#9;"),
            '\r' => out.push_str("&#13;"),
            c => push_text(&mut out, c.encode_utf8(&mut [0; 4])),
        }
    }
    out
}

/// A string reduced to what an `id` or a `data-` value may safely hold: ASCII letters,
/// digits and `-`; anything else becomes `-`.
pub fn token(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect()
}

/// A character other than markup: as it is, or as a visible mark when it is a control
/// character or one that reorders text (Trojan Source, CVE-2021-42574).
fn push_shown(out: &mut String, c: char) {
    match c {
        // C0 controls as their Control Pictures (␀, ␛...), DEL as ␡.
        '\u{0}'..='\u{1F}' => out.push(char::from_u32(0x2400 + c as u32).unwrap_or('\u{FFFD}')),
        '\u{7F}' => out.push('\u{2421}'),
        // C1 controls, bidirectional embeddings, overrides and isolates, the BOM and
        // noncharacters: named by code point.
        '\u{80}'..='\u{9F}'
        | '\u{200E}'
        | '\u{200F}'
        | '\u{202A}'..='\u{202E}'
        | '\u{2066}'..='\u{2069}'
        | '\u{FEFF}'
        | '\u{FFFE}'
        | '\u{FFFF}' => {
            let _ = write!(out, "<span class=\"cp\">U+{:04X}</span>", c as u32);
        }
        c => out.push(c),
    }
}

/// Capture bytes as text: valid UTF-8 as it is, anything else as U+FFFD.
pub fn lossy(bytes: &[u8]) -> std::borrow::Cow<'_, str> {
    String::from_utf8_lossy(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_is_escaped_in_text() {
        assert_eq!(
            text("<script>alert(1)</script>"),
            "&lt;script&gt;alert(1)&lt;/script&gt;"
        );
        assert_eq!(text("a & b"), "a &amp; b");
        assert_eq!(text("</pre>"), "&lt;/pre&gt;");
    }

    #[test]
    fn quotes_cannot_leave_an_attribute() {
        let hostile = "\"><img src=x onerror=alert(1)>";
        let escaped = attr(hostile);
        assert_eq!(escaped, "&quot;&gt;&lt;img src=x onerror=alert(1)&gt;");
        assert!(!escaped.contains(['"', '<', '>']));
        assert_eq!(attr("it's"), "it&#39;s");
    }

    #[test]
    fn attributes_keep_line_breaks_as_references() {
        assert_eq!(attr("a\nb\tc\r"), "a&#10;b&#9;c&#13;");
    }

    #[test]
    fn control_characters_are_shown_not_sent() {
        assert_eq!(text("a\u{0}b\u{1B}[31m"), "a\u{2400}b\u{241B}[31m");
        assert_eq!(text("\u{7F}"), "\u{2421}");
        assert_eq!(text("line\r\n"), "line\n");
    }

    #[test]
    fn bidi_overrides_are_named() {
        assert_eq!(text("a\u{202E}b"), "a<span class=\"cp\">U+202E</span>b");
        assert_eq!(text("\u{2066}"), "<span class=\"cp\">U+2066</span>");
    }

    #[test]
    fn prose_shows_backquotes_as_code_and_stays_escaped() {
        assert_eq!(prose("a `<b>` header"), "a <code>&lt;b&gt;</code> header");
        assert_eq!(prose("one ` only <i>"), "one ` only &lt;i&gt;");
    }

    #[test]
    fn tokens_hold_no_markup() {
        assert_eq!(token("body-not-json"), "body-not-json");
        assert_eq!(token("a\"><b"), "a---b");
    }

    #[test]
    fn invalid_utf8_is_replaced() {
        assert_eq!(lossy(b"ok\xFF"), "ok\u{FFFD}");
    }
}
