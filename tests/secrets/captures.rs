//! The `.http` captures of fake credentials, and the directory of every fixture and twin.

use std::io::Write as _;

use crate::har::{har_minified, har_pretty};
use crate::values::Secrets;
use crate::{pcap, twin};

/// Credentials in every header that holds them, each right above a finding: a broken
/// JSON body, a broken response body, a 401 without a challenge.
fn headers_http(s: &Secrets) -> String {
    format!(
        r#"# credentials in headers, right beside findings
POST /a2a HTTP/1.1
Host: agent.example
Content-Type: application/json
A2A-Version: 1.0
X-API-Key: {api_key}
Cookie: sid={sid}; csrftoken={csrf}; theme=dark
Authorization: Bearer {bearer}

{{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{{"id":"t-1",}}}}

HTTP/1.1 200 OK
Content-Type: application/json
Set-Cookie: refresh={set_cookie}; Path=/; HttpOnly; Secure

{{oops}}
###
GET /tasks/t-2 HTTP/1.1
Host: agent.example
A2A-Version: 1.0
Proxy-Authorization: Basic {proxy}
Authorization: Basic {basic}

HTTP/1.1 401 Unauthorized
Content-Type: application/a2a+json

{{"error":{{"code":401,"status":"UNAUTHENTICATED","message":"Basic credentials rejected"}}}}
"#,
        api_key = s.api_key,
        sid = s.sid,
        csrf = s.csrf,
        bearer = s.bearer,
        set_cookie = s.set_cookie,
        proxy = s.proxy,
        basic = s.basic,
    )
}

/// Push config token and credentials in bodies: a broken one-line body, a pretty-printed
/// JSON-RPC body, a response whose id does not match.
fn push_http(s: &Secrets) -> String {
    format!(
        r#"POST /tasks/t-1/pushNotificationConfigs HTTP/1.1
Host: agent.example
Content-Type: application/a2a+json
Authorization: Bearer <redacted>

{{"taskId":"t-1","url":"https://hooks.client.example/a2a","token":"{token}","authentication":{{"scheme":"Bearer","credentials":"{cred}"}},}}

HTTP/1.1 200 OK
Content-Type: application/a2a+json

{{"id":"pc-1","taskId":"t-1","url":"https://hooks.client.example/a2a","token":"{token}","authentication":{{"scheme":"Bearer","credentials":"{cred}"}}}}
###
POST /a2a HTTP/1.1
Host: agent.example
Content-Type: application/json
A2A-Version: 1.0

{{
  "jsonrpc": "2.0",
  "id": 2,
  "method": "CreateTaskPushNotificationConfig",
  "params": {{
    "taskId": "t-1",
    "url": "https://hooks.client.example/a2a",
    "token": "{token}",
    "authentication": {{"scheme": "Bearer", "credentials": "{cred}"}}
  }}
}}

HTTP/1.1 200 OK
Content-Type: application/json

{{"jsonrpc":"2.0","id":3,"result":{{"id":"pc-2","taskId":"t-1","url":"https://hooks.client.example/a2a","token":"{token}"}}}}
"#,
        token = s.push_token,
        cred = s.push_cred,
    )
}

/// A JWT in JSON-RPC bodies: request metadata, error messages (which findings quote) and
/// ErrorInfo metadata.
fn jwt_rpc_http(s: &Secrets) -> String {
    format!(
        r#"POST /a2a HTTP/1.1
Host: agent.example
Content-Type: application/json
A2A-Version: 1.0

{{"jsonrpc":"2.0","id":5,"method":"SendMessage","params":{{"message":{{"messageId":"m-5","role":"ROLE_USER","parts":[{{"text":"call the billing agent"}}],"metadata":{{"forwardedAuth":"{jwt}"}}}}}}}}

HTTP/1.1 200 OK
Content-Type: application/json

{{"jsonrpc":"2.0","id":5,"error":{{"code":-32602,"message":"Token {jwt} is not valid for this tenant","data":[{{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"INVALID_PARAMS","domain":"a2a-protocol.org","metadata":{{"token":"{jwt}"}}}}]}}}}
###
POST /a2a HTTP/1.1
Host: agent.example
Content-Type: application/json
A2A-Version: 1.0

{{"jsonrpc":"2.0","id":6,"method":"GetTask","params":{{"id":"t-6"}}}}

HTTP/1.1 200 OK
Content-Type: application/json

{{"jsonrpc":"2.0","id":6,"error":{{"code":-32603,"message":"task not found for session {jwt}"}}}}
"#,
        jwt = s.jwt_rpc,
    )
}

/// A JWT in SSE event data, the line above a broken event.
fn stream_http(s: &Secrets) -> String {
    format!(
        r#"POST /a2a HTTP/1.1
Host: agent.example
Content-Type: application/json
A2A-Version: 1.0
Accept: text/event-stream

{{"jsonrpc":"2.0","id":7,"method":"SendStreamingMessage","params":{{"message":{{"messageId":"m-7","role":"ROLE_USER","parts":[{{"text":"status?"}}]}}}}}}

HTTP/1.1 200 OK
Content-Type: text/event-stream
Cache-Control: no-cache

data: {{"jsonrpc":"2.0","id":7,"result":{{"message":{{"messageId":"m-8","contextId":"c-7","role":"ROLE_AGENT","parts":[{{"text":"using session {jwt}"}}]}}}}}}

data: {{"jsonrpc":"2.0","id":7,"result":{{"statusUpdate":

"#,
        jwt = s.jwt_sse,
    )
}

/// A gzip response body that decodes to pretty JSON holding a JWT, broken two lines on.
fn gzip_http(s: &Secrets) -> Vec<u8> {
    let body = format!(
        "{{\n  \"jsonrpc\": \"2.0\",\n  \"id\": 9,\n  \"result\": {{\n    \"id\": \"pc-9\",\n    \
         \"url\": \"https://hooks.client.example/a2a\",\n    \
         \"authentication\": {{\"scheme\": \"Bearer\", \"credentials\": \"{jwt}\"}},\n    \
         \"note\": \"issued {jwt}\",\n  }}\n}}\n",
        jwt = s.jwt_gzip
    );
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(body.as_bytes()).unwrap();
    let gz = encoder.finish().unwrap();
    let request = r#"{"jsonrpc":"2.0","id":9,"method":"GetTaskPushNotificationConfig","params":{"taskId":"t-9","id":"pc-9"}}"#;
    let mut out = format!(
        "POST /a2a HTTP/1.1\r\nHost: agent.example\r\nContent-Type: application/json\r\n\
         A2A-Version: 1.0\r\nContent-Length: {}\r\n\r\n{request}\
         HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\n\
         Content-Length: {}\r\n\r\n",
        request.len(),
        gz.len()
    )
    .into_bytes();
    out.extend_from_slice(&gz);
    out
}

/// A directory of every fixture.
pub fn fixtures(s: &Secrets) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let files: Vec<(&str, Vec<u8>)> = vec![
        ("headers.http", headers_http(s).into_bytes()),
        ("push.http", push_http(s).into_bytes()),
        ("jwt-rpc.http", jwt_rpc_http(s).into_bytes()),
        ("stream.http", stream_http(s).into_bytes()),
        ("gzip.http", gzip_http(s)),
        ("pretty.har", har_pretty(s).into_bytes()),
        ("minified.har", har_minified(s).into_bytes()),
    ];
    // The same traffic read off the wire: every `.http` fixture has a pcap twin.
    let twins: Vec<(String, Vec<u8>)> = (files.iter())
        .filter_map(|(name, bytes)| {
            let stem = name.strip_suffix(".http")?;
            let options = pcap::Options::new(pcap::Container::PCAPNG, pcap::Link::Ethernet);
            let pcap = twin::twin(bytes, &options, 200, twin::Connections::KeepAlive);
            let mut twins = vec![(format!("{stem}.pcapng"), pcap)];
            // And over HTTP/2: credentials in HPACK-coded fields, Huffman strings too.
            twins.extend(twin::h2_twin(bytes).map(|h2| (format!("{stem}-h2.pcap"), h2)));
            Some(twins)
        })
        .flatten()
        .collect();
    let files = files
        .into_iter()
        .map(|(name, bytes)| (name.to_string(), bytes))
        .chain(twins);
    for (name, bytes) in files {
        std::fs::write(dir.path().join(name), bytes).unwrap();
    }
    dir
}
