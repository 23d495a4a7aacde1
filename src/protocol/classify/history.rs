//! What earlier sends in the same capture looked like, so a rule can notice a retry: the
//! message content, its `messageId`, and whether the answer invited a retry (A2A §3.3.1).

use std::collections::HashMap;
use std::hash::{BuildHasher, Hash, Hasher};

use foldhash::quality::FixedState;

use serde_json::Value;

use crate::protocol::classify::{Binding, ErrorView, ExchangeView};

/// One earlier SendMessage / SendStreamingMessage.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SendRecord {
    /// 0-based exchange index.
    pub exchange: usize,
    /// A hash of what the message says (role, parts, context and task ids): a retry
    /// repeats it.
    pub content: u64,
    pub message_id: Option<String>,
    /// Why the answer invites a retry, when it does: no answer, a 5xx, an internal error.
    pub retryable: Option<&'static str>,
}

/// The sends seen so far in one capture: the latest of each content, found in constant
/// time (a capture of tens of thousands of sends would otherwise be compared pairwise).
#[derive(Debug, Default)]
pub struct Sends {
    /// Keyed by a hash already: mixed again only by the quick fixed-seed hasher.
    latest: HashMap<u64, SendRecord, foldhash::fast::FixedState>,
    any_retryable: bool,
}

impl Sends {
    pub fn record(&mut self, record: SendRecord) {
        self.any_retryable |= record.retryable.is_some();
        self.latest.insert(record.content, record);
    }

    /// Was any earlier send answered with a failure a client retries?
    pub fn any_retryable(&self) -> bool {
        self.any_retryable
    }

    /// The latest earlier send of this content.
    pub fn latest_with(&self, content: u64) -> Option<&SendRecord> {
        self.latest.get(&content)
    }
}

impl ExchangeView<'_, '_> {
    /// The record of this exchange, when it is a send; `errors` are the response's
    /// ([`ExchangeView::errors`]). Worked out once: the engine records every send, and
    /// `retry-new-message-id` compares it with the earlier ones.
    pub fn send_record(&self, errors: &[ErrorView<'_>]) -> Option<&SendRecord> {
        (self.send_record)
            .get_or_init(|| {
                let (_, message) = self.sent_message()?;
                Some(SendRecord {
                    exchange: self.exchange.index,
                    content: content_hash(message),
                    message_id: message
                        .get("messageId")
                        .and_then(Value::as_str)
                        .map(str::to_string),
                    retryable: self.retryable_failure(errors),
                })
            })
            .as_ref()
    }

    /// §3.3.2 system errors and a dropped connection are the failures a client retries.
    fn retryable_failure(&self, errors: &[ErrorView<'_>]) -> Option<&'static str> {
        let Some(response) = &self.response else {
            return Some("no response");
        };
        if response.message.status().is_some_and(|s| s >= 500) {
            return Some("a 5xx answer");
        }
        // A gRPC call that ended without a status (reset, connection lost) may or may not
        // have been processed: exactly the case a retry with the same id is for.
        if self.binding == Binding::Grpc && response.grpc_status.is_none() {
            return Some("a call that ended without a status");
        }
        errors
            .iter()
            .find_map(|e| match (self.binding, e.status()) {
                (Binding::JsonRpc, _) => (e.code() == Some(-32603)).then_some("an internal error"),
                (_, Some("INTERNAL")) => Some("an internal error"),
                (_, Some("UNAVAILABLE")) => Some("an UNAVAILABLE answer"),
                _ => None,
            })
    }
}

/// Hashes the parts of a message that a retry repeats; `messageId` is left out. Each
/// member is hashed as its tree, every node's kind (and length) first, so that two members
/// hash alike exactly when their JSON texts are alike, without writing the text.
fn content_hash(message: &Value) -> u64 {
    // Fixed-seed: the same message hashes alike in every run and on every thread.
    let mut hasher = FixedState::default().build_hasher();
    for member in ["role", "parts", "contextId", "taskId"] {
        member.hash(&mut hasher);
        let value = message.get(member);
        value.is_some().hash(&mut hasher);
        if let Some(value) = value {
            hash_tree(value, &mut hasher);
        }
    }
    hasher.finish()
}

/// Feeds `value` to the hasher so that different JSON texts give different feeds: a
/// number by its kind and exact value (JSON writes `5`, `5.0` and `-0.0` differently), a
/// string as `str` hashes (ended by a byte UTF-8 never holds), containers by their length.
/// The parser's nesting limit bounds the recursion.
fn hash_tree(value: &Value, hasher: &mut impl Hasher) {
    match value {
        Value::Null => hasher.write_u8(0),
        Value::Bool(b) => hasher.write_u8(1 + u8::from(*b)),
        Value::Number(n) => {
            if let Some(u) = n.as_u64() {
                hasher.write_u8(3);
                hasher.write_u64(u);
            } else if let Some(i) = n.as_i64() {
                hasher.write_u8(4);
                hasher.write_i64(i);
            } else {
                hasher.write_u8(5);
                hasher.write_u64(n.as_f64().map_or(0, f64::to_bits));
            }
        }
        Value::String(text) => {
            hasher.write_u8(6);
            text.hash(hasher);
        }
        Value::Array(items) => {
            hasher.write_u8(7);
            hasher.write_usize(items.len());
            items.iter().for_each(|item| hash_tree(item, hasher));
        }
        Value::Object(members) => {
            hasher.write_u8(8);
            hasher.write_usize(members.len());
            for (name, item) in members {
                name.hash(hasher);
                hash_tree(item, hasher);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Members hash alike exactly when their JSON texts are alike.
    #[test]
    fn hashes_what_the_json_text_says() {
        let message = |parts: Value| json!({"role": "ROLE_USER", "parts": parts, "messageId": "m"});
        let hash = |parts: Value| content_hash(&message(parts));
        assert_eq!(
            hash(json!([{"text": "hi"}])),
            content_hash(
                &json!({"messageId": "other", "parts": [{"text": "hi"}], "role": "ROLE_USER"})
            )
        );
        let different = [
            json!([{"text": "hi"}]),
            json!([{"text": "hi "}]),
            json!(["ab", "c"]),
            json!(["a", "bc"]),
            json!([[1], 2]),
            json!([[1, 2]]),
            json!(5),
            json!(5.0),
            json!(-0.0),
            json!(0.0),
            json!(-1),
            json!(u64::MAX),
            json!(null),
            json!(false),
            json!({"a": "b"}),
            json!({"ab": ""}),
        ];
        for (i, a) in different.iter().enumerate() {
            for b in &different[i + 1..] {
                assert_ne!(hash(a.clone()), hash(b.clone()), "{a} / {b}");
            }
        }
    }
}
