//! The A2A error table (spec v1.0.1 §5.4) and the error bodies both bindings answer with.

use serde_json::{Value, json};

use super::scenarios::Generator;

/// An A2A error: its JSON-RPC code, ErrorInfo reason, HTTP status (and the one the v1.0.0
/// table gave), gRPC status and a message.
pub(super) struct A2aError {
    pub(super) code: i64,
    pub(super) reason: &'static str,
    pub(super) http: u16,
    pub(super) http_1_0_0: u16,
    pub(super) grpc: &'static str,
    pub(super) message: &'static str,
}

const fn error(
    code: i64,
    reason: &'static str,
    (http, http_1_0_0): (u16, u16),
    grpc: &'static str,
    message: &'static str,
) -> A2aError {
    A2aError {
        code,
        reason,
        http,
        http_1_0_0,
        grpc,
        message,
    }
}

const PRECONDITION: &str = "FAILED_PRECONDITION";

pub(super) const A2A_ERRORS: &[A2aError] = &[
    error(
        -32001,
        "TASK_NOT_FOUND",
        (404, 404),
        "NOT_FOUND",
        "Task not found",
    ),
    error(
        -32002,
        "TASK_NOT_CANCELABLE",
        (400, 409),
        PRECONDITION,
        "Task cannot be canceled: it is completed",
    ),
    error(
        -32003,
        "PUSH_NOTIFICATION_NOT_SUPPORTED",
        (400, 400),
        PRECONDITION,
        "Push notifications are not supported",
    ),
    error(
        -32004,
        "UNSUPPORTED_OPERATION",
        (400, 400),
        PRECONDITION,
        "This operation is not supported",
    ),
    error(
        -32005,
        "CONTENT_TYPE_NOT_SUPPORTED",
        (400, 415),
        "INVALID_ARGUMENT",
        "Content type image/heic is not supported",
    ),
    error(
        -32006,
        "INVALID_AGENT_RESPONSE",
        (500, 502),
        "INTERNAL",
        "Invalid agent response",
    ),
    error(
        -32007,
        "EXTENDED_AGENT_CARD_NOT_CONFIGURED",
        (400, 400),
        PRECONDITION,
        "Extended agent card is not configured",
    ),
    error(
        -32008,
        "EXTENSION_SUPPORT_REQUIRED",
        (400, 400),
        PRECONDITION,
        "Extension support is required",
    ),
    error(
        -32009,
        "VERSION_NOT_SUPPORTED",
        (400, 400),
        PRECONDITION,
        "Version not supported",
    ),
];

pub(super) const DOMAIN: &str = "a2a-protocol.org";
const ERROR_INFO: &str = "type.googleapis.com/google.rpc.ErrorInfo";
pub(super) const BAD_REQUEST: &str = "type.googleapis.com/google.rpc.BadRequest";

pub(super) fn rpc_error_body(id: &Value, code: i64, message: &str, data: Option<Value>) -> Value {
    let mut error = json!({"code": code, "message": message});
    if let Some(data) = data {
        error["data"] = data;
    }
    json!({"jsonrpc": "2.0", "id": id, "error": error})
}

/// The JSON-RPC error body of `error` as the table gives it, with `data`.
pub(super) fn rpc_a2a_error_body(id: &Value, error: &A2aError, data: Option<Value>) -> Value {
    rpc_error_body(id, error.code, error.message, data)
}

pub(super) fn error_info(reason: &str, domain: &str, metadata: Option<Value>) -> Value {
    let mut info = json!({"@type": ERROR_INFO, "reason": reason, "domain": domain});
    if let Some(metadata) = metadata {
        info["metadata"] = metadata;
    }
    info
}

/// `data` holding one ErrorInfo without metadata.
pub(super) fn error_infos(reason: &str, domain: &str) -> Option<Value> {
    Some(json!([error_info(reason, domain, None)]))
}

/// A BadRequest detail with one field violation.
pub(super) fn bad_request(field: &str, description: &str) -> Value {
    json!({"@type": BAD_REQUEST, "fieldViolations": [{"field": field, "description": description}]})
}

pub(super) fn status_body(code: u16, status: &str, message: &str, details: Vec<Value>) -> Value {
    json!({"error": {"code": code, "status": status, "message": message, "details": details}})
}

/// The HTTP+JSON Status body of `error` as the table gives it, with `details`.
pub(super) fn a2a_status_body(error: &A2aError, details: Vec<Value>) -> Value {
    status_body(error.http, error.grpc, error.message, details)
}

/// The JSON-RPC error body of `error` with the ErrorInfo an agent answering right gives.
pub(super) fn rpc_right_error(id: &Value, error: &A2aError) -> Value {
    rpc_a2a_error_body(id, error, error_infos(error.reason, DOMAIN))
}

pub(super) const HOOK: &str = "https://client.example/hook";

/// What a request that gets an error asks for, in either binding.
pub(super) enum Operation {
    GetTask(String),
    Cancel(String),
    CreatePushConfig(String),
    Stream(Value),
    Send(Value),
    ExtendedCard,
}

impl Operation {
    /// The JSON-RPC method and params.
    pub(super) fn rpc(self) -> (&'static str, Value) {
        match self {
            Operation::GetTask(task) => ("GetTask", json!({"id": task})),
            Operation::Cancel(task) => ("CancelTask", json!({"id": task})),
            Operation::CreatePushConfig(task) => (
                "CreateTaskPushNotificationConfig",
                json!({"taskId": task, "url": HOOK}),
            ),
            Operation::Stream(message) => ("SendStreamingMessage", json!({"message": message})),
            Operation::Send(message) => ("SendMessage", json!({"message": message})),
            Operation::ExtendedCard => ("GetExtendedAgentCard", json!({})),
        }
    }

    /// The HTTP+JSON method, path and body.
    pub(super) fn rest(self) -> (&'static str, String, Option<Value>) {
        match self {
            Operation::GetTask(task) => ("GET", format!("/tasks/{task}"), None),
            Operation::Cancel(task) => ("POST", format!("/tasks/{task}:cancel"), Some(json!({}))),
            Operation::CreatePushConfig(task) => (
                "POST",
                format!("/tasks/{task}/pushNotificationConfigs"),
                Some(json!({"url": HOOK})),
            ),
            Operation::Stream(message) => (
                "POST",
                "/message:stream".into(),
                Some(json!({"message": message})),
            ),
            Operation::Send(message) => (
                "POST",
                "/message:send".into(),
                Some(json!({"message": message})),
            ),
            Operation::ExtendedCard => ("GET", "/extendedAgentCard".into(), None),
        }
    }
}

impl Generator {
    /// The operation a request that gets `error` performs.
    pub(super) fn failing_operation(&mut self, error: &A2aError) -> Operation {
        let task = self.rng.uuid();
        match error.reason {
            "TASK_NOT_CANCELABLE" => Operation::Cancel(task),
            "PUSH_NOTIFICATION_NOT_SUPPORTED" => Operation::CreatePushConfig(task),
            "UNSUPPORTED_OPERATION" => Operation::Stream(self.user_message()),
            "CONTENT_TYPE_NOT_SUPPORTED" => {
                let mut message = self.user_message();
                message["parts"][0]["mediaType"] = json!("image/heic");
                Operation::Send(message)
            }
            "INVALID_AGENT_RESPONSE" | "EXTENSION_SUPPORT_REQUIRED" => {
                Operation::Send(self.user_message())
            }
            "EXTENDED_AGENT_CARD_NOT_CONFIGURED" => Operation::ExtendedCard,
            _ => Operation::GetTask(task),
        }
    }
}
