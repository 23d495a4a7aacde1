//! The quick pass against serde_json: never a different value, and a value on ordinary
//! documents.

use proptest::prelude::*;
use serde_json::{Value, json};

use super::strings::plain_run_end;
use super::{parse, parse_full};
use crate::protocol::classify::json_skim;

/// Whatever the quick pass builds, serde_json builds too: hollow and in full.
fn agrees(text: &str) {
    if let Some(quick) = parse(text) {
        match json_skim::from_str(text) {
            Ok(slow) => assert_eq!(quick, slow, "{text:?}"),
            Err(error) => panic!("quick accepted what serde_json refuses ({error}): {text:?}"),
        }
    }
    if let Some(quick) = parse_full(text) {
        match serde_json::from_str::<Value>(text) {
            Ok(slow) => assert_eq!(quick, slow, "{text:?}"),
            Err(error) => panic!("quick built what serde_json refuses ({error}): {text:?}"),
        }
    }
}

#[test]
fn builds_the_hollow_document_of_a_success_response() {
    let text = r#"{"jsonrpc": "2.0", "id": {"n": [1, -2, 0.5, true, null]},
        "result": {"id": "t\u00e9\n", "history": [{"parts": [{"text": "a \"b\" \\ c"}]}],
        "status": {"state": "TASK_STATE_WORKING", "message": {"x": 1}},
        "task": {"status": {"message": {}, "state": "S"}, "status": 3, "artifacts": []}}}"#;
    let expected = json!({"jsonrpc": "2.0", "id": {"n": [1, -2, 0.5, true, null]},
        "result": {"id": "t\u{e9}\n", "history": [],
        "status": {"state": "TASK_STATE_WORKING", "message": {"x": 1}},
        "task": {"status": {"state": "S"}}}});
    assert_eq!(parse(text), Some(expected));
    agrees(text);
    let full: Value = serde_json::from_str(text).expect("valid");
    assert_eq!(parse_full(text), Some(full));
    for scalar in [r#""plain""#, "12", "[1, {\"a\": []}]", " null "] {
        assert!(parse(scalar).is_some(), "{scalar}");
        assert!(parse_full(scalar).is_some(), "{scalar}");
        agrees(scalar);
    }
}

/// What serde_json should decide, the quick pass leaves to it.
#[test]
fn leaves_doubtful_and_broken_documents_to_serde_json() {
    let deep = format!("{}{}", "[".repeat(MAX), "]".repeat(MAX));
    const MAX: usize = super::MAX_DEPTH as usize + 1;
    for text in [
        r#"{"a": 1e5}"#,
        r#"{"a": 12345678901234567890}"#,
        r#"{"a": 0.1234567890123456789}"#,
        r#"{"a": -0}"#,
        r#"{"a": "\ud83d\ude00"}"#,
        r#"{"task": {"x": "\udc00"}}"#,
        r#"{"a": 1,}"#,
        r#"{"a": [1,]}"#,
        r#"{"a": 01}"#,
        r#"{"a": "\x"}"#,
        r#"{"a": "\u12g4"}"#,
        "{\"a\": \"tab\there\"}",
        r#"{"a": tru}"#,
        r#"{"a": 1} x"#,
        r#"{"a" 1}"#,
        r#"{1: 2}"#,
        r#"{"a": 1.}"#,
        r#"{"a": -}"#,
        "\u{feff}{}",
        deep.as_str(),
    ] {
        assert_eq!(parse(text), None, "{text}");
        assert_eq!(parse_full(text), None, "{text}");
    }
}

#[test]
fn finds_the_end_of_a_plain_run_at_every_offset() {
    let text = b"abcdefgh\"ijklmnop\\qrstuvwx\x1fyz\x7f\x80\xff ok";
    for from in 0..=text.len() {
        let naive = (from..text.len())
            .find(|&at| matches!(text[at], b'"' | b'\\') || text[at] < 0x20)
            .unwrap_or(text.len());
        assert_eq!(plain_run_end(text, from), naive, "from {from}");
    }
}

/// Every byte value at every place of a run longer than the sixteen bytes compared at
/// once, read from every offset: the stop is where the byte is, if it is one.
#[test]
fn finds_any_stop_byte_past_the_first_sixteen() {
    for byte in 0..=u8::MAX {
        for place in 0..40 {
            let mut text = vec![b'a'; 48];
            text[place] = byte;
            let stops = matches!(byte, b'"' | b'\\') || byte < 0x20;
            for from in 0..=place {
                let expected = if stops { place } else { text.len() };
                assert_eq!(
                    plain_run_end(&text, from),
                    expected,
                    "{byte} at {place} from {from}"
                );
            }
        }
    }
}

/// JSON texts built from serde_json's own output, then broken at random.
fn document() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i32>().prop_map(Value::from),
        (-1000.0..1000.0f64).prop_map(Value::from),
        "[a-z\"\\\\/\u{0}-\u{1f}é€😀 ]{0,12}".prop_map(Value::String),
    ];
    let value = leaf.prop_recursive(5, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::vec(
                ("(status|state|task|result|history|id|[a-z]{1,3})", inner),
                0..5
            )
            .prop_map(|members| Value::Object(members.into_iter().collect())),
        ]
    });
    (value, prop::collection::vec((any::<prop::sample::Index>(), 0..12usize), 0..3)).prop_map(
        |(value, edits)| {
            let envelope = json!({"jsonrpc": "2.0", "id": 7, "result": {"task": value.clone()}, "status": value});
            let mut bytes = serde_json::to_vec(&envelope).expect("serializable");
            const JUNK: [&[u8]; 12] = [
                b",", b"}", b"]", b"\"", b"\\", b"\\u", b"e5", b"-", b" ", b"\x01", b"00", b"",
            ];
            for (at, junk) in edits {
                let at = at.index(bytes.len() + 1);
                bytes.splice(at..at, JUNK[junk].iter().copied());
            }
            String::from_utf8_lossy(&bytes).into_owned()
        },
    )
}

proptest! {
    #[test]
    fn never_builds_what_serde_json_would_not(text in document()) {
        agrees(&text);
    }

    #[test]
    fn builds_every_ordinary_document(value in any::<i32>().prop_map(Value::from), name in "[a-z]{0,8}") {
        let mut envelope = json!({"result": {"task": {"status": {"state": name}, "history": [value]}}});
        envelope[name.as_str()] = json!([value, "x\n"]);
        let text = serde_json::to_string(&envelope).expect("serializable");
        prop_assert!(parse(&text).is_some(), "{}", text);
        prop_assert!(parse_full(&text).is_some(), "{}", text);
        agrees(&text);
    }
}
