//! What the corpus's messages say (texts, user messages, tasks) and the headers both ends add.

use serde_json::{Value, json};

use super::message::{Framing, Message};
use super::scenarios::Generator;

const WORDS: &[&str] = &[
    "the",
    "report",
    "quarterly",
    "revenue",
    "agent",
    "task",
    "summary",
    "customer",
    "shows",
    "growth",
    "costs",
    "flight",
    "booking",
    "hotel",
    "itinerary",
    "museum",
    "weather",
    "forecast",
    "invoice",
    "contract",
    "review",
    "draft",
    "meeting",
    "notes",
    "translate",
    "image",
    "resize",
    "analysis",
    "budget",
    "plan",
    "schedule",
    "risk",
    "team",
    "project",
    "deadline",
    "approved",
    "pending",
    "and",
    "with",
    "for",
    "of",
    "to",
    "in",
    "on",
    "by",
    "from",
    "percent",
    "held",
    "flat",
    "up",
    "down",
    "Zürich",
    "café",
    "naïve",
    "東京",
    "résumé",
    "€",
    "über",
];

impl Generator {
    pub(super) fn text(&mut self, min_words: usize, max_words: usize) -> String {
        let n = self.rng.range(min_words, max_words);
        let mut out = String::with_capacity(n * 7);
        for i in 0..n {
            if i > 0 {
                out.push(' ');
            }
            out.push_str(WORDS[self.rng.below(WORDS.len())]);
        }
        out
    }

    /// An artifact's text: usually a sentence or two, sometimes pages, rarely a document.
    pub(super) fn artifact_text(&mut self) -> String {
        let roll = self.rng.below(1000);
        let words = match roll {
            0..=899 => self.rng.range(8, 60),
            900..=989 => self.rng.range(200, 2_000),
            990..=998 => self.rng.range(5_000, 30_000),
            _ => self.rng.range(60_000, 150_000),
        }
        .min((self.budget / 8).max(8));
        self.text(words, words)
    }

    pub(super) fn timestamp(&mut self) -> String {
        let s = self.seq;
        format!(
            "2026-11-30T{:02}:{:02}:{:02}.{:06}Z",
            (s / 3600) % 24,
            (s / 60) % 60,
            s % 60,
            self.rng.below(1_000_000)
        )
    }

    pub(super) fn user_message(&mut self) -> Value {
        let mut message = json!({
            "messageId": self.rng.uuid(),
            "role": "ROLE_USER",
            "parts": [{"text": self.text(4, 30)}],
        });
        if self.rng.chance(0.1) {
            message["parts"]
                .as_array_mut()
                .unwrap()
                .push(json!({"url": format!("https://files.example/{}.pdf", self.rng.uuid()), "mediaType": "application/pdf"}));
        }
        message
    }

    pub(super) fn task(&mut self, state: &str, message: Option<&Value>) -> Value {
        let id = self.rng.uuid();
        let context = self.rng.uuid();
        let mut task = json!({
            "id": id,
            "contextId": context,
            "status": {"state": state, "timestamp": self.timestamp()},
        });
        if let Some(message) = message {
            let mut sent = message.clone();
            sent["taskId"] = json!(id);
            sent["contextId"] = json!(context);
            task["history"] = json!([sent]);
        }
        if state == "TASK_STATE_COMPLETED" {
            let count = if self.rng.chance(0.8) {
                1
            } else {
                self.rng.range(2, 4)
            };
            let artifacts: Vec<Value> = (0..count)
                .map(|_| {
                    json!({
                        "artifactId": self.rng.uuid(),
                        "name": self.rng.pick(&["result", "summary", "answer", "report"]),
                        "parts": [{"text": self.artifact_text()}],
                    })
                })
                .collect();
            task["artifacts"] = json!(artifacts);
        }
        task
    }

    pub(super) fn with_client_headers(&mut self, mut message: Message) -> Message {
        let agents = [
            "python-httpx/0.28.1",
            "a2a-js/1.3.0",
            "Go-http-client/1.1",
            "curl/8.11.1",
        ];
        if self.rng.chance(0.7) {
            message
                .headers
                .insert(1, ("User-Agent", self.rng.pick(&agents).to_string()));
        }
        if self.rng.chance(0.5) {
            message.headers.push(("Accept", "application/json".into()));
        }
        message
    }

    pub(super) fn server_headers(&mut self, mut message: Message, python: bool) -> Message {
        let date = format!(
            "Mon, 30 Nov 2026 {:02}:{:02}:{:02} GMT",
            (self.seq / 3600) % 24,
            (self.seq / 60) % 60,
            self.seq % 60
        );
        if python {
            message.headers.insert(0, ("date", date));
            message.headers.insert(1, ("server", "uvicorn".into()));
        } else {
            message
                .headers
                .insert(0, ("X-Powered-By", "Express".into()));
            message.headers.push(("Date", date));
        }
        message
    }

    /// Some responses are compressed or chunked, as servers send them.
    pub(super) fn maybe_compress(&mut self, mut message: Message) -> Message {
        if self.rng.chance(0.05) && message.body.len() > 64 {
            message.gzip = true;
        }
        if self.rng.chance(0.25) {
            message.framing = Framing::Chunked;
        }
        message
    }
}
