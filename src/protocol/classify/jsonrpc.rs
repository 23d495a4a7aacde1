//! JSON-RPC 2.0 facts about a request: its id, its method, and whether it is a valid
//! Request object at all (JSON-RPC 2.0 §4; A2A §9.3).

use serde_json::Value;

/// What the request's `id` is, as far as the server could know.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RequestId<'v> {
    /// A readable id: a string, a number or null.
    Readable(&'v Value),
    /// No `id` member: a notification.
    Absent,
    /// The server could not read an id: the body is not JSON, not an object, or the id
    /// has a type JSON-RPC does not allow.
    Unreadable,
}

/// Why a JSON body is not a valid JSON-RPC Request object.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InvalidRequest {
    NotAnObject,
    NoJsonrpcMember,
    JsonrpcNot2_0,
    NoMethod,
    MethodNotAString,
    IdOfWrongType,
    /// A batch (a JSON array) answered with a single error: the server refuses batches,
    /// and a request it will not take is not a valid Request to it (JSON-RPC 2.0 §6).
    RefusedBatch,
}

impl InvalidRequest {
    pub fn describe(self) -> &'static str {
        match self {
            InvalidRequest::NotAnObject => "the request body is not a JSON object",
            InvalidRequest::NoJsonrpcMember => "the request has no `jsonrpc` member",
            InvalidRequest::JsonrpcNot2_0 => "the request's `jsonrpc` is not \"2.0\"",
            InvalidRequest::NoMethod => "the request has no `method`",
            InvalidRequest::MethodNotAString => "the request's `method` is not a string",
            InvalidRequest::IdOfWrongType => "the request's `id` is not a string, number or null",
            InvalidRequest::RefusedBatch => "the request is a batch the server refuses",
        }
    }
}

/// The JSON-RPC view of a request body.
#[derive(Clone, Debug, PartialEq)]
pub struct RpcRequest<'v> {
    pub id: RequestId<'v>,
    pub method: Option<&'v str>,
    pub invalid: Option<InvalidRequest>,
    pub batch: bool,
}

impl<'v> RpcRequest<'v> {
    /// Reads a request body; `None` for a body that is not valid JSON.
    pub fn read(body: Option<&'v Value>) -> RpcRequest<'v> {
        let Some(body) = body else {
            return RpcRequest {
                id: RequestId::Unreadable,
                method: None,
                invalid: None,
                batch: false,
            };
        };
        if body.is_array() {
            return RpcRequest {
                id: RequestId::Unreadable,
                method: None,
                invalid: None,
                batch: true,
            };
        }
        let Some(object) = body.as_object() else {
            return RpcRequest {
                id: RequestId::Unreadable,
                method: None,
                invalid: Some(InvalidRequest::NotAnObject),
                batch: false,
            };
        };
        // One walk over the members finds the three a Request is judged by: a request has
        // a handful, and every rule about JSON-RPC reads it again.
        let (mut id, mut method, mut jsonrpc) = (None, None, None);
        for (name, value) in object {
            match name.as_str() {
                "id" => id = Some(value),
                "method" => method = Some(value),
                "jsonrpc" => jsonrpc = Some(value),
                _ => {}
            }
        }
        let id = match id {
            None => RequestId::Absent,
            Some(id @ (Value::String(_) | Value::Number(_) | Value::Null)) => {
                RequestId::Readable(id)
            }
            Some(_) => RequestId::Unreadable,
        };
        let invalid = match (jsonrpc, method) {
            (None, _) => Some(InvalidRequest::NoJsonrpcMember),
            (Some(v), _) if v.as_str() != Some("2.0") => Some(InvalidRequest::JsonrpcNot2_0),
            (_, None) => Some(InvalidRequest::NoMethod),
            (_, Some(m)) if !m.is_string() => Some(InvalidRequest::MethodNotAString),
            _ if id == RequestId::Unreadable => Some(InvalidRequest::IdOfWrongType),
            _ => None,
        };
        RpcRequest {
            id,
            method: method.and_then(Value::as_str),
            invalid,
            batch: false,
        }
    }
}

/// Does this JSON look like a JSON-RPC request (an object with `jsonrpc` or `method`, or a
/// batch of such objects)?
pub fn looks_like_request(body: &Value) -> bool {
    match body {
        Value::Object(o) => o.contains_key("jsonrpc") || o.contains_key("method"),
        Value::Array(items) => items.first().is_some_and(looks_like_request),
        _ => false,
    }
}

/// Does this JSON look like a JSON-RPC response (an object with `jsonrpc`, or with `id`
/// and one of `result`/`error`)?
pub fn looks_like_response(body: &Value) -> bool {
    match body {
        Value::Object(o) => {
            o.contains_key("jsonrpc")
                || (o.contains_key("id") && (o.contains_key("result") || o.contains_key("error")))
        }
        Value::Array(items) => items.first().is_some_and(looks_like_response),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_ids_methods_and_validity() {
        let ok = json!({"jsonrpc": "2.0", "id": 3, "method": "GetTask"});
        let request = RpcRequest::read(Some(&ok));
        assert_eq!(request.id, RequestId::Readable(&json!(3)));
        assert_eq!((request.method, request.invalid), (Some("GetTask"), None));

        let cases = [
            (
                json!({"id": 1, "method": "GetTask"}),
                Some(InvalidRequest::NoJsonrpcMember),
            ),
            (
                json!({"jsonrpc": "1.0", "id": 1, "method": "GetTask"}),
                Some(InvalidRequest::JsonrpcNot2_0),
            ),
            (
                json!({"jsonrpc": "2.0", "id": 1}),
                Some(InvalidRequest::NoMethod),
            ),
            (
                json!({"jsonrpc": "2.0", "id": 1, "method": 5}),
                Some(InvalidRequest::MethodNotAString),
            ),
            (
                json!({"jsonrpc": "2.0", "id": [1], "method": "GetTask"}),
                Some(InvalidRequest::IdOfWrongType),
            ),
            (json!("text"), Some(InvalidRequest::NotAnObject)),
        ];
        for (body, invalid) in cases {
            assert_eq!(RpcRequest::read(Some(&body)).invalid, invalid, "{body}");
        }
        assert_eq!(RpcRequest::read(None).id, RequestId::Unreadable);
        let notification = json!({"jsonrpc": "2.0", "method": "GetTask"});
        assert_eq!(RpcRequest::read(Some(&notification)).id, RequestId::Absent);
    }
}
