//! Errors answered wrong over JSON-RPC, the ways real agents get them wrong: a table.

use serde_json::{Value, json};

use super::errors::{
    A2A_ERRORS, A2aError, DOMAIN, bad_request, error_info, error_infos, rpc_a2a_error_body,
    rpc_error_body, rpc_right_error,
};
use super::json_text::compact;
use super::jsonrpc::rpc_success;
use super::message::{Exchange, Framing, Message};
use super::scenarios::{Generator, WRONG_KINDS, Weighted, pick, total};

/// What a way of answering wrong gives: a body the usual response carries, with its HTTP
/// status, or a response of its own.
enum Answer {
    Body(Value, u16),
    Response(Message),
}

/// Answers the request (which it may edit) for the error, with the request's id.
type Wrong = fn(&mut Generator, &A2aError, &Value, &mut Message) -> Answer;

const fn ok(body: Value) -> Answer {
    Answer::Body(body, 200)
}

const PROXY_PAGE: &[u8] = b"<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>";

const WRONG_RPC: Weighted<(&str, Wrong)> = &[
    (
        3,
        ("JSON-RPC error without ErrorInfo", |_, e, id, _| {
            ok(rpc_a2a_error_body(id, e, None))
        }),
    ),
    (
        1,
        ("ErrorInfo in the wrong domain", |_, e, id, _| {
            ok(rpc_a2a_error_body(id, e, error_infos(e.reason, "a2a.dev")))
        }),
    ),
    (
        1,
        ("ErrorInfo reason not UPPER_SNAKE_CASE", |_, e, id, _| {
            ok(rpc_a2a_error_body(
                id,
                e,
                error_infos("TaskNotFound", DOMAIN),
            ))
        }),
    ),
    (
        1,
        ("code and reason disagree", |_, e, id, _| {
            let at = A2A_ERRORS.iter().position(|o| o.code == e.code).unwrap();
            let other = A2A_ERRORS[(at + 1) % A2A_ERRORS.len()].reason;
            ok(rpc_a2a_error_body(id, e, error_infos(other, DOMAIN)))
        }),
    ),
    (
        1,
        ("JSON-RPC error with HTTP 500", |_, e, id, _| {
            Answer::Body(rpc_right_error(id, e), 500)
        }),
    ),
    (
        1,
        ("response id differs", |g, e, _, _| {
            ok(rpc_right_error(
                &json!(format!("other-{}", g.rng.below(1000))),
                e,
            ))
        }),
    ),
    (
        1,
        ("unassigned reserved code", |_, _, id, _| {
            ok(rpc_error_body(id, -32099, "Server error", None))
        }),
    ),
    (
        1,
        ("detail without @type", |_, e, id, _| {
            let details = json!([{"reason": e.reason, "domain": DOMAIN}]);
            ok(rpc_a2a_error_body(id, e, Some(details)))
        }),
    ),
    (
        1,
        ("metadata values not strings", |_, e, id, _| {
            let metadata = Some(json!({"retryable": false, "attempt": 2}));
            let details = json!([error_info(e.reason, DOMAIN, metadata)]);
            ok(rpc_a2a_error_body(id, e, Some(details)))
        }),
    ),
    (
        1,
        ("two ErrorInfos", |_, e, id, _| {
            let info = error_info(e.reason, DOMAIN, None);
            ok(rpc_a2a_error_body(id, e, Some(json!([info.clone(), info]))))
        }),
    ),
    (
        1,
        ("snake_case field path", |_, _, id, _| {
            let details = json!([bad_request("params.message.message_id", "required")]);
            ok(rpc_error_body(id, -32602, "Invalid params", Some(details)))
        }),
    ),
    (
        1,
        ("non-standard message for a standard code", |_, _, id, _| {
            ok(rpc_error_body(id, -32602, "bad request", None))
        }),
    ),
    (
        1,
        ("message reads as another error", |_, e, id, _| {
            let message = "Something went wrong, please retry";
            ok(rpc_error_body(
                id,
                e.code,
                message,
                error_infos(e.reason, DOMAIN),
            ))
        }),
    ),
    (
        1,
        ("legacy method name", |g, _, id, request| {
            // A 0.3 method name while declaring 1.0.
            let body = json!({"jsonrpc": "2.0", "id": id, "method": "tasks/get", "params": {"id": g.rng.uuid()}});
            request.body = compact(&body);
            let details = error_infos("TASK_NOT_FOUND", DOMAIN);
            ok(rpc_error_body(id, -32001, "Task not found", details))
        }),
    ),
    (
        1,
        ("no A2A-Version", |_, e, id, request| {
            request.drop_version();
            ok(rpc_right_error(id, e))
        }),
    ),
    (
        1,
        ("truncated JSON body", |_, e, id, _| {
            let mut body = compact(&rpc_right_error(id, e));
            body.truncate(body.len() - 3);
            Answer::Response(Message::response(200).json("application/json", body))
        }),
    ),
    (
        1,
        ("proxy error page", |_, _, _, _| {
            Answer::Response(Message::response(502).json("text/html", PROXY_PAGE.to_vec()))
        }),
    ),
    (
        1,
        ("message without messageId accepted", |g, _, id, request| {
            let body = json!({"jsonrpc": "2.0", "id": id, "method": "SendMessage", "params": {"message": {"role": "ROLE_USER", "parts": [{"text": g.text(3, 10)}]}}});
            request.body = compact(&body);
            let task = g.task("TASK_STATE_COMPLETED", None);
            ok(rpc_success(id, json!({"task": task})))
        }),
    ),
    (
        1,
        ("edited capture: Content-Length off", |g, e, id, request| {
            request.framing = Framing::WrongLength(-(g.rng.range(1, 9) as i64));
            ok(rpc_right_error(id, e))
        }),
    ),
    (
        1,
        ("stream error event not JSON", |g, _, id, _| {
            let first = compact(&rpc_success(
                id,
                json!({"task": g.task("TASK_STATE_WORKING", None)}),
            ));
            let body = format!(
                "data: {}\n\nevent: error\ndata: {{\"jsonrpc\":\"2.0\",\"id\":{id},\"error\":{{\"code\":-32603\n\n",
                String::from_utf8(first).unwrap()
            );
            let response = Message::response(200).json("text/event-stream", body.into_bytes());
            Answer::Response(response.chunked(Vec::new()))
        }),
    ),
];

const _: () = assert!(total(WRONG_RPC) == WRONG_KINDS);

impl Generator {
    /// `error` answered wrong over JSON-RPC, the way `kind` (`0..WRONG_KINDS`) picks.
    pub(super) fn wrong_rpc(&mut self, error: &A2aError, kind: usize) -> Exchange {
        let (method, params) = self.failing_operation(error).rpc();
        let (id, mut request) = self.rpc_request(method, params);
        let (title, wrong) = pick(WRONG_RPC, kind);
        let response = match wrong(self, error, &id, &mut request) {
            Answer::Body(body, status) => self.rpc_response(body, status),
            Answer::Response(response) => response,
        };
        Exchange::new(title, request, response)
    }
}
