//! The JSON-RPC binding: its requests and responses, and the exchanges answered right.

use serde_json::{Value, json};

use super::errors::{A2A_ERRORS, DOMAIN, bad_request, error_info, rpc_error_body, rpc_right_error};
use super::json_text::compact;
use super::message::{Exchange, Message};
use super::scenarios::Generator;
use super::stream::A2A_JS;

/// A JSON-RPC success response's body.
pub(super) fn rpc_success(id: &Value, result: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": result})
}

impl Generator {
    fn next_rpc_id(&mut self) -> Value {
        self.rpc_id += 1;
        if self.rng.chance(0.25) {
            json!(format!("req-{}", self.rpc_id))
        } else {
            json!(self.rpc_id)
        }
    }

    pub(super) fn rpc_request(&mut self, method: &str, params: Value) -> (Value, Message) {
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

    pub(super) fn rpc_response(&mut self, body: Value, status: u16) -> Message {
        let python = self.rng.chance(0.5);
        let mut response = Message::response(status).json("application/json", compact(&body));
        response = self.server_headers(response, python);
        self.maybe_compress(response)
    }

    /// `request` and an HTTP 200 response carrying `body`.
    fn rpc_answer(&mut self, title: &'static str, request: Message, body: Value) -> Exchange {
        let response = self.rpc_response(body, 200);
        Exchange::new(title, request, response)
    }

    // ---------------------------------------------------------------- successes

    pub(super) fn rpc_send(&mut self) -> Exchange {
        let message = self.user_message();
        let (id, request) = self.rpc_request("SendMessage", json!({"message": message}));
        let task = self.task("TASK_STATE_COMPLETED", Some(&message));
        let body = rpc_success(&id, json!({"task": task}));
        self.rpc_answer("SendMessage over JSON-RPC", request, body)
    }

    pub(super) fn rpc_get_task(&mut self) -> Exchange {
        let state = *self.rng.pick(&[
            "TASK_STATE_COMPLETED",
            "TASK_STATE_WORKING",
            "TASK_STATE_SUBMITTED",
        ]);
        let task = self.task(state, None);
        let (id, request) =
            self.rpc_request("GetTask", json!({"id": task["id"], "historyLength": 0}));
        self.rpc_answer("GetTask over JSON-RPC", request, rpc_success(&id, task))
    }

    pub(super) fn rpc_list_tasks(&mut self) -> Exchange {
        let n = self.rng.range(1, 12);
        let tasks: Vec<Value> = (0..n)
            .map(|_| self.task("TASK_STATE_WORKING", None))
            .collect();
        let (id, request) = self.rpc_request("ListTasks", json!({"pageSize": n}));
        let page = json!({"tasks": tasks, "nextPageToken": "", "pageSize": n, "totalSize": n});
        self.rpc_answer("ListTasks over JSON-RPC", request, rpc_success(&id, page))
    }

    pub(super) fn rpc_cancel(&mut self) -> Exchange {
        let task = self.task("TASK_STATE_CANCELED", None);
        let (id, request) = self.rpc_request("CancelTask", json!({"id": task["id"]}));
        self.rpc_answer("CancelTask over JSON-RPC", request, rpc_success(&id, task))
    }

    /// An a2a-js stream: LF lines, each event a full JSON-RPC response with the request's
    /// id, an `event: error` event when it fails.
    pub(super) fn rpc_stream(&mut self, fails: bool) -> Exchange {
        let message = self.user_message();
        let (id, mut request) =
            self.rpc_request("SendStreamingMessage", json!({"message": message}));
        request.headers.push(("Accept", "text/event-stream".into()));
        let task = self.task("TASK_STATE_SUBMITTED", Some(&message));
        let metadata = Some(json!({"taskId": task["id"]}));
        let failure = fails.then(|| {
            let details = json!([error_info("TASK_NOT_FOUND", DOMAIN, metadata)]);
            rpc_error_body(&id, -32001, "Task not found", Some(details))
        });
        let (body, chunks) =
            self.stream_body(&A2A_JS, task, |result| rpc_success(&id, result), failure);
        let response = Message::response(200)
            .header("X-Powered-By", "Express")
            .json("text/event-stream", body)
            .header("Cache-Control", "no-cache")
            .header("Connection", "keep-alive")
            .header("X-Accel-Buffering", "no")
            .chunked(chunks);
        Exchange::new(
            "SendStreamingMessage over JSON-RPC (a2a-js stream)",
            request,
            response,
        )
    }

    // ---------------------------------------------------------------- errors answered right

    pub(super) fn rpc_a2a_error(&mut self) -> Exchange {
        let error = self.rng.pick(A2A_ERRORS);
        let (method, params) = self.failing_operation(error).rpc();
        let (id, request) = self.rpc_request(method, params);
        let body = rpc_right_error(&id, error);
        self.rpc_answer("A2A error over JSON-RPC", request, body)
    }

    pub(super) fn rpc_invalid_params(&mut self) -> Exchange {
        let task = self.rng.uuid();
        let (id, request) = self.rpc_request("GetTask", json!({"id": task, "historyLength": -1}));
        let details = json!([bad_request("historyLength", "must be non-negative")]);
        let body = rpc_error_body(&id, -32602, "Invalid parameters", Some(details));
        self.rpc_answer("invalid params over JSON-RPC", request, body)
    }

    /// A2A 0.3 traffic: slash method names, `kind` members, lowercase roles.
    pub(super) fn legacy_0_3(&mut self) -> Exchange {
        let id = self.next_rpc_id();
        let message_id = self.rng.uuid();
        let text = self.text(4, 20);
        let body = json!({"jsonrpc": "2.0", "id": id, "method": "message/send", "params": {"message": {"kind": "message", "messageId": message_id, "role": "user", "parts": [{"kind": "text", "text": text}]}}});
        let request = self.with_client_headers(
            Message::request("POST", "/").json("application/json", compact(&body)),
        );
        let result = json!({"kind": "task", "id": self.rng.uuid(), "contextId": self.rng.uuid(), "status": {"state": "completed"}, "artifacts": [{"artifactId": self.rng.uuid(), "parts": [{"kind": "text", "text": self.artifact_text()}]}]});
        self.rpc_answer("A2A 0.3 message/send", request, rpc_success(&id, result))
    }
}
