//! Plans the edits that redact a HAR file: credential header values, every cookie value,
//! and credentials in `postData.text` and `content.text` (base64 bodies included). Only
//! the affected JSON strings are rewritten; the rest of the file keeps its bytes.

use base64::Engine;
use serde_json::Value;

use crate::commands::redact::edit::Edit;
use crate::input::json_span::locate_value;
use crate::input::secrets::{self, PLACEHOLDER};

/// The edits for every entry of a HAR log; none when the file is not one.
pub fn plan(bytes: &[u8]) -> Vec<Edit> {
    let Ok(har) = serde_json::from_slice::<Value>(bytes) else {
        return Vec::new();
    };
    let Some(entries) = har.pointer("/log/entries").and_then(Value::as_array) else {
        return Vec::new();
    };
    let mut targets: Vec<(String, String)> = Vec::new();
    for (i, entry) in entries.iter().enumerate() {
        for side in ["request", "response"] {
            let base = format!("/log/entries/{i}/{side}");
            let Some(message) = entry.get(side) else {
                continue;
            };
            plan_pairs(message, &base, "headers", true, &mut targets);
            plan_pairs(message, &base, "cookies", false, &mut targets);
            plan_text(message, &format!("{base}/postData"), &mut targets);
            plan_text(message, &format!("{base}/content"), &mut targets);
        }
    }
    // Each target is found by its pointer: one scan of the file per credential, which is
    // fine for a command run once on a capture about to be shared.
    targets
        .into_iter()
        .filter_map(|(pointer, replacement)| {
            locate_value(bytes, &pointer).map(|span| Edit::new(span.range(), replacement))
        })
        .collect()
}

/// `headers` or `cookies` arrays of `{name, value}`: credential headers, and every cookie.
fn plan_pairs(
    message: &Value,
    base: &str,
    member: &str,
    headers_only_credentials: bool,
    out: &mut Vec<(String, String)>,
) {
    let Some(pairs) = message.get(member).and_then(Value::as_array) else {
        return;
    };
    for (j, pair) in pairs.iter().enumerate() {
        let name = pair.get("name").and_then(Value::as_str).unwrap_or("");
        let value = pair.get("value").and_then(Value::as_str).unwrap_or("");
        let credential = !headers_only_credentials || secrets::is_credential_header(name);
        if credential && !secrets::is_placeholder(value.as_bytes()) {
            out.push((
                format!("{base}/{member}/{j}/value"),
                format!("\"{PLACEHOLDER}\""),
            ));
        }
    }
}

/// A body held in `text`, plain or base64 (`encoding: "base64"`).
fn plan_text(message: &Value, base: &str, out: &mut Vec<(String, String)>) {
    let pointer = base.rsplit('/').next().unwrap_or("");
    let Some(holder) = message.get(pointer) else {
        return;
    };
    let Some(text) = holder.get("text").and_then(Value::as_str) else {
        return;
    };
    let base64 = holder.get("encoding").and_then(Value::as_str) == Some("base64");
    let decoded = if base64 {
        match base64::engine::general_purpose::STANDARD.decode(text) {
            Ok(bytes) => bytes,
            Err(_) => return,
        }
    } else {
        text.as_bytes().to_vec()
    };
    let found = secrets::find_in_text(&decoded);
    if found.is_empty() {
        return;
    }
    let mut edits: Vec<Edit> = found
        .into_iter()
        .map(|r| Edit::new(r, PLACEHOLDER))
        .collect();
    let redacted = crate::commands::redact::edit::apply(&decoded, &mut edits);
    let new_text = if base64 {
        base64::engine::general_purpose::STANDARD.encode(&redacted)
    } else {
        String::from_utf8_lossy(&redacted).into_owned()
    };
    let json = serde_json::to_string(&new_text).unwrap_or_else(|_| format!("\"{PLACEHOLDER}\""));
    out.push((format!("{base}/text"), json));
}
