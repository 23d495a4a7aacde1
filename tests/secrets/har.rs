//! The HAR fixtures: the credentials in headers, cookies, bodies and a base64 body.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;

use crate::values::Secrets;

/// A JSON value as a JSON string literal (quotes and escapes included).
fn json_string(text: &str) -> String {
    serde_json::to_string(text).unwrap()
}

/// A HAR file, one member per line, the credentials beside the bodies and start lines
/// that findings point at.
pub fn har_pretty(s: &Secrets) -> String {
    // The credentials come first in each body, so that windows on the header lines just
    // above show them, escaped inside the HAR string.
    let post = format!(
        r#"{{"params":{{"token":"{token}","taskId":"t-1","url":"https://hooks.client.example/a2a","metadata":{{"via":"{jwt}"}},"authentication":{{"scheme":"Bearer","credentials":"{cred}"}}}},"jsonrpc":"2.0","id":1,"method":"CreateTaskPushNotificationConfig"}}"#,
        token = s.har_push_token,
        cred = s.har_push_cred,
        jwt = s.jwt_har,
    );
    let content = format!(
        r#"{{"result":{{"token":"{token}","note":"{jwt}","id":"pc-1","taskId":"t-1",}},"jsonrpc":"2.0","id":1}}"#,
        token = s.har_push_token,
        jwt = s.jwt_har,
    );
    let base64_body = format!(
        "{{\n  \"id\": \"t-2\",\n  \"contextId\": \"c-2\",\n  \"metadata\": {{\"session\": \"{jwt}\"}},\n  \"status\": {{\"state\": \"TASK_STATE_COMPLETED\"}},\n}}\n",
        jwt = s.jwt_har64
    );
    format!(
        r#"{{
  "log": {{
    "version": "1.2",
    "creator": {{"name": "a2alint-secrets-test", "version": "1"}},
    "entries": [
      {{
        "startedDateTime": "2026-01-01T10:00:00.000Z",
        "time": 12,
        "request": {{
          "method": "POST",
          "url": "https://agent.example/a2a",
          "httpVersion": "HTTP/1.1",
          "queryString": [],
          "headersSize": -1,
          "bodySize": -1,
          "cookies": [{{"name": "sid", "value": "{sid}"}}, {{"name": "theme", "value": "dark"}}],
          "headers": [
            {{"name": "Host", "value": "agent.example"}},
            {{"name": "Content-Type", "value": "application/json"}},
            {{"name": "Authorization", "value": "Bearer {bearer}"}},
            {{"name": "Cookie", "value": "sid={sid}; theme=dark"}}
          ],
          "postData": {{"text": {post}, "mimeType": "application/json"}}
        }},
        "response": {{
          "status": 200,
          "statusText": "OK",
          "httpVersion": "HTTP/1.1",
          "headersSize": -1,
          "bodySize": -1,
          "redirectURL": "",
          "cookies": [{{"name": "refresh", "value": "{set_cookie}", "httpOnly": true}}],
          "headers": [
            {{"name": "Content-Type", "value": "application/json"}},
            {{"name": "Set-Cookie", "value": "refresh={set_cookie}; Path=/; HttpOnly"}}
          ],
          "content": {{"text": {content}, "size": -1, "mimeType": "application/json"}}
        }},
        "cache": {{}},
        "timings": {{"send": 1, "wait": 10, "receive": 1}}
      }},
      {{
        "startedDateTime": "2026-01-01T10:00:01.000Z",
        "time": 9,
        "request": {{
          "method": "GET",
          "url": "https://agent.example/tasks/t-2",
          "httpVersion": "HTTP/1.1",
          "queryString": [],
          "headersSize": -1,
          "bodySize": 0,
          "headers": [
            {{"name": "Host", "value": "agent.example"}},
            {{"name": "A2A-Version", "value": "1.0"}},
            {{"name": "Authorization", "value": "Bearer {bearer}"}}
          ],
          "cookies": []
        }},
        "response": {{
          "status": 200,
          "statusText": "OK",
          "httpVersion": "HTTP/1.1",
          "headersSize": -1,
          "bodySize": -1,
          "redirectURL": "",
          "headers": [{{"name": "Content-Type", "value": "application/a2a+json"}}],
          "cookies": [],
          "content": {{"size": -1, "mimeType": "application/a2a+json", "encoding": "base64", "text": "{b64}"}}
        }},
        "cache": {{}},
        "timings": {{"send": 1, "wait": 7, "receive": 1}}
      }}
    ]
  }}
}}
"#,
        bearer = s.har_bearer,
        sid = s.har_sid,
        set_cookie = s.har_set_cookie,
        post = json_string(&post),
        content = json_string(&content),
        b64 = STANDARD.encode(base64_body),
    )
}

/// The same HAR written on one line, as many tools export it.
pub fn har_minified(s: &Secrets) -> String {
    let pretty = har_pretty(s);
    let one_line: String = pretty.lines().map(str::trim).collect();
    serde_json::from_str::<serde_json::Value>(&one_line).expect("still a JSON document");
    one_line
}
