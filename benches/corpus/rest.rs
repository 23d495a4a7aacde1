//! The HTTP+JSON binding: its requests and responses, and the exchanges answered right.

use serde_json::{Value, json};

use super::errors::{A2A_ERRORS, DOMAIN, HOOK, a2a_status_body, error_info, status_body};
use super::json_text::{compact, python_json};
use super::message::{Exchange, Message};
use super::scenarios::Generator;
use super::stream::A2A_PYTHON;

impl Generator {
    pub(super) fn rest_request(
        &mut self,
        method: &'static str,
        path: String,
        body: Option<Value>,
    ) -> Message {
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

    /// `request` and a response of `status` carrying `body`.
    fn rest_answer(
        &mut self,
        title: &'static str,
        request: Message,
        status: u16,
        body: &Value,
    ) -> Exchange {
        let response = self.rest_response(status, body);
        Exchange::new(title, request, response)
    }

    // ---------------------------------------------------------------- successes

    pub(super) fn rest_send(&mut self) -> Exchange {
        let message = self.user_message();
        let body = Some(json!({"message": message}));
        let request = self.rest_request("POST", "/message:send".into(), body);
        let task = self.task("TASK_STATE_COMPLETED", Some(&message));
        self.rest_answer(
            "SendMessage over HTTP+JSON",
            request,
            200,
            &json!({"task": task}),
        )
    }

    pub(super) fn rest_get_task(&mut self) -> Exchange {
        let state = *self
            .rng
            .pick(&["TASK_STATE_COMPLETED", "TASK_STATE_WORKING"]);
        let task = self.task(state, None);
        let path = format!("/tasks/{}", task["id"].as_str().unwrap());
        let request = self.rest_request("GET", path, None);
        self.rest_answer("GetTask over HTTP+JSON", request, 200, &task)
    }

    pub(super) fn rest_list_tasks(&mut self) -> Exchange {
        let n = self.rng.range(1, 12);
        let tasks: Vec<Value> = (0..n)
            .map(|_| self.task("TASK_STATE_COMPLETED", None))
            .collect();
        let request = self.rest_request("GET", format!("/tasks?pageSize={n}"), None);
        let page = json!({"tasks": tasks, "nextPageToken": "", "pageSize": n, "totalSize": n});
        self.rest_answer("ListTasks over HTTP+JSON", request, 200, &page)
    }

    pub(super) fn rest_push_config(&mut self) -> Exchange {
        let task = self.rng.uuid();
        let path = format!("/tasks/{task}/pushNotificationConfigs");
        let request = self.rest_request("POST", path, Some(json!({"url": HOOK})));
        let config = json!({"taskId": task, "id": self.rng.uuid(), "url": HOOK});
        let title = "CreateTaskPushNotificationConfig over HTTP+JSON";
        self.rest_answer(title, request, 200, &config)
    }

    pub(super) fn agent_card(&mut self) -> Exchange {
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
        Exchange::new("agent card", request, response)
    }

    /// An a2a-python stream: CRLF lines, Python-spaced JSON, ping comments, and a
    /// well-formed `event: error` Status when it fails.
    pub(super) fn rest_stream(&mut self, fails: bool) -> Exchange {
        let message = self.user_message();
        let body = Some(json!({"message": message}));
        let mut request = self.rest_request("POST", "/message:stream".into(), body);
        request.headers.push(("Accept", "text/event-stream".into()));
        let task = self.task("TASK_STATE_SUBMITTED", Some(&message));
        let failure = fails.then(|| {
            let details = vec![error_info("INTERNAL_ERROR", DOMAIN, None)];
            status_body(500, "INTERNAL", "Agent execution failed", details)
        });
        let (body, chunks) = self.stream_body(&A2A_PYTHON, task, |event| event, failure);
        let response = Message::response(200)
            .header("date", "Mon, 30 Nov 2026 12:29:11 GMT")
            .header("server", "uvicorn")
            .header("cache-control", "no-store")
            .header("x-accel-buffering", "no")
            .json("text/event-stream; charset=utf-8", body)
            .chunked(chunks);
        Exchange::new(
            "SendStreamingMessage over HTTP+JSON (a2a-python stream)",
            request,
            response,
        )
    }

    // ---------------------------------------------------------------- errors answered right

    pub(super) fn rest_a2a_error(&mut self) -> Exchange {
        let error = self.rng.pick(A2A_ERRORS);
        let (method, path, body) = self.failing_operation(error).rest();
        let request = self.rest_request(method, path, body);
        let mut info = error_info(error.reason, DOMAIN, None);
        if error.reason == "UNSUPPORTED_OPERATION" {
            info["metadata"] = json!({"capability": "streaming"});
        }
        let body = a2a_status_body(error, vec![info]);
        self.rest_answer("A2A error over HTTP+JSON", request, error.http, &body)
    }

    pub(super) fn rest_unavailable(&mut self) -> Exchange {
        let task = self.rng.uuid();
        let request = self.rest_request("GET", format!("/tasks/{task}"), None);
        let body = status_body(503, "UNAVAILABLE", "Agent is overloaded", vec![]);
        let response = self.rest_response(503, &body).header("Retry-After", "30");
        Exchange::new("overloaded agent", request, response)
    }
}
