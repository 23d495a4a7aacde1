//! A deterministic, seeded generator of recorded A2A traffic, for the benchmarks.
//!
//! Shared by `examples/corpus.rs` (writes corpora to disk), `examples/json_floor.rs` (the
//! serde_json-only floor) and `benches/lint.rs` (criterion); `pcap.rs` writes the same
//! exchanges as a pcap file, for `examples/pcap_corpus.rs` and `benches/pcap.rs`. Nothing
//! it makes is committed.
//!
//! What it makes: JSON-RPC and HTTP+JSON exchanges in a realistic mix: successes (sends,
//! task reads, lists, cancels, agent cards, push configs), every A2A error answered right
//! over both bindings, standard JSON-RPC errors, and errors answered wrong in the ways
//! real agents get them wrong (no ErrorInfo, wrong domain or reason, the v1.0.0 status
//! table, problem+json, HTML error pages, wrong ids, legacy method names, broken JSON...),
//! A2A 0.3 traffic, and server-sent event streams in both SDK framings (a2a-python: CRLF
//! lines, Python-spaced JSON, `event: error`; a2a-js: LF lines, compact JSON-RPC
//! responses). Bodies are framed by `Content-Length`, chunked, or gzip-compressed; files
//! are CRLF or LF, recorded as exact wire bytes or hand-edited with `###` separators.
//! The same exchanges can be written as HAR 1.2 entries.
//!
//! Everything depends only on the seed: the same seed gives the same bytes.

#![allow(dead_code)]

pub mod pcap;

use std::io::Write;

use serde_json::{Value, json};

/// SplitMix64: small, fast, and good enough for test data.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        let mut rng = Rng(seed ^ 0x5DEE_CE66_D1CE_4E5B);
        rng.next_u64();
        rng
    }

    /// An independent stream for item `index` of the seed's run.
    pub fn derive(seed: u64, index: u64) -> Self {
        Rng::new(
            seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03),
        )
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        ((((self.next_u64() >> 11) as u128) * n as u128) >> 53) as usize
    }

    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi - lo + 1)
    }

    /// Uniform in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    pub fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    /// A standard normal deviate (Box-Muller).
    pub fn normal(&mut self) -> f64 {
        let u1 = self.unit().max(1e-12);
        let u2 = self.unit();
        (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos()
    }

    pub fn uuid(&mut self) -> String {
        let a = self.next_u64();
        let b = self.next_u64();
        format!(
            "{:08x}-{:04x}-4{:03x}-{:04x}-{:012x}",
            a >> 32,
            (a >> 16) & 0xffff,
            a & 0xfff,
            0x8000 | (b >> 48) & 0x3fff,
            b & 0xffff_ffff_ffff
        )
    }
}

/// Which traffic a file holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mix {
    /// Mostly successes, some errors answered right, some wrong (about one exchange in
    /// ten has a finding).
    Realistic,
    /// Only exchanges a2alint has nothing to say about.
    Clean,
    /// Only errors answered wrong: many findings.
    Findings,
    /// Only clean JSON-RPC, for tools that read JSON-RPC bodies alone.
    JsonRpc,
}

impl Mix {
    pub fn parse(text: &str) -> Option<Mix> {
        Some(match text {
            "realistic" => Mix::Realistic,
            "clean" => Mix::Clean,
            "findings" => Mix::Findings,
            "jsonrpc" => Mix::JsonRpc,
            _ => return None,
        })
    }
}

/// How a file is written.
#[derive(Clone, Copy, Debug)]
pub struct Style {
    pub crlf: bool,
    /// Exact wire bytes as recorders write them (each start line right after the previous
    /// body), rather than hand-edited text with `###` separators, titles and blank lines.
    pub wire: bool,
}

impl Style {
    pub fn random(rng: &mut Rng) -> Style {
        Style {
            crlf: rng.chance(0.5),
            wire: rng.chance(0.5),
        }
    }

    fn nl(&self) -> &'static str {
        if self.crlf { "\r\n" } else { "\n" }
    }
}

#[derive(Clone, Debug)]
pub enum Start {
    Request { method: &'static str, path: String },
    Response { status: u16, reason: &'static str },
}

/// How a body is framed on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Framing {
    Length,
    Chunked,
    /// No framing header: the body runs to the next delimiter (hand-edited files only).
    ToDelimiter,
    /// A `Content-Length` off by this many bytes (a capture edited by hand).
    WrongLength(i64),
}

#[derive(Clone, Debug)]
pub struct Message {
    pub start: Start,
    /// Headers other than the framing ones (`Content-Length`, `Transfer-Encoding`,
    /// `Content-Encoding`), which the writers add.
    pub headers: Vec<(&'static str, String)>,
    /// The body as a client would see it (not compressed, not chunked).
    pub body: Vec<u8>,
    pub framing: Framing,
    pub gzip: bool,
    /// For chunked streams: where the sender flushed (one chunk per event).
    pub chunks: Vec<usize>,
}

impl Message {
    fn request(method: &'static str, path: impl Into<String>) -> Message {
        Message {
            start: Start::Request {
                method,
                path: path.into(),
            },
            headers: vec![("Host", "agent.example".into())],
            body: Vec::new(),
            framing: Framing::Length,
            gzip: false,
            chunks: Vec::new(),
        }
    }

    fn response(status: u16) -> Message {
        Message {
            start: Start::Response {
                status,
                reason: reason_phrase(status),
            },
            headers: Vec::new(),
            body: Vec::new(),
            framing: Framing::Length,
            gzip: false,
            chunks: Vec::new(),
        }
    }

    fn header(mut self, name: &'static str, value: impl Into<String>) -> Message {
        self.headers.push((name, value.into()));
        self
    }

    fn json(mut self, content_type: &str, body: Vec<u8>) -> Message {
        self.headers
            .push(("Content-Type", content_type.to_string()));
        self.body = body;
        self
    }

    fn is_get(&self) -> bool {
        matches!(self.start, Start::Request { method: "GET", .. })
    }
}

fn reason_phrase(status: u16) -> &'static str {
    match status {
        200 => "OK",
        201 => "Created",
        400 => "Bad Request",
        401 => "Unauthorized",
        404 => "Not Found",
        405 => "Method Not Allowed",
        409 => "Conflict",
        415 => "Unsupported Media Type",
        500 => "Internal Server Error",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        _ => "Error",
    }
}

#[derive(Clone, Debug)]
pub struct Exchange {
    /// A title for the `###` line of hand-edited files.
    pub title: &'static str,
    pub request: Message,
    pub response: Option<Message>,
}

/// An A2A error (spec v1.0.1 §5.4).
struct A2aError {
    code: i64,
    reason: &'static str,
    http: u16,
    http_1_0_0: u16,
    grpc: &'static str,
    message: &'static str,
}

const A2A_ERRORS: &[A2aError] = &[
    A2aError {
        code: -32001,
        reason: "TASK_NOT_FOUND",
        http: 404,
        http_1_0_0: 404,
        grpc: "NOT_FOUND",
        message: "Task not found",
    },
    A2aError {
        code: -32002,
        reason: "TASK_NOT_CANCELABLE",
        http: 400,
        http_1_0_0: 409,
        grpc: "FAILED_PRECONDITION",
        message: "Task cannot be canceled: it is completed",
    },
    A2aError {
        code: -32003,
        reason: "PUSH_NOTIFICATION_NOT_SUPPORTED",
        http: 400,
        http_1_0_0: 400,
        grpc: "FAILED_PRECONDITION",
        message: "Push notifications are not supported",
    },
    A2aError {
        code: -32004,
        reason: "UNSUPPORTED_OPERATION",
        http: 400,
        http_1_0_0: 400,
        grpc: "FAILED_PRECONDITION",
        message: "This operation is not supported",
    },
    A2aError {
        code: -32005,
        reason: "CONTENT_TYPE_NOT_SUPPORTED",
        http: 400,
        http_1_0_0: 415,
        grpc: "INVALID_ARGUMENT",
        message: "Content type image/heic is not supported",
    },
    A2aError {
        code: -32006,
        reason: "INVALID_AGENT_RESPONSE",
        http: 500,
        http_1_0_0: 502,
        grpc: "INTERNAL",
        message: "Invalid agent response",
    },
    A2aError {
        code: -32007,
        reason: "EXTENDED_AGENT_CARD_NOT_CONFIGURED",
        http: 400,
        http_1_0_0: 400,
        grpc: "FAILED_PRECONDITION",
        message: "Extended agent card is not configured",
    },
    A2aError {
        code: -32008,
        reason: "EXTENSION_SUPPORT_REQUIRED",
        http: 400,
        http_1_0_0: 400,
        grpc: "FAILED_PRECONDITION",
        message: "Extension support is required",
    },
    A2aError {
        code: -32009,
        reason: "VERSION_NOT_SUPPORTED",
        http: 400,
        http_1_0_0: 400,
        grpc: "FAILED_PRECONDITION",
        message: "Version not supported",
    },
];

const DOMAIN: &str = "a2a-protocol.org";
const ERROR_INFO: &str = "type.googleapis.com/google.rpc.ErrorInfo";
const BAD_REQUEST: &str = "type.googleapis.com/google.rpc.BadRequest";

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

/// Generates exchanges. Each generator owns its random stream and counters.
pub struct Generator {
    pub rng: Rng,
    mix: Mix,
    /// Sequence number for ids and timestamps.
    seq: u64,
    rpc_id: u64,
    /// Bytes the file being written still has room for: long artifacts are cut to it, so
    /// files end near their planned size.
    pub budget: usize,
}

impl Generator {
    pub fn new(rng: Rng, mix: Mix) -> Self {
        Generator {
            rng,
            mix,
            seq: 0,
            rpc_id: 0,
            budget: usize::MAX,
        }
    }

    /// The next exchange of the mix.
    pub fn exchange(&mut self) -> Exchange {
        self.seq += 1;
        match self.mix {
            Mix::Clean => self.success(),
            Mix::JsonRpc => self.jsonrpc_clean(),
            Mix::Findings => self.wrong_error(),
            Mix::Realistic => {
                let roll = self.rng.below(1000);
                match roll {
                    0..=799 => self.success(),
                    800..=899 => self.right_error(),
                    900..=919 => self.legacy_0_3(),
                    _ => self.wrong_error(),
                }
            }
        }
    }

    fn success(&mut self) -> Exchange {
        match self.rng.below(100) {
            0..=21 => self.rpc_send(),
            22..=31 => self.rpc_get_task(),
            32..=34 => self.rpc_list_tasks(),
            35..=36 => self.rpc_cancel(),
            37..=44 => self.rpc_stream(false),
            45..=61 => self.rest_send(),
            62..=73 => self.rest_get_task(),
            74..=82 => self.rest_stream(false),
            83..=85 => self.rest_list_tasks(),
            86..=88 => self.agent_card(),
            89..=90 => self.rest_push_config(),
            91..=95 => {
                let fails = self.rng.chance(0.3);
                self.rpc_stream(fails)
            }
            _ => {
                let fails = self.rng.chance(0.3);
                self.rest_stream(fails)
            }
        }
    }

    fn jsonrpc_clean(&mut self) -> Exchange {
        match self.rng.below(10) {
            0..=4 => self.rpc_send(),
            5..=6 => self.rpc_get_task(),
            7 => self.rpc_list_tasks(),
            8 => self.rpc_cancel(),
            _ => self.rpc_a2a_error(),
        }
    }

    fn right_error(&mut self) -> Exchange {
        match self.rng.below(10) {
            0..=3 => self.rpc_a2a_error(),
            4..=7 => self.rest_a2a_error(),
            8 => self.rpc_invalid_params(),
            _ => self.rest_unavailable(),
        }
    }

    // ---------------------------------------------------------------- building blocks

    fn text(&mut self, min_words: usize, max_words: usize) -> String {
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
    fn artifact_text(&mut self) -> String {
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

    fn timestamp(&mut self) -> String {
        let s = self.seq;
        format!(
            "2026-11-30T{:02}:{:02}:{:02}.{:06}Z",
            (s / 3600) % 24,
            (s / 60) % 60,
            s % 60,
            self.rng.below(1_000_000)
        )
    }

    fn user_message(&mut self, task_id: Option<&str>) -> Value {
        let mut message = json!({
            "messageId": self.rng.uuid(),
            "role": "ROLE_USER",
            "parts": [{"text": self.text(4, 30)}],
        });
        if let Some(task) = task_id {
            message["taskId"] = json!(task);
        }
        if self.rng.chance(0.1) {
            message["parts"]
                .as_array_mut()
                .unwrap()
                .push(json!({"url": format!("https://files.example/{}.pdf", self.rng.uuid()), "mediaType": "application/pdf"}));
        }
        message
    }

    fn task(&mut self, state: &str, message: Option<&Value>) -> Value {
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

    fn next_rpc_id(&mut self) -> Value {
        self.rpc_id += 1;
        if self.rng.chance(0.25) {
            json!(format!("req-{}", self.rpc_id))
        } else {
            json!(self.rpc_id)
        }
    }

    fn rpc_request(&mut self, method: &str, params: Value) -> (Value, Message) {
        let id = self.next_rpc_id();
        let body = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        let path = *self
            .rng
            .pick(&["/a2a", "/a2a/jsonrpc", "/", "/api/agent/rpc"]);
        let request = Message::request("POST", path)
            .json("application/json", compact(&body))
            .header("A2A-Version", "1.0");
        (id, self.with_client_headers(request))
    }

    fn with_client_headers(&mut self, mut message: Message) -> Message {
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

    fn server_headers(&mut self, mut message: Message, python: bool) -> Message {
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

    fn rpc_response(&mut self, body: Value, status: u16) -> Message {
        let python = self.rng.chance(0.5);
        let mut response = Message::response(status).json("application/json", compact(&body));
        response = self.server_headers(response, python);
        self.maybe_compress(response)
    }

    /// Some responses are compressed or chunked, as servers send them.
    fn maybe_compress(&mut self, mut message: Message) -> Message {
        if self.rng.chance(0.05) && message.body.len() > 64 {
            message.gzip = true;
        }
        if self.rng.chance(0.25) {
            message.framing = Framing::Chunked;
        }
        message
    }

    fn rest_request(&mut self, method: &'static str, path: String, body: Option<Value>) -> Message {
        let prefix = *self.rng.pick(&["", "", "/a2a/rest", "/api/v2"]);
        let mut request = Message::request(method, format!("{prefix}{path}"));
        if let Some(body) = body {
            let ct = if self.rng.chance(0.7) {
                "application/a2a+json"
            } else {
                "application/json"
            };
            request = request.json(ct, python_json(&body));
        }
        request = request.header("A2A-Version", "1.0");
        self.with_client_headers(request)
    }

    fn rest_response(&mut self, status: u16, body: &Value) -> Message {
        let python = self.rng.chance(0.6);
        let bytes = if python {
            python_json(body)
        } else {
            compact(body)
        };
        let response = Message::response(status).json("application/a2a+json", bytes);
        let response = self.server_headers(response, python);
        self.maybe_compress(response)
    }

    fn rpc_error_body(id: &Value, code: i64, message: &str, data: Option<Value>) -> Value {
        let mut error = json!({"code": code, "message": message});
        if let Some(data) = data {
            error["data"] = data;
        }
        json!({"jsonrpc": "2.0", "id": id, "error": error})
    }

    fn error_info(reason: &str, domain: &str, metadata: Option<Value>) -> Value {
        let mut info = json!({"@type": ERROR_INFO, "reason": reason, "domain": domain});
        if let Some(metadata) = metadata {
            info["metadata"] = metadata;
        }
        info
    }

    fn status_body(code: u16, status: &str, message: &str, details: Vec<Value>) -> Value {
        json!({"error": {"code": code, "status": status, "message": message, "details": details}})
    }

    fn task_path_and_op(&mut self, error: &A2aError) -> (&'static str, String, Option<Value>) {
        let task = self.rng.uuid();
        match error.reason {
            "TASK_NOT_CANCELABLE" => ("POST", format!("/tasks/{task}:cancel"), Some(json!({}))),
            "PUSH_NOTIFICATION_NOT_SUPPORTED" => (
                "POST",
                format!("/tasks/{task}/pushNotificationConfigs"),
                Some(json!({"url": "https://client.example/hook"})),
            ),
            "UNSUPPORTED_OPERATION" => (
                "POST",
                "/message:stream".into(),
                Some(json!({"message": self.user_message(None)})),
            ),
            "CONTENT_TYPE_NOT_SUPPORTED" => {
                let mut message = self.user_message(None);
                message["parts"][0]["mediaType"] = json!("image/heic");
                (
                    "POST",
                    "/message:send".into(),
                    Some(json!({"message": message})),
                )
            }
            "INVALID_AGENT_RESPONSE" | "EXTENSION_SUPPORT_REQUIRED" => (
                "POST",
                "/message:send".into(),
                Some(json!({"message": self.user_message(None)})),
            ),
            "EXTENDED_AGENT_CARD_NOT_CONFIGURED" => ("GET", "/extendedAgentCard".into(), None),
            _ => ("GET", format!("/tasks/{task}"), None),
        }
    }

    fn rpc_method_for(&mut self, error: &A2aError) -> (&'static str, Value) {
        let task = self.rng.uuid();
        match error.reason {
            "TASK_NOT_CANCELABLE" => ("CancelTask", json!({"id": task})),
            "PUSH_NOTIFICATION_NOT_SUPPORTED" => (
                "CreateTaskPushNotificationConfig",
                json!({"taskId": task, "url": "https://client.example/hook"}),
            ),
            "UNSUPPORTED_OPERATION" => (
                "SendStreamingMessage",
                json!({"message": self.user_message(None)}),
            ),
            "CONTENT_TYPE_NOT_SUPPORTED" => {
                let mut message = self.user_message(None);
                message["parts"][0]["mediaType"] = json!("image/heic");
                ("SendMessage", json!({"message": message}))
            }
            "INVALID_AGENT_RESPONSE" | "EXTENSION_SUPPORT_REQUIRED" => {
                ("SendMessage", json!({"message": self.user_message(None)}))
            }
            "EXTENDED_AGENT_CARD_NOT_CONFIGURED" => ("GetExtendedAgentCard", json!({})),
            _ => ("GetTask", json!({"id": task})),
        }
    }

    // ---------------------------------------------------------------- successes

    fn rpc_send(&mut self) -> Exchange {
        let message = self.user_message(None);
        let (id, request) = self.rpc_request("SendMessage", json!({"message": message}));
        let task = self.task("TASK_STATE_COMPLETED", Some(&message));
        let response = self.rpc_response(
            json!({"jsonrpc": "2.0", "id": id, "result": {"task": task}}),
            200,
        );
        Exchange {
            title: "SendMessage over JSON-RPC",
            request,
            response: Some(response),
        }
    }

    fn rpc_get_task(&mut self) -> Exchange {
        let state = *self.rng.pick(&[
            "TASK_STATE_COMPLETED",
            "TASK_STATE_WORKING",
            "TASK_STATE_SUBMITTED",
        ]);
        let task = self.task(state, None);
        let (id, request) =
            self.rpc_request("GetTask", json!({"id": task["id"], "historyLength": 0}));
        let response = self.rpc_response(json!({"jsonrpc": "2.0", "id": id, "result": task}), 200);
        Exchange {
            title: "GetTask over JSON-RPC",
            request,
            response: Some(response),
        }
    }

    fn rpc_list_tasks(&mut self) -> Exchange {
        let n = self.rng.range(1, 12);
        let tasks: Vec<Value> = (0..n)
            .map(|_| self.task("TASK_STATE_WORKING", None))
            .collect();
        let (id, request) = self.rpc_request("ListTasks", json!({"pageSize": n}));
        let response = self.rpc_response(
            json!({"jsonrpc": "2.0", "id": id, "result": {"tasks": tasks, "nextPageToken": "", "pageSize": n, "totalSize": n}}),
            200,
        );
        Exchange {
            title: "ListTasks over JSON-RPC",
            request,
            response: Some(response),
        }
    }

    fn rpc_cancel(&mut self) -> Exchange {
        let task = self.task("TASK_STATE_CANCELED", None);
        let (id, request) = self.rpc_request("CancelTask", json!({"id": task["id"]}));
        let response = self.rpc_response(json!({"jsonrpc": "2.0", "id": id, "result": task}), 200);
        Exchange {
            title: "CancelTask over JSON-RPC",
            request,
            response: Some(response),
        }
    }

    /// An a2a-js stream: LF lines, each event a full JSON-RPC response with the request's
    /// id, an `event: error` event when it fails.
    fn rpc_stream(&mut self, fails: bool) -> Exchange {
        let message = self.user_message(None);
        let (id, mut request) =
            self.rpc_request("SendStreamingMessage", json!({"message": message}));
        request.headers.push(("Accept", "text/event-stream".into()));
        let task = self.task("TASK_STATE_SUBMITTED", Some(&message));
        let (task_id, context) = (task["id"].clone(), task["contextId"].clone());
        let mut events = vec![json!({"jsonrpc": "2.0", "id": id, "result": {"task": task}})];
        for _ in 0..self.rng.range(1, 6) {
            events.push(json!({"jsonrpc": "2.0", "id": id, "result": {"statusUpdate": {"taskId": task_id, "contextId": context, "status": {"state": "TASK_STATE_WORKING", "timestamp": self.timestamp()}}}}));
            if self.rng.chance(0.5) {
                events.push(json!({"jsonrpc": "2.0", "id": id, "result": {"artifactUpdate": {"taskId": task_id, "contextId": context, "artifact": {"artifactId": self.rng.uuid(), "parts": [{"text": self.artifact_text()}]}}}}));
            }
        }
        let mut body = Vec::new();
        let mut chunks = Vec::new();
        for event in &events {
            body.extend_from_slice(b"data: ");
            body.extend_from_slice(&compact(event));
            body.extend_from_slice(b"\n\n");
            chunks.push(body.len());
        }
        if fails {
            body.extend_from_slice(b"event: error\ndata: ");
            body.extend_from_slice(&compact(&Self::rpc_error_body(
                &id,
                -32001,
                "Task not found",
                Some(json!([Self::error_info(
                    "TASK_NOT_FOUND",
                    DOMAIN,
                    Some(json!({"taskId": task_id}))
                )])),
            )));
            body.extend_from_slice(b"\n\n");
        } else {
            body.extend_from_slice(
                format!("data: {}\n\n", String::from_utf8(compact(&json!({"jsonrpc": "2.0", "id": id, "result": {"statusUpdate": {"taskId": task_id, "contextId": context, "status": {"state": "TASK_STATE_COMPLETED", "timestamp": self.timestamp()}}}}))).unwrap()).as_bytes(),
            );
        }
        chunks.push(body.len());
        let mut response = Message::response(200)
            .header("X-Powered-By", "Express")
            .json("text/event-stream", body)
            .header("Cache-Control", "no-cache")
            .header("Connection", "keep-alive")
            .header("X-Accel-Buffering", "no");
        response.framing = Framing::Chunked;
        response.chunks = chunks;
        Exchange {
            title: "SendStreamingMessage over JSON-RPC (a2a-js stream)",
            request,
            response: Some(response),
        }
    }

    fn rest_send(&mut self) -> Exchange {
        let message = self.user_message(None);
        let request = self.rest_request(
            "POST",
            "/message:send".into(),
            Some(json!({"message": message})),
        );
        let task = self.task("TASK_STATE_COMPLETED", Some(&message));
        let response = self.rest_response(200, &json!({"task": task}));
        Exchange {
            title: "SendMessage over HTTP+JSON",
            request,
            response: Some(response),
        }
    }

    fn rest_get_task(&mut self) -> Exchange {
        let state = *self
            .rng
            .pick(&["TASK_STATE_COMPLETED", "TASK_STATE_WORKING"]);
        let task = self.task(state, None);
        let request = self.rest_request(
            "GET",
            format!("/tasks/{}", task["id"].as_str().unwrap()),
            None,
        );
        let response = self.rest_response(200, &task);
        Exchange {
            title: "GetTask over HTTP+JSON",
            request,
            response: Some(response),
        }
    }

    fn rest_list_tasks(&mut self) -> Exchange {
        let n = self.rng.range(1, 12);
        let tasks: Vec<Value> = (0..n)
            .map(|_| self.task("TASK_STATE_COMPLETED", None))
            .collect();
        let request = self.rest_request("GET", format!("/tasks?pageSize={n}"), None);
        let response = self.rest_response(
            200,
            &json!({"tasks": tasks, "nextPageToken": "", "pageSize": n, "totalSize": n}),
        );
        Exchange {
            title: "ListTasks over HTTP+JSON",
            request,
            response: Some(response),
        }
    }

    fn rest_push_config(&mut self) -> Exchange {
        let task = self.rng.uuid();
        let request = self.rest_request(
            "POST",
            format!("/tasks/{task}/pushNotificationConfigs"),
            Some(json!({"url": "https://client.example/hook"})),
        );
        let config = self.rng.uuid();
        let response = self.rest_response(
            200,
            &json!({"taskId": task, "id": config, "url": "https://client.example/hook"}),
        );
        Exchange {
            title: "CreateTaskPushNotificationConfig over HTTP+JSON",
            request,
            response: Some(response),
        }
    }

    fn agent_card(&mut self) -> Exchange {
        let request =
            self.with_client_headers(Message::request("GET", "/.well-known/agent-card.json"));
        let skills: Vec<Value> = (0..self.rng.range(1, 6))
            .map(|i| json!({"id": format!("skill-{i}"), "name": self.text(1, 3), "description": self.text(8, 30), "tags": ["demo"]}))
            .collect();
        let card = json!({
            "name": "Travel Agent", "description": self.text(10, 40), "version": "1.4.2",
            "supportedInterfaces": [
                {"url": "https://agent.example/a2a", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
                {"url": "https://agent.example/", "protocolBinding": "HTTP+JSON", "protocolVersion": "1.0"}],
            "capabilities": {"streaming": true, "pushNotifications": false},
            "defaultInputModes": ["text/plain"], "defaultOutputModes": ["text/plain"], "skills": skills,
        });
        let response = Message::response(200).json("application/json", compact(&card));
        let response = self.server_headers(response, true);
        Exchange {
            title: "agent card",
            request,
            response: Some(response),
        }
    }

    /// An a2a-python stream: CRLF lines, Python-spaced JSON, ping comments, and a
    /// well-formed `event: error` Status when it fails.
    fn rest_stream(&mut self, fails: bool) -> Exchange {
        let message = self.user_message(None);
        let mut request = self.rest_request(
            "POST",
            "/message:stream".into(),
            Some(json!({"message": message})),
        );
        request.headers.push(("Accept", "text/event-stream".into()));
        let task = self.task("TASK_STATE_SUBMITTED", Some(&message));
        let (task_id, context) = (task["id"].clone(), task["contextId"].clone());
        let mut events = vec![json!({"task": task})];
        for _ in 0..self.rng.range(1, 6) {
            events.push(json!({"statusUpdate": {"taskId": task_id, "contextId": context, "status": {"state": "TASK_STATE_WORKING", "timestamp": self.timestamp()}}}));
            if self.rng.chance(0.5) {
                events.push(json!({"artifactUpdate": {"taskId": task_id, "contextId": context, "artifact": {"artifactId": self.rng.uuid(), "name": "echo", "parts": [{"text": self.artifact_text()}]}}}));
            }
        }
        let mut body = Vec::new();
        let mut chunks = Vec::new();
        for (i, event) in events.iter().enumerate() {
            if i == 2 && self.rng.chance(0.3) {
                body.extend_from_slice(
                    format!(
                        ": ping - 2026-11-30 09:14:05.{:06}+00:00\r\n\r\n",
                        self.rng.below(1_000_000)
                    )
                    .as_bytes(),
                );
            }
            body.extend_from_slice(b"data: ");
            body.extend_from_slice(&python_json(event));
            body.extend_from_slice(b"\r\n\r\n");
            chunks.push(body.len());
        }
        if fails {
            body.extend_from_slice(b"event: error\r\ndata: ");
            body.extend_from_slice(&python_json(&Self::status_body(
                500,
                "INTERNAL",
                "Agent execution failed",
                vec![Self::error_info("INTERNAL_ERROR", DOMAIN, None)],
            )));
            body.extend_from_slice(b"\r\n\r\n");
        } else {
            body.extend_from_slice(b"data: ");
            body.extend_from_slice(&python_json(&json!({"statusUpdate": {"taskId": task_id, "contextId": context, "status": {"state": "TASK_STATE_COMPLETED", "timestamp": self.timestamp()}}})));
            body.extend_from_slice(b"\r\n\r\n");
        }
        chunks.push(body.len());
        let mut response = Message::response(200)
            .header("date", "Mon, 30 Nov 2026 12:29:11 GMT")
            .header("server", "uvicorn")
            .header("cache-control", "no-store")
            .header("x-accel-buffering", "no")
            .json("text/event-stream; charset=utf-8", body);
        response.framing = Framing::Chunked;
        response.chunks = chunks;
        Exchange {
            title: "SendStreamingMessage over HTTP+JSON (a2a-python stream)",
            request,
            response: Some(response),
        }
    }

    // ---------------------------------------------------------------- errors answered right

    fn rpc_a2a_error(&mut self) -> Exchange {
        let error = self.rng.pick(A2A_ERRORS);
        let (method, params) = self.rpc_method_for(error);
        let (id, request) = self.rpc_request(method, params);
        let body = Self::rpc_error_body(
            &id,
            error.code,
            error.message,
            Some(json!([Self::error_info(error.reason, DOMAIN, None)])),
        );
        let response = self.rpc_response(body, 200);
        Exchange {
            title: "A2A error over JSON-RPC",
            request,
            response: Some(response),
        }
    }

    fn rest_a2a_error(&mut self) -> Exchange {
        let error = self.rng.pick(A2A_ERRORS);
        let (method, path, body) = self.task_path_and_op(error);
        let request = self.rest_request(method, path, body);
        let mut info = Self::error_info(error.reason, DOMAIN, None);
        if error.reason == "UNSUPPORTED_OPERATION" {
            info["metadata"] = json!({"capability": "streaming"});
        }
        let response = self.rest_response(
            error.http,
            &Self::status_body(error.http, error.grpc, error.message, vec![info]),
        );
        Exchange {
            title: "A2A error over HTTP+JSON",
            request,
            response: Some(response),
        }
    }

    fn rpc_invalid_params(&mut self) -> Exchange {
        let task = self.rng.uuid();
        let (id, request) = self.rpc_request("GetTask", json!({"id": task, "historyLength": -1}));
        let body = Self::rpc_error_body(
            &id,
            -32602,
            "Invalid parameters",
            Some(
                json!([{"@type": BAD_REQUEST, "fieldViolations": [{"field": "historyLength", "description": "must be non-negative"}]}]),
            ),
        );
        let response = self.rpc_response(body, 200);
        Exchange {
            title: "invalid params over JSON-RPC",
            request,
            response: Some(response),
        }
    }

    fn rest_unavailable(&mut self) -> Exchange {
        let task = self.rng.uuid();
        let request = self.rest_request("GET", format!("/tasks/{task}"), None);
        let response = self
            .rest_response(
                503,
                &Self::status_body(503, "UNAVAILABLE", "Agent is overloaded", vec![]),
            )
            .header("Retry-After", "30");
        Exchange {
            title: "overloaded agent",
            request,
            response: Some(response),
        }
    }

    /// A2A 0.3 traffic: slash method names, `kind` members, lowercase roles.
    fn legacy_0_3(&mut self) -> Exchange {
        let id = self.next_rpc_id();
        let message_id = self.rng.uuid();
        let text = self.text(4, 20);
        let body = json!({"jsonrpc": "2.0", "id": id, "method": "message/send", "params": {"message": {"kind": "message", "messageId": message_id, "role": "user", "parts": [{"kind": "text", "text": text}]}}});
        let request = self.with_client_headers(
            Message::request("POST", "/").json("application/json", compact(&body)),
        );
        let result = json!({"kind": "task", "id": self.rng.uuid(), "contextId": self.rng.uuid(), "status": {"state": "completed"}, "artifacts": [{"artifactId": self.rng.uuid(), "parts": [{"kind": "text", "text": self.artifact_text()}]}]});
        let response =
            self.rpc_response(json!({"jsonrpc": "2.0", "id": id, "result": result}), 200);
        Exchange {
            title: "A2A 0.3 message/send",
            request,
            response: Some(response),
        }
    }

    // ---------------------------------------------------------------- errors answered wrong

    fn wrong_error(&mut self) -> Exchange {
        let error = self.rng.pick(A2A_ERRORS);
        let rpc = self.rng.chance(0.5);
        let kind = self.rng.below(22);
        if rpc {
            let (method, params) = self.rpc_method_for(error);
            let (id, mut request) = self.rpc_request(method, params);
            let info = |reason: &str, domain: &str| json!([Self::error_info(reason, domain, None)]);
            let (body, status, title) = match kind {
                0..=2 => (
                    Self::rpc_error_body(&id, error.code, error.message, None),
                    200,
                    "JSON-RPC error without ErrorInfo",
                ),
                3 => (
                    Self::rpc_error_body(
                        &id,
                        error.code,
                        error.message,
                        Some(info(error.reason, "a2a.dev")),
                    ),
                    200,
                    "ErrorInfo in the wrong domain",
                ),
                4 => (
                    Self::rpc_error_body(
                        &id,
                        error.code,
                        error.message,
                        Some(info("TaskNotFound", DOMAIN)),
                    ),
                    200,
                    "ErrorInfo reason not UPPER_SNAKE_CASE",
                ),
                5 => {
                    let other = A2A_ERRORS[(A2A_ERRORS
                        .iter()
                        .position(|e| e.code == error.code)
                        .unwrap()
                        + 1)
                        % A2A_ERRORS.len()]
                    .reason;
                    (
                        Self::rpc_error_body(
                            &id,
                            error.code,
                            error.message,
                            Some(info(other, DOMAIN)),
                        ),
                        200,
                        "code and reason disagree",
                    )
                }
                6 => (
                    Self::rpc_error_body(
                        &id,
                        error.code,
                        error.message,
                        Some(info(error.reason, DOMAIN)),
                    ),
                    500,
                    "JSON-RPC error with HTTP 500",
                ),
                7 => {
                    let wrong_id = json!(format!("other-{}", self.rng.below(1000)));
                    (
                        Self::rpc_error_body(
                            &wrong_id,
                            error.code,
                            error.message,
                            Some(info(error.reason, DOMAIN)),
                        ),
                        200,
                        "response id differs",
                    )
                }
                8 => (
                    Self::rpc_error_body(&id, -32099, "Server error", None),
                    200,
                    "unassigned reserved code",
                ),
                9 => (
                    Self::rpc_error_body(
                        &id,
                        error.code,
                        error.message,
                        Some(json!([{"reason": error.reason, "domain": DOMAIN}])),
                    ),
                    200,
                    "detail without @type",
                ),
                10 => (
                    Self::rpc_error_body(
                        &id,
                        error.code,
                        error.message,
                        Some(json!([Self::error_info(
                            error.reason,
                            DOMAIN,
                            Some(json!({"retryable": false, "attempt": 2}))
                        )])),
                    ),
                    200,
                    "metadata values not strings",
                ),
                11 => (
                    Self::rpc_error_body(
                        &id,
                        error.code,
                        error.message,
                        Some(json!([
                            Self::error_info(error.reason, DOMAIN, None),
                            Self::error_info(error.reason, DOMAIN, None)
                        ])),
                    ),
                    200,
                    "two ErrorInfos",
                ),
                12 => (
                    Self::rpc_error_body(
                        &id,
                        -32602,
                        "Invalid params",
                        Some(
                            json!([{"@type": BAD_REQUEST, "fieldViolations": [{"field": "params.message.message_id", "description": "required"}]}]),
                        ),
                    ),
                    200,
                    "snake_case field path",
                ),
                13 => (
                    Self::rpc_error_body(&id, -32602, "bad request", None),
                    200,
                    "non-standard message for a standard code",
                ),
                14 => (
                    Self::rpc_error_body(
                        &id,
                        error.code,
                        "Something went wrong, please retry",
                        Some(info(error.reason, DOMAIN)),
                    ),
                    200,
                    "message reads as another error",
                ),
                15 => {
                    // A 0.3 method name while declaring 1.0.
                    let body = json!({"jsonrpc": "2.0", "id": id, "method": "tasks/get", "params": {"id": self.rng.uuid()}});
                    request.body = compact(&body);
                    (
                        Self::rpc_error_body(
                            &id,
                            -32001,
                            "Task not found",
                            Some(info("TASK_NOT_FOUND", DOMAIN)),
                        ),
                        200,
                        "legacy method name",
                    )
                }
                16 => {
                    request.headers.retain(|(name, _)| *name != "A2A-Version");
                    (
                        Self::rpc_error_body(
                            &id,
                            error.code,
                            error.message,
                            Some(info(error.reason, DOMAIN)),
                        ),
                        200,
                        "no A2A-Version",
                    )
                }
                17 => {
                    // Broken JSON in the response.
                    let mut body = compact(&Self::rpc_error_body(
                        &id,
                        error.code,
                        error.message,
                        Some(info(error.reason, DOMAIN)),
                    ));
                    body.truncate(body.len() - 3);
                    let response = Message::response(200).json("application/json", body);
                    return Exchange {
                        title: "truncated JSON body",
                        request,
                        response: Some(response),
                    };
                }
                18 => {
                    let response = Message::response(502)
                        .json("text/html", b"<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>".to_vec());
                    return Exchange {
                        title: "proxy error page",
                        request,
                        response: Some(response),
                    };
                }
                19 => {
                    // A message without messageId, answered with success.
                    let body = json!({"jsonrpc": "2.0", "id": id, "method": "SendMessage", "params": {"message": {"role": "ROLE_USER", "parts": [{"text": self.text(3, 10)}]}}});
                    request.body = compact(&body);
                    let task = self.task("TASK_STATE_COMPLETED", None);
                    (
                        json!({"jsonrpc": "2.0", "id": id, "result": {"task": task}}),
                        200,
                        "message without messageId accepted",
                    )
                }
                20 => {
                    request.framing = Framing::WrongLength(-(self.rng.range(1, 9) as i64));
                    (
                        Self::rpc_error_body(
                            &id,
                            error.code,
                            error.message,
                            Some(info(error.reason, DOMAIN)),
                        ),
                        200,
                        "edited capture: Content-Length off",
                    )
                }
                _ => {
                    // A stream whose error event is not JSON.
                    let mut response = Message::response(200).json("text/event-stream", format!("data: {}\n\nevent: error\ndata: {{\"jsonrpc\":\"2.0\",\"id\":{id},\"error\":{{\"code\":-32603\n\n", String::from_utf8(compact(&json!({"jsonrpc": "2.0", "id": id, "result": {"task": self.task("TASK_STATE_WORKING", None)}}))).unwrap()).into_bytes());
                    response.framing = Framing::Chunked;
                    return Exchange {
                        title: "stream error event not JSON",
                        request,
                        response: Some(response),
                    };
                }
            };
            let response = self.rpc_response(body, status);
            return Exchange {
                title,
                request,
                response: Some(response),
            };
        }
        let (method, path, req_body) = self.task_path_and_op(error);
        let request = self.rest_request(method, path, req_body);
        let info = Self::error_info(error.reason, DOMAIN, None);
        let (status, body, content_type, title): (u16, Value, &str, &str) = match kind {
            0..=2 => (
                error.http,
                Self::status_body(error.http, error.grpc, error.message, vec![]),
                "application/a2a+json",
                "HTTP+JSON error without ErrorInfo",
            ),
            3 => (
                error.http,
                Self::status_body(
                    error.http,
                    error.grpc,
                    error.message,
                    vec![Self::error_info(error.reason, "googleapis.com", None)],
                ),
                "application/a2a+json",
                "ErrorInfo in the wrong domain",
            ),
            4 => (
                error.http_1_0_0,
                Self::status_body(error.http_1_0_0, error.grpc, error.message, vec![info]),
                "application/a2a+json",
                "v1.0.0 status table",
            ),
            5 => (
                error.http,
                Self::status_body(error.http, "UNIMPLEMENTED", error.message, vec![info]),
                "application/a2a+json",
                "gRPC status disagrees",
            ),
            6..=7 => (
                error.http,
                json!({"type": format!("https://a2a-protocol.org/errors/{}", error.reason.to_ascii_lowercase()), "title": error.message, "status": error.http, "detail": error.message}),
                "application/problem+json",
                "problem+json error",
            ),
            8 => (
                error.http,
                json!({"code": error.http, "message": error.message}),
                "application/a2a+json",
                "error without the Status wrapper",
            ),
            9 => (
                error.http,
                Self::status_body(500, error.grpc, error.message, vec![info]),
                "application/a2a+json",
                "error.code is not the HTTP status",
            ),
            10 => (
                error.http,
                Self::status_body(error.http, error.grpc, error.message, vec![info]),
                "application/json",
                "error typed application/json",
            ),
            11 => (
                error.http,
                Self::status_body(
                    error.http,
                    error.grpc,
                    error.message,
                    vec![json!({"reason": error.reason, "domain": DOMAIN})],
                ),
                "application/a2a+json",
                "detail without @type",
            ),
            12 => (
                error.http,
                Self::status_body(
                    error.http,
                    error.grpc,
                    error.message,
                    vec![info.clone(), info],
                ),
                "application/a2a+json",
                "two ErrorInfos",
            ),
            13 => (
                400,
                Self::status_body(
                    400,
                    "INVALID_ARGUMENT",
                    "Invalid request",
                    vec![
                        json!({"@type": BAD_REQUEST, "fieldViolations": [{"field": "message.message_id", "description": "required"}]}),
                    ],
                ),
                "application/a2a+json",
                "snake_case field path",
            ),
            14 => (
                error.http,
                Self::status_body(
                    error.http,
                    error.grpc,
                    error.message,
                    vec![Self::error_info(
                        &error.reason.to_ascii_lowercase(),
                        DOMAIN,
                        None,
                    )],
                ),
                "application/a2a+json",
                "lowercase reason",
            ),
            15 => (
                error.http,
                Self::status_body(
                    error.http,
                    error.grpc,
                    error.message,
                    vec![Self::error_info(
                        error.reason,
                        DOMAIN,
                        Some(json!(["not", "an", "object"])),
                    )],
                ),
                "application/a2a+json",
                "metadata not an object",
            ),
            16 => (
                400,
                Self::status_body(
                    400,
                    "INVALID_ARGUMENT",
                    "Request payload validation error",
                    vec![],
                ),
                "application/a2a+json",
                "validation error without BadRequest",
            ),
            17 => {
                let response = Message::response(500).json(
                    "text/plain; charset=utf-8",
                    b"Internal Server Error".to_vec(),
                );
                return Exchange {
                    title: "plain-text error page",
                    request,
                    response: Some(response),
                };
            }
            18 => {
                let mut body = python_json(&Self::status_body(
                    error.http,
                    error.grpc,
                    error.message,
                    vec![info],
                ));
                body.truncate(body.len() / 2);
                let response = Message::response(error.http).json("application/a2a+json", body);
                return Exchange {
                    title: "error body cut short",
                    request,
                    response: Some(response),
                };
            }
            19 => {
                let mut response = Message::response(error.http).json(
                    "application/a2a+json",
                    python_json(&Self::status_body(
                        error.http,
                        error.grpc,
                        error.message,
                        vec![info],
                    )),
                );
                response.gzip = true;
                response.headers.push(("Vary", "Accept-Encoding".into()));
                let mut request = request;
                request.headers.retain(|(name, _)| *name != "A2A-Version");
                return Exchange {
                    title: "gzip error, no A2A-Version",
                    request,
                    response: Some(response),
                };
            }
            20 => {
                // A stream that sets two payloads in one event.
                let body = format!("data: {}\r\n\r\n", String::from_utf8(python_json(&json!({"task": {"id": "t", "contextId": "c", "status": {"state": "TASK_STATE_WORKING"}}, "statusUpdate": {"taskId": "t", "contextId": "c", "status": {"state": "TASK_STATE_WORKING"}}}))).unwrap());
                let mut response =
                    Message::response(200).json("text/event-stream", body.into_bytes());
                response.framing = Framing::Chunked;
                return Exchange {
                    title: "stream event with two payloads",
                    request,
                    response: Some(response),
                };
            }
            _ => (
                error.http,
                Self::status_body(error.http, error.grpc, "Unknown task id", vec![info]),
                "application/a2a+json",
                "message reads as another error",
            ),
        };
        let bytes = if self.rng.chance(0.5) {
            python_json(&body)
        } else {
            compact(&body)
        };
        let response = Message::response(status).json(content_type, bytes);
        let response = self.server_headers(response, true);
        let response = self.maybe_compress(response);
        Exchange {
            title,
            request,
            response: Some(response),
        }
    }
}

// -------------------------------------------------------------------- JSON text

pub fn compact(value: &Value) -> Vec<u8> {
    serde_json::to_vec(value).expect("serialisable")
}

/// JSON as Python's `json.dumps` writes it: `", "` and `": "` separators.
pub fn python_json(value: &Value) -> Vec<u8> {
    struct Spaced;
    impl serde_json::ser::Formatter for Spaced {
        fn begin_array_value<W: ?Sized + Write>(
            &mut self,
            w: &mut W,
            first: bool,
        ) -> std::io::Result<()> {
            if first { Ok(()) } else { w.write_all(b", ") }
        }
        fn begin_object_key<W: ?Sized + Write>(
            &mut self,
            w: &mut W,
            first: bool,
        ) -> std::io::Result<()> {
            if first { Ok(()) } else { w.write_all(b", ") }
        }
        fn begin_object_value<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
            w.write_all(b": ")
        }
    }
    let mut out = Vec::new();
    let mut ser = serde_json::Serializer::with_formatter(&mut out, Spaced);
    serde::Serialize::serialize(value, &mut ser).expect("serialisable");
    out
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    encoder.write_all(bytes).expect("in memory");
    encoder.finish().expect("in memory")
}

// -------------------------------------------------------------------- .http files

/// One message as the exact bytes a TCP connection carries (CRLF lines, every body framed
/// by `Content-Length` or chunked), for `pcap.rs`. A `Content-Length` edited by hand would
/// put the rest of the connection out of step, so it is written true here.
pub fn wire_message(out: &mut Vec<u8>, message: &Message) {
    let style = Style {
        crlf: true,
        wire: true,
    };
    if let Framing::WrongLength(_) = message.framing {
        let mut message = message.clone();
        message.framing = Framing::Length;
        write_message(out, &message, style);
    } else {
        write_message(out, message, style);
    }
}

/// Writes one message as HTTP/1.1 text; returns nothing, the caller separates messages.
fn write_message(out: &mut Vec<u8>, message: &Message, style: Style) {
    let nl = style.nl();
    match &message.start {
        Start::Request { method, path } => write!(out, "{method} {path} HTTP/1.1{nl}"),
        Start::Response { status, reason } => write!(out, "HTTP/1.1 {status} {reason}{nl}"),
    }
    .expect("in memory");
    for (name, value) in &message.headers {
        write!(out, "{name}: {value}{nl}").expect("in memory");
    }
    let compressed;
    let body: &[u8] = if message.gzip {
        out.extend_from_slice(format!("Content-Encoding: gzip{nl}").as_bytes());
        compressed = gzip(&message.body);
        &compressed
    } else {
        &message.body
    };
    let framing = match message.framing {
        // A body without framing cannot be followed directly by the next message.
        Framing::ToDelimiter if style.wire || message.gzip => Framing::Length,
        other => other,
    };
    match framing {
        _ if body.is_empty() && !matches!(message.start, Start::Response { .. }) => {}
        Framing::Length => write!(out, "Content-Length: {}{nl}", body.len()).expect("in memory"),
        Framing::WrongLength(by) => write!(
            out,
            "Content-Length: {}{nl}",
            (body.len() as i64 + by).max(0)
        )
        .expect("in memory"),
        Framing::Chunked => write!(out, "Transfer-Encoding: chunked{nl}").expect("in memory"),
        Framing::ToDelimiter => {}
    }
    out.extend_from_slice(nl.as_bytes());
    if framing == Framing::Chunked {
        // One chunk per flush for streams; otherwise pieces of a few KiB.
        let mut cuts: Vec<usize> = if message.gzip || message.chunks.is_empty() {
            (1..)
                .map(|i| i * 4096)
                .take_while(|&c| c < body.len())
                .chain(std::iter::once(body.len()))
                .collect()
        } else {
            message.chunks.clone()
        };
        cuts.dedup();
        let mut at = 0;
        for cut in cuts {
            if cut > at {
                write!(out, "{:x}\r\n", cut - at).expect("in memory");
                out.extend_from_slice(&body[at..cut]);
                out.extend_from_slice(b"\r\n");
                at = cut;
            }
        }
        out.extend_from_slice(b"0\r\n\r\n");
    } else {
        out.extend_from_slice(body);
    }
}

/// Writes exchanges as a `.http` capture until it holds at least `target` bytes.
pub fn http_file(generator: &mut Generator, target: usize, style: Style) -> Vec<u8> {
    http_file_and_streams(generator, target, style, false).0
}

/// The `.http` capture, and with `streams` the same messages as the two byte streams of
/// one connection (requests, responses) that HTTPolice's `streams` input reads. Bodies
/// that run to a delimiter in the capture get a `Content-Length` in the streams.
pub fn http_file_and_streams(
    generator: &mut Generator,
    target: usize,
    style: Style,
    streams: bool,
) -> (Vec<u8>, Vec<u8>, Vec<u8>) {
    let mut out = Vec::with_capacity(target + 64 * 1024);
    let (mut inbound, mut outbound) = (Vec::new(), Vec::new());
    let nl = style.nl();
    let stream_style = Style {
        wire: true,
        ..style
    };
    if !style.wire {
        write!(
            out,
            "# Recorded A2A traffic (generated by examples/corpus.rs){nl}"
        )
        .expect("in memory");
    }
    while out.len() < target {
        generator.budget = target - out.len();
        let mut exchange = generator.exchange();
        if !style.wire {
            write!(out, "### {}{nl}", exchange.title).expect("in memory");
            // Hand-edited captures often drop Content-Length: the body runs to the next
            // message.
            if exchange.request.framing == Framing::Length && generator.rng.chance(0.3) {
                exchange.request.framing = Framing::ToDelimiter;
            }
        }
        write_message(&mut out, &exchange.request, style);
        if streams {
            write_message(&mut inbound, &exchange.request, stream_style);
        }
        if !style.wire {
            out.extend_from_slice(nl.as_bytes());
        }
        if let Some(response) = &exchange.response {
            write_message(&mut out, response, style);
            if streams {
                write_message(&mut outbound, response, stream_style);
            }
            if !style.wire {
                out.extend_from_slice(nl.as_bytes());
            }
        }
    }
    (out, inbound, outbound)
}

// -------------------------------------------------------------------- HAR files

fn har_headers(message: &Message) -> Vec<Value> {
    let mut headers: Vec<Value> = message
        .headers
        .iter()
        .map(|(name, value)| json!({"name": name, "value": value}))
        .collect();
    if message.gzip {
        headers.push(json!({"name": "content-encoding", "value": "gzip"}));
    }
    headers
}

/// One exchange as a HAR entry, the way browsers and mitmproxy export them.
fn har_entry(rng: &mut Rng, index: usize, exchange: &Exchange) -> Value {
    let request = &exchange.request;
    let Start::Request { method, path } = &request.start else {
        unreachable!("requests have request lines")
    };
    let mime = |m: &Message| {
        m.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case("content-type"))
            .map_or(String::new(), |(_, v)| v.clone())
    };
    let text = |body: &[u8]| String::from_utf8_lossy(body).into_owned();
    let mut har_request = json!({
        "method": method,
        "url": format!("https://agent.example{path}"),
        "httpVersion": "HTTP/1.1",
        "cookies": [],
        "headers": har_headers(request),
        "queryString": [],
        "headersSize": -1,
        "bodySize": request.body.len(),
    });
    if !request.body.is_empty() {
        har_request["postData"] = json!({"mimeType": mime(request), "text": text(&request.body)});
    }
    let mut entry = json!({
        "startedDateTime": format!("2026-11-30T{:02}:{:02}:{:02}.{:03}Z", (index / 3600) % 24, (index / 60) % 60, index % 60, rng.below(1000)),
        "time": rng.range(2, 900) as f64 / 3.0,
        "request": har_request,
        "cache": {},
        "timings": {"blocked": -1, "dns": -1, "connect": -1, "ssl": -1, "send": 0.2, "wait": rng.range(1, 800) as f64 / 7.0, "receive": 0.4},
    });
    if let Some(response) = &exchange.response {
        let Start::Response { status, reason } = &response.start else {
            unreachable!("responses have status lines")
        };
        let base64 = rng.chance(0.05);
        let mut content = json!({"size": response.body.len(), "mimeType": mime(response)});
        if base64 {
            use base64::Engine;
            content["text"] =
                json!(base64::engine::general_purpose::STANDARD.encode(&response.body));
            content["encoding"] = json!("base64");
        } else {
            content["text"] = json!(text(&response.body));
        }
        entry["response"] = json!({
            "status": status,
            "statusText": reason,
            "httpVersion": "HTTP/1.1",
            "cookies": [],
            "headers": har_headers(response),
            "content": content,
            "redirectURL": "",
            "headersSize": -1,
            "bodySize": response.body.len(),
        });
    }
    entry
}

/// A HAR 1.2 log of exchanges, pretty-printed as browsers export it, of at least `target`
/// bytes.
pub fn har_file(generator: &mut Generator, target: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(target + 64 * 1024);
    out.extend_from_slice(
        b"{\n  \"log\": {\n    \"version\": \"1.2\",\n    \"creator\": {\n      \"name\": \"a2alint corpus generator\",\n      \"version\": \"0.1\"\n    },\n    \"pages\": [],\n    \"entries\": [",
    );
    let mut index = 0;
    while out.len() < target || index == 0 {
        generator.budget = target.saturating_sub(out.len());
        let exchange = generator.exchange();
        let entry = har_entry(&mut generator.rng, index, &exchange);
        out.extend_from_slice(if index == 0 { b"\n" } else { b",\n" });
        let pretty = serde_json::to_string_pretty(&entry).expect("serialisable");
        for (i, line) in pretty.lines().enumerate() {
            if i > 0 {
                out.push(b'\n');
            }
            out.extend_from_slice(b"      ");
            out.extend_from_slice(line.as_bytes());
        }
        index += 1;
    }
    out.extend_from_slice(b"\n    ]\n  }\n}\n");
    out
}

// -------------------------------------------------------------------- corpora

/// One file of a corpus.
pub struct FilePlan {
    pub name: String,
    pub size: usize,
    pub har: bool,
    pub seed: u64,
}

/// Plans a corpus of `files` files adding up to about `total` bytes: sizes drawn from a
/// log-normal distribution (many small files, a few large ones), one file in a hundred a
/// HAR log when `with_har`.
pub fn plan(seed: u64, total: usize, files: usize, with_har: bool) -> Vec<FilePlan> {
    let mut rng = Rng::derive(seed, u64::MAX);
    // One file in a thousand is a long recording, fifty times the usual weight.
    let weights: Vec<f64> = (0..files)
        .map(|_| (rng.normal() * 1.5).exp() * if rng.chance(0.001) { 50.0 } else { 1.0 })
        .collect();
    let sum: f64 = weights.iter().sum();
    let width = files.to_string().len().max(5);
    weights
        .iter()
        .enumerate()
        .map(|(i, w)| {
            let har = with_har && files >= 10 && rng.chance(0.01);
            FilePlan {
                name: format!("{:0width$}.{}", i, if har { "har" } else { "http" }),
                size: ((w / sum * total as f64) as usize).max(400),
                har,
                seed: i as u64,
            }
        })
        .collect()
}

/// The bytes of one planned file.
pub fn file_bytes(seed: u64, file: &FilePlan, mix: Mix) -> Vec<u8> {
    file_and_streams(seed, file, mix, false).0
}

/// The bytes of one planned file and, for a `.http` file with `streams`, its messages as
/// HTTPolice request and response streams.
pub fn file_and_streams(
    seed: u64,
    file: &FilePlan,
    mix: Mix,
    streams: bool,
) -> (Vec<u8>, Vec<u8>, Vec<u8>) {
    let mut rng = Rng::derive(seed, file.seed);
    let style = Style::random(&mut rng);
    let mut generator = Generator::new(rng, mix);
    if file.har {
        (har_file(&mut generator, file.size), Vec::new(), Vec::new())
    } else {
        http_file_and_streams(&mut generator, file.size, style, streams)
    }
}

/// Parses `10G`, `200M`, `64K` or a plain byte count.
pub fn parse_size(text: &str) -> Option<usize> {
    let text = text.trim();
    let (digits, unit) = match text
        .char_indices()
        .find(|(_, c)| !c.is_ascii_digit() && *c != '.')
    {
        Some((at, _)) => text.split_at(at),
        None => (text, ""),
    };
    let number: f64 = digits.parse().ok()?;
    let scale = match unit
        .to_ascii_uppercase()
        .trim_end_matches("IB")
        .trim_end_matches('B')
    {
        "" => 1.0,
        "K" => 1024.0,
        "M" => 1024.0 * 1024.0,
        "G" => 1024.0 * 1024.0 * 1024.0,
        _ => return None,
    };
    Some((number * scale) as usize)
}
