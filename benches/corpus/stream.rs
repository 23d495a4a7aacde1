//! Server-sent event streams in both SDK framings: their events and how each SDK writes them.

use serde_json::{Value, json};

use super::json_text::{compact, python_json};
use super::scenarios::Generator;

/// How an SDK writes a stream.
pub(super) struct SseFraming {
    /// a2a-js ends lines with LF, a2a-python with CRLF.
    nl: &'static str,
    encode: fn(&Value) -> Vec<u8>,
    /// a2a-python sends a ping comment now and then.
    pings: bool,
    /// The name a2a-python's echo agent gives its artifacts; a2a-js gives none.
    artifact_name: Option<&'static str>,
}

/// a2a-js: LF lines, compact JSON.
pub(super) const A2A_JS: SseFraming = SseFraming {
    nl: "\n",
    encode: compact,
    pings: false,
    artifact_name: None,
};

/// a2a-python: CRLF lines, Python-spaced JSON, pings.
pub(super) const A2A_PYTHON: SseFraming = SseFraming {
    nl: "\r\n",
    encode: python_json,
    pings: true,
    artifact_name: Some("echo"),
};

impl SseFraming {
    fn data(&self, body: &mut Vec<u8>, event: &Value) {
        body.extend_from_slice(b"data: ");
        body.extend_from_slice(&(self.encode)(event));
        body.extend_from_slice(self.nl.as_bytes());
        body.extend_from_slice(self.nl.as_bytes());
    }
}

impl Generator {
    /// A stream's body for `task`, and where the sender flushed: the task, one to five
    /// working updates each perhaps followed by an artifact, then the completed status or,
    /// given a `failure`, that as an `event: error`. `wrap` puts each payload into the
    /// binding's envelope.
    pub(super) fn stream_body(
        &mut self,
        framing: &SseFraming,
        task: Value,
        wrap: impl Fn(Value) -> Value,
        failure: Option<Value>,
    ) -> (Vec<u8>, Vec<usize>) {
        let (task_id, context) = (task["id"].clone(), task["contextId"].clone());
        let status = |g: &mut Generator, state: &str| {
            wrap(
                json!({"statusUpdate": {"taskId": task_id, "contextId": context, "status": {"state": state, "timestamp": g.timestamp()}}}),
            )
        };
        let mut events = vec![wrap(json!({"task": task}))];
        for _ in 0..self.rng.range(1, 6) {
            events.push(status(self, "TASK_STATE_WORKING"));
            if self.rng.chance(0.5) {
                let mut artifact = json!({"artifactId": self.rng.uuid()});
                if let Some(name) = framing.artifact_name {
                    artifact["name"] = json!(name);
                }
                artifact["parts"] = json!([{"text": self.artifact_text()}]);
                events.push(wrap(json!({"artifactUpdate": {"taskId": task_id, "contextId": context, "artifact": artifact}})));
            }
        }
        let mut body = Vec::new();
        let mut chunks = Vec::new();
        for (i, event) in events.iter().enumerate() {
            if framing.pings && i == 2 && self.rng.chance(0.3) {
                let at = self.rng.below(1_000_000);
                let nl = framing.nl;
                body.extend_from_slice(
                    format!(": ping - 2026-11-30 09:14:05.{at:06}+00:00{nl}{nl}").as_bytes(),
                );
            }
            framing.data(&mut body, event);
            chunks.push(body.len());
        }
        match failure {
            Some(error) => {
                body.extend_from_slice(b"event: error");
                body.extend_from_slice(framing.nl.as_bytes());
                framing.data(&mut body, &error);
            }
            None => {
                let done = status(self, "TASK_STATE_COMPLETED");
                framing.data(&mut body, &done);
            }
        }
        chunks.push(body.len());
        (body, chunks)
    }
}
