//! Errors answered wrong over HTTP+JSON, the ways real agents get them wrong: a table.

use serde_json::{Value, json};

use super::errors::{A2aError, DOMAIN, a2a_status_body, bad_request, error_info, status_body};
use super::json_text::{compact, python_json};
use super::message::{Exchange, Message};
use super::scenarios::{Generator, WRONG_KINDS, Weighted, pick, total};

const A2A_JSON: &str = "application/a2a+json";

/// What a way of answering wrong gives: the status, body and content type the usual
/// response carries, or a response of its own.
enum Answer {
    Body(u16, Value, &'static str),
    Response(Message),
}

/// Answers the request (which it may edit) for the error.
type Wrong = fn(&A2aError, &mut Message) -> Answer;

/// The error's own status, typed `application/a2a+json`, with `body`.
fn typed(error: &A2aError, body: Value) -> Answer {
    Answer::Body(error.http, body, A2A_JSON)
}

/// The Status body the error table gives, with an ErrorInfo answering right.
fn right_status(error: &A2aError) -> Value {
    a2a_status_body(error, vec![error_info(error.reason, DOMAIN, None)])
}

const WRONG_REST: Weighted<(&str, Wrong)> = &[
    (
        3,
        ("HTTP+JSON error without ErrorInfo", |e, _| {
            typed(e, a2a_status_body(e, vec![]))
        }),
    ),
    (
        1,
        ("ErrorInfo in the wrong domain", |e, _| {
            let info = error_info(e.reason, "googleapis.com", None);
            typed(e, a2a_status_body(e, vec![info]))
        }),
    ),
    (
        1,
        ("v1.0.0 status table", |e, _| {
            let info = error_info(e.reason, DOMAIN, None);
            let body = status_body(e.http_1_0_0, e.grpc, e.message, vec![info]);
            Answer::Body(e.http_1_0_0, body, A2A_JSON)
        }),
    ),
    (
        1,
        ("gRPC status disagrees", |e, _| {
            let info = error_info(e.reason, DOMAIN, None);
            typed(
                e,
                status_body(e.http, "UNIMPLEMENTED", e.message, vec![info]),
            )
        }),
    ),
    (
        2,
        ("problem+json error", |e, _| {
            let body = json!({"type": format!("https://a2a-protocol.org/errors/{}", e.reason.to_ascii_lowercase()), "title": e.message, "status": e.http, "detail": e.message});
            Answer::Body(e.http, body, "application/problem+json")
        }),
    ),
    (
        1,
        ("error without the Status wrapper", |e, _| {
            typed(e, json!({"code": e.http, "message": e.message}))
        }),
    ),
    (
        1,
        ("error.code is not the HTTP status", |e, _| {
            let info = error_info(e.reason, DOMAIN, None);
            typed(e, status_body(500, e.grpc, e.message, vec![info]))
        }),
    ),
    (
        1,
        ("error typed application/json", |e, _| {
            Answer::Body(e.http, right_status(e), "application/json")
        }),
    ),
    (
        1,
        ("detail without @type", |e, _| {
            let detail = json!({"reason": e.reason, "domain": DOMAIN});
            typed(e, a2a_status_body(e, vec![detail]))
        }),
    ),
    (
        1,
        ("two ErrorInfos", |e, _| {
            let info = error_info(e.reason, DOMAIN, None);
            typed(e, a2a_status_body(e, vec![info.clone(), info]))
        }),
    ),
    (
        1,
        ("snake_case field path", |_, _| {
            let details = vec![bad_request("message.message_id", "required")];
            let body = status_body(400, "INVALID_ARGUMENT", "Invalid request", details);
            Answer::Body(400, body, A2A_JSON)
        }),
    ),
    (
        1,
        ("lowercase reason", |e, _| {
            let info = error_info(&e.reason.to_ascii_lowercase(), DOMAIN, None);
            typed(e, a2a_status_body(e, vec![info]))
        }),
    ),
    (
        1,
        ("metadata not an object", |e, _| {
            let info = error_info(e.reason, DOMAIN, Some(json!(["not", "an", "object"])));
            typed(e, a2a_status_body(e, vec![info]))
        }),
    ),
    (
        1,
        ("validation error without BadRequest", |_, _| {
            let message = "Request payload validation error";
            Answer::Body(
                400,
                status_body(400, "INVALID_ARGUMENT", message, vec![]),
                A2A_JSON,
            )
        }),
    ),
    (
        1,
        ("plain-text error page", |_, _| {
            let page = b"Internal Server Error".to_vec();
            Answer::Response(Message::response(500).json("text/plain; charset=utf-8", page))
        }),
    ),
    (
        1,
        ("error body cut short", |e, _| {
            let mut body = python_json(&right_status(e));
            body.truncate(body.len() / 2);
            Answer::Response(Message::response(e.http).json(A2A_JSON, body))
        }),
    ),
    (
        1,
        ("gzip error, no A2A-Version", |e, request| {
            let mut response =
                Message::response(e.http).json(A2A_JSON, python_json(&right_status(e)));
            response.gzip = true;
            response.headers.push(("Vary", "Accept-Encoding".into()));
            request.drop_version();
            Answer::Response(response)
        }),
    ),
    (
        1,
        ("stream event with two payloads", |_, _| {
            let event = json!({"task": {"id": "t", "contextId": "c", "status": {"state": "TASK_STATE_WORKING"}}, "statusUpdate": {"taskId": "t", "contextId": "c", "status": {"state": "TASK_STATE_WORKING"}}});
            let body = format!(
                "data: {}\r\n\r\n",
                String::from_utf8(python_json(&event)).unwrap()
            );
            let response = Message::response(200).json("text/event-stream", body.into_bytes());
            Answer::Response(response.chunked(Vec::new()))
        }),
    ),
    (
        1,
        ("message reads as another error", |e, _| {
            let info = error_info(e.reason, DOMAIN, None);
            typed(
                e,
                status_body(e.http, e.grpc, "Unknown task id", vec![info]),
            )
        }),
    ),
];

const _: () = assert!(total(WRONG_REST) == WRONG_KINDS);

impl Generator {
    /// `error` answered wrong over HTTP+JSON, the way `kind` (`0..WRONG_KINDS`) picks.
    pub(super) fn wrong_rest(&mut self, error: &A2aError, kind: usize) -> Exchange {
        let (method, path, body) = self.failing_operation(error).rest();
        let mut request = self.rest_request(method, path, body);
        let (title, wrong) = pick(WRONG_REST, kind);
        let response = match wrong(error, &mut request) {
            Answer::Body(status, body, content_type) => {
                let bytes = if self.rng.chance(0.5) {
                    python_json(&body)
                } else {
                    compact(&body)
                };
                let response = Message::response(status).json(content_type, bytes);
                let response = self.server_headers(response, true);
                self.maybe_compress(response)
            }
            Answer::Response(response) => response,
        };
        Exchange::new(title, request, response)
    }
}
