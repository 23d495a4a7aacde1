//! What earlier sends in the same capture looked like, so a rule can notice a retry: the
//! message content, its `messageId`, and whether the answer invited a retry (A2A §3.3.1).

use std::collections::HashMap;
use std::hash::{Hash, Hasher};

use serde_json::Value;

use crate::protocol::classify::{Binding, ExchangeView};

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
    latest: HashMap<u64, SendRecord>,
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
    /// The record of this exchange, when it is a send.
    pub fn send_record(&self) -> Option<SendRecord> {
        let (_, message) = self.sent_message()?;
        Some(SendRecord {
            exchange: self.exchange.index,
            content: content_hash(message),
            message_id: message
                .get("messageId")
                .and_then(Value::as_str)
                .map(str::to_string),
            retryable: self.retryable_failure(),
        })
    }

    /// §3.3.2 system errors and a dropped connection are the failures a client retries.
    fn retryable_failure(&self) -> Option<&'static str> {
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
        self.errors()
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
/// member's JSON text is fed to the hasher as it is written, without building it.
fn content_hash(message: &Value) -> u64 {
    struct Feed<'h>(&'h mut std::collections::hash_map::DefaultHasher);
    impl std::io::Write for Feed<'_> {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.write(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    for member in ["role", "parts", "contextId", "taskId"] {
        member.hash(&mut hasher);
        let value = message.get(member);
        value.is_some().hash(&mut hasher);
        if let Some(value) = value {
            // Writing JSON into a hasher cannot fail.
            let _ = serde_json::to_writer(Feed(&mut hasher), value);
            // Ends the member's text, as hashing a string does.
            hasher.write_u8(0xff);
        }
    }
    hasher.finish()
}
