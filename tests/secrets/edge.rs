//! Credentials in the harder shapes: split across lines, in an unsecured JWT, escaped.

use std::path::Path;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;

use crate::values::{Secret, secret};

/// Harder shapes, each beside a finding: a credential member whose value sits on the line
/// after its key, an SSE event whose data lines split a member, an unsecured JWT (RFC 7519
/// §6: empty signature, so it ends in a dot), and a token inside JSON escaped in a string.
pub fn edge_fixtures(dir: &Path) -> Vec<Secret> {
    let split = "fakeSPLITu8Hq3Zr6Wd";
    let sse = "fakeSSESPLITc4Lm9Xv2";
    let unsigned = format!(
        "{}.{}.",
        URL_SAFE_NO_PAD.encode(r#"{"alg":"none"}"#),
        URL_SAFE_NO_PAD.encode(r#"{"sub":"unsigned-user"}"#)
    );
    let escaped = "fakeESCAPEDn5Tb8Gk1";
    let files = [
        (
            "split-member.http",
            format!(
                r#"POST /tasks/t-1/pushNotificationConfigs HTTP/1.1
Host: agent.example
Content-Type: application/a2a+json
A2A-Version: 1.0

{{
  "taskId": "t-1",
  "url": "https://hooks.client.example/a2a",
  "token":
    "{split}",
  "authentication": {{"scheme": "Bearer",}},
}}

HTTP/1.1 200 OK
Content-Type: application/a2a+json

{{"id":"pc-1","taskId":"t-1","url":"https://hooks.client.example/a2a"}}
"#
            ),
        ),
        (
            "sse-multiline.http",
            format!(
                r#"POST /a2a HTTP/1.1
Host: agent.example
Content-Type: application/json
A2A-Version: 1.0

{{"jsonrpc":"2.0","id":7,"method":"GetTaskPushNotificationConfig","params":{{"taskId":"t-1","id":"pc-1"}}}}

HTTP/1.1 200 OK
Content-Type: text/event-stream

data: {{"jsonrpc":"2.0","id":7,"result":{{"id":"pc-1","taskId":"t-1","token":
data: "{sse}"}}}}

data: {{"jsonrpc":"2.0","id":7,"result":

"#
            ),
        ),
        (
            "unsigned-jwt.http",
            format!(
                r#"POST /a2a HTTP/1.1
Host: agent.example
Content-Type: application/json
A2A-Version: 1.0

{{"jsonrpc":"2.0","id":8,"method":"GetTask","params":{{"id":"t-8"}}}}

HTTP/1.1 200 OK
Content-Type: application/json

{{"jsonrpc":"2.0","id":8,"result":{{"id":"t-8","metadata":{{"session":"{unsigned}"}}}},}}
"#
            ),
        ),
        (
            "escaped-json.http",
            format!(
                r#"POST /a2a HTTP/1.1
Host: agent.example
Content-Type: application/json
A2A-Version: 1.0

{{"jsonrpc":"2.0","id":9,"method":"CreateTaskPushNotificationConfig","params":{{"taskId":"t-1","url":"http://hooks.client.example/a2a","token":"{escaped}"}}}}

HTTP/1.1 200 OK
Content-Type: application/json

{{"jsonrpc":"2.0","id":10,"error":{{"code":-32602,"message":"Invalid parameters: {{\"token\":\"{escaped}\"}}"}}}}
"#
            ),
        ),
    ];
    for (name, text) in files {
        std::fs::write(dir.join(name), text).unwrap();
    }
    vec![
        secret(
            "split",
            split,
            "split-member.http: `\"token\":` and its value on the next line",
        ),
        secret(
            "sse_split",
            sse,
            "sse-multiline.http: `\"token\":` and its value in two `data:` lines",
        ),
        secret(
            "unsigned_jwt",
            unsigned,
            "unsigned-jwt.http: an unsecured JWT ending in `.`",
        ),
        secret(
            "escaped",
            escaped,
            "escaped-json.http: `\\\"token\\\":\\\"...\\\"` inside an error message",
        ),
    ]
}
