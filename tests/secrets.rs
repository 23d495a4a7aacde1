//! No output a2alint writes ever shows a credential. Captures full of fake secrets (in
//! headers, push config bodies, JSON-RPC errors, SSE events, a gzip body and HAR files),
//! each placed right beside other findings so that context windows show those lines,
//! are run through every `--format`, the GitHub step summary, a baseline file and
//! `a2alint inspect`; no secret value, nor any 8-character piece of one, may appear.

#[allow(dead_code)]
#[path = "common/h2.rs"]
mod h2;
#[allow(dead_code)]
#[path = "common/pcap/mod.rs"]
mod pcap;
#[allow(dead_code)]
#[path = "common/twin.rs"]
mod twin;

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;

use assert_cmd::Command;
use base64::Engine;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};

/// How much of a secret is enough to count as a leak.
const PIECE: usize = 8;

const FORMATS: &[&str] = &[
    "human", "concise", "json", "sarif", "github", "gitlab", "junit",
];

/// A fake credential, and where the fixtures put it.
struct Secret {
    name: &'static str,
    value: String,
    placed: &'static str,
}

fn secret(name: &'static str, value: impl Into<String>, placed: &'static str) -> Secret {
    Secret {
        name,
        value: value.into(),
        placed,
    }
}

/// A JWT of the given header and payload and a fake (non-empty) signature segment.
fn jwt(header: &str, payload: &str, signature: &str) -> String {
    let part = |s: &str| URL_SAFE_NO_PAD.encode(s);
    format!("{}.{}.{}", part(header), part(payload), part(signature))
}

/// Every secret the fixtures hold. Each differs from the others in its first bytes, so a
/// leaked piece names its secret.
struct Secrets {
    bearer: String,
    basic: String,
    proxy: String,
    sid: String,
    csrf: String,
    set_cookie: String,
    api_key: String,
    push_token: String,
    push_cred: String,
    jwt_rpc: String,
    jwt_sse: String,
    jwt_gzip: String,
    har_bearer: String,
    har_sid: String,
    har_set_cookie: String,
    har_push_token: String,
    har_push_cred: String,
    jwt_har: String,
    jwt_har64: String,
}

impl Secrets {
    fn new() -> Self {
        Secrets {
            bearer: "fakeBEARERq7Zx2Lm9Kp".into(),
            basic: STANDARD.encode("alice:fakeBASICw3Nd8Hs"),
            proxy: STANDARD.encode("proxyuser:fakePROXYt6Jb1Qv"),
            sid: "fakeSIDv4Rm8Tq2Wn".into(),
            csrf: "fakeCSRFy5Gk7Pz3Xc".into(),
            set_cookie: "fakeRFRSHh2Vw6Ld9Mb".into(),
            api_key: "fakeAPIKEYj8Fs4Rn1Qz".into(),
            push_token: "fakePUSHTOKu3Kd7Ye5Wm".into(),
            push_cred: "fakeHOOKCREDn9Bx2Tf6Lp".into(),
            jwt_rpc: jwt(r#"{"kid":"Rq"}"#, r#"{"sub":"rpcq1"}"#, "Zrpc73q"),
            jwt_sse: jwt(r#"{"typ":"Sx"}"#, r#"{"uid":"ssew2"}"#, "Ysse26w"),
            jwt_gzip: jwt(r#"{"cty":"Gz"}"#, r#"{"aud":"gzhe3"}"#, "Xgzh14e"),
            har_bearer: "fakeHARBEARg4Wq8Zc3Vn".into(),
            har_sid: "fakeHARSIDk7Mt2Jx9Rd".into(),
            har_set_cookie: "fakeHARRFRp5Ys3Hb8Kw".into(),
            har_push_token: "fakeHARPUSHe6Nv1Lz4Qg".into(),
            har_push_cred: "fakeHARCREDr2Xp7Wk5Dj".into(),
            jwt_har: jwt(r#"{"x5u":"Hr"}"#, r#"{"iss":"harr4"}"#, "Whar85r"),
            jwt_har64: jwt(r#"{"jku":"Hb"}"#, r#"{"jti":"hbt5"}"#, "Vb6449t"),
        }
    }

    fn all(&self) -> Vec<Secret> {
        vec![
            secret(
                "bearer",
                &self.bearer,
                "headers.http: Authorization: Bearer",
            ),
            secret("basic", &self.basic, "headers.http: Authorization: Basic"),
            secret("proxy", &self.proxy, "headers.http: Proxy-Authorization"),
            secret("sid", &self.sid, "headers.http: Cookie (first cookie)"),
            secret("csrf", &self.csrf, "headers.http: Cookie (second cookie)"),
            secret("set_cookie", &self.set_cookie, "headers.http: Set-Cookie"),
            secret("api_key", &self.api_key, "headers.http: X-API-Key"),
            secret(
                "push_token",
                &self.push_token,
                "push.http: push config `token`",
            ),
            secret(
                "push_cred",
                &self.push_cred,
                "push.http: `authentication.credentials`",
            ),
            secret(
                "jwt_rpc",
                &self.jwt_rpc,
                "jwt-rpc.http: JSON-RPC params metadata, error message, ErrorInfo metadata",
            ),
            secret("jwt_sse", &self.jwt_sse, "stream.http: SSE event data"),
            secret(
                "jwt_gzip",
                &self.jwt_gzip,
                "gzip.http: gzip-compressed body",
            ),
            secret(
                "har_bearer",
                &self.har_bearer,
                "*.har: authorization header",
            ),
            secret(
                "har_sid",
                &self.har_sid,
                "*.har: cookie header and request cookies array",
            ),
            secret(
                "har_set_cookie",
                &self.har_set_cookie,
                "*.har: set-cookie header and response cookies array",
            ),
            secret(
                "har_push_token",
                &self.har_push_token,
                "*.har: push config `token` in postData.text and content.text",
            ),
            secret(
                "har_push_cred",
                &self.har_push_cred,
                "*.har: `authentication.credentials` in postData.text",
            ),
            secret(
                "jwt_har",
                &self.jwt_har,
                "*.har: JWT in postData.text and content.text",
            ),
            secret(
                "jwt_har64",
                &self.jwt_har64,
                "*.har: JWT in a base64-encoded content.text",
            ),
        ]
    }
}

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

/// A JSON value as a JSON string literal (quotes and escapes included).
fn json_string(text: &str) -> String {
    serde_json::to_string(text).unwrap()
}

/// A HAR file, one member per line, the credentials beside the bodies and start lines
/// that findings point at.
fn har_pretty(s: &Secrets) -> String {
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
fn har_minified(s: &Secrets) -> String {
    let pretty = har_pretty(s);
    let one_line: String = pretty.lines().map(str::trim).collect();
    serde_json::from_str::<serde_json::Value>(&one_line).expect("still a JSON document");
    one_line
}

/// A directory of every fixture.
fn fixtures(s: &Secrets) -> tempfile::TempDir {
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

fn a2alint() -> Command {
    let mut cmd = Command::cargo_bin("a2alint").unwrap();
    cmd.env_remove("GITHUB_STEP_SUMMARY")
        .env_remove("FORCE_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .env("NO_COLOR", "1");
    cmd
}

/// Undoes GitHub workflow-command escapes, so an escaped secret is still found.
fn unescape_github(text: &str) -> String {
    text.replace("%0D", "\r")
        .replace("%0A", "\n")
        .replace("%3A", ":")
        .replace("%2C", ",")
        .replace("%25", "%")
}

/// Every line of `output` where a secret, or an 8-byte piece of one, shows.
fn leaks(what: &str, output: &str, secrets: &[Secret]) -> Vec<String> {
    let mut found = Vec::new();
    let unescaped = unescape_github(output);
    for secret in secrets {
        let pieces: Vec<&str> = std::iter::once(secret.value.as_str())
            .chain(
                secret
                    .value
                    .as_bytes()
                    .windows(PIECE)
                    .map(|w| std::str::from_utf8(w).unwrap()),
            )
            .collect();
        for text in [output, unescaped.as_str()] {
            let mut heading = "";
            let mut hits = Vec::new();
            for (i, line) in text.lines().enumerate() {
                if line.contains("╭─[") {
                    heading = line.trim();
                }
                let Some(piece) = pieces.iter().find(|p| line.contains(**p)) else {
                    continue;
                };
                let how = if piece.len() == secret.value.len() {
                    "the whole value".to_string()
                } else {
                    format!("the piece {piece:?}")
                };
                hits.push(format!(
                    "{what}, output line {}: secret `{}` ({}) shows as {how}\n    line: {}{}",
                    i + 1,
                    secret.name,
                    secret.placed,
                    line.trim_end(),
                    if heading.is_empty() {
                        String::new()
                    } else {
                        format!("\n    in the window {heading}")
                    }
                ));
            }
            if !hits.is_empty() {
                found.extend(hits);
                break;
            }
        }
    }
    found
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Runs every output a2alint writes over `dir` and collects the leaks.
fn every_output_leaks(dir: &Path, secrets: &[Secret]) -> Vec<String> {
    let mut found = Vec::new();
    let written_to = tempfile::tempdir().unwrap();
    for format in FORMATS {
        let summary = written_to.path().join("step-summary.md");
        let mut cmd = a2alint();
        cmd.args(["check", "--no-config", "--no-progress", "--format", format])
            .arg(dir);
        if *format == "github" {
            cmd.env("GITHUB_STEP_SUMMARY", &summary);
        }
        let out = cmd.output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(1),
            "--format {format}: the fixtures have errors\n{}",
            text(&out.stderr)
        );
        found.extend(leaks(
            &format!("--format {format} stdout"),
            &text(&out.stdout),
            secrets,
        ));
        found.extend(leaks(
            &format!("--format {format} stderr"),
            &text(&out.stderr),
            secrets,
        ));
        if *format == "github" {
            let written = std::fs::read_to_string(&summary).expect("a step summary");
            assert!(!written.is_empty(), "the step summary is empty");
            found.extend(leaks("--format github step summary", &written, secrets));
            std::fs::remove_file(&summary).unwrap();
        }
    }

    let baseline = written_to.path().join("baseline.json");
    let out = a2alint()
        .args([
            "check",
            "--no-config",
            "--no-progress",
            "-q",
            "--write-baseline",
        ])
        .arg(&baseline)
        .arg(dir)
        .output()
        .unwrap();
    found.extend(leaks(
        "--write-baseline stdout",
        &text(&out.stdout),
        secrets,
    ));
    found.extend(leaks(
        "--write-baseline stderr",
        &text(&out.stderr),
        secrets,
    ));
    let written = std::fs::read_to_string(&baseline).expect("a baseline file");
    found.extend(leaks("--write-baseline file", &written, secrets));

    for format in ["table", "json"] {
        let out = a2alint()
            .args(["inspect", "--format", format])
            .arg(dir)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "inspect --format {format}: {}",
            text(&out.stderr)
        );
        found.extend(leaks(
            &format!("inspect --format {format} stdout"),
            &text(&out.stdout),
            secrets,
        ));
        found.extend(leaks(
            &format!("inspect --format {format} stderr"),
            &text(&out.stderr),
            secrets,
        ));
    }
    found
}

fn report(found: &[String]) -> String {
    let mut out = format!("{} leak(s):\n", found.len());
    for leak in found {
        writeln!(out, "- {leak}").unwrap();
    }
    out
}

#[test]
fn fixtures_hold_what_they_claim() {
    let s = Secrets::new();
    let dir = fixtures(&s);
    // The captures really hold every secret, so the leak check below means something.
    let mut all = Vec::new();
    for entry in std::fs::read_dir(dir.path()).unwrap() {
        all.extend(std::fs::read(entry.unwrap().path()).unwrap());
    }
    let all = text(&all);
    // No two secrets share a piece, so a leaked piece names one secret.
    let secrets = s.all();
    for (i, a) in secrets.iter().enumerate() {
        for b in &secrets[i + 1..] {
            let shared = a
                .value
                .as_bytes()
                .windows(PIECE)
                .find(|w| b.value.as_bytes().windows(PIECE).any(|v| v == *w));
            assert!(
                shared.is_none(),
                "{} and {} share {:?}",
                a.name,
                b.name,
                shared.map(text)
            );
        }
    }
    for secret in s.all() {
        let encoded_only = secret.name == "jwt_gzip" || secret.name == "jwt_har64";
        assert_eq!(
            all.contains(&secret.value),
            !encoded_only,
            "{}: {}",
            secret.name,
            secret.placed
        );
    }
    // And secret-in-capture finds them in each file, beside the other findings.
    let out = a2alint()
        .args([
            "check",
            "--no-config",
            "--no-progress",
            "--format",
            "concise",
        ])
        .arg(dir.path())
        .output()
        .unwrap();
    let concise = text(&out.stdout);
    for file in [
        "headers.http",
        "push.http",
        "jwt-rpc.http",
        "stream.http",
        "gzip.http",
        "pretty.har",
        "minified.har",
        "headers.pcapng",
        "push.pcapng",
        "jwt-rpc.pcapng",
        "stream.pcapng",
        "gzip.pcapng",
        "headers-h2.pcap",
        "push-h2.pcap",
        "jwt-rpc-h2.pcap",
        "stream-h2.pcap",
        "gzip-h2.pcap",
    ] {
        let rules: Vec<&str> = concise
            .lines()
            .filter(|l| l.contains(file))
            .filter_map(|l| l.split('[').nth(1)?.split(']').next())
            .collect();
        assert!(
            rules.contains(&"secret-in-capture"),
            "{file}: secret-in-capture did not fire\n{concise}"
        );
        assert!(
            rules.iter().any(|r| *r != "secret-in-capture"),
            "{file}: no other finding beside the secrets\n{concise}"
        );
    }
}

#[test]
fn no_output_shows_a_secret() {
    let s = Secrets::new();
    let dir = fixtures(&s);
    let found = every_output_leaks(dir.path(), &s.all());
    assert!(found.is_empty(), "{}", report(&found));
}

#[test]
fn masking_keeps_positions() {
    let s = Secrets::new();
    let dir = fixtures(&s);
    let out = a2alint()
        .args(["check", "--no-config", "--no-progress", "--color", "never"])
        .arg(dir.path())
        .output()
        .unwrap();
    let human = text(&out.stdout);
    let stars = |n: usize| "*".repeat(n);
    let expected = [
        format!("Authorization: {}", stars("Bearer ".len() + s.bearer.len())),
        format!("Authorization: {}", stars("Basic ".len() + s.basic.len())),
        format!(
            "Proxy-Authorization: {}",
            stars("Basic ".len() + s.proxy.len())
        ),
        format!(
            "Cookie: {}",
            stars(format!("sid={}; csrftoken={}; theme=dark", s.sid, s.csrf).len())
        ),
        format!(
            "Set-Cookie: {}",
            stars(format!("refresh={}; Path=/; HttpOnly; Secure", s.set_cookie).len())
        ),
        format!("X-API-Key: {}", stars(s.api_key.len())),
        format!("\"token\":\"{}\"", stars(s.push_token.len())),
        format!("\"credentials\":\"{}\"", stars(s.push_cred.len())),
        format!("\"token\": \"{}\"", stars(s.push_token.len())),
        format!("using session {}", stars(s.jwt_sse.len())),
        format!("\"credentials\": \"{}\"", stars(s.jwt_gzip.len())),
    ];
    let missing: Vec<&String> = expected.iter().filter(|e| !human.contains(*e)).collect();
    assert!(
        missing.is_empty(),
        "the human report does not show these masked lines: {missing:#?}\n{human}"
    );
}

/// Harder shapes, each beside a finding: a credential member whose value sits on the line
/// after its key, an SSE event whose data lines split a member, an unsecured JWT (RFC 7519
/// §6: empty signature, so it ends in a dot), and a token inside JSON escaped in a string.
fn edge_fixtures(dir: &Path) -> Vec<Secret> {
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

#[test]
fn no_output_shows_a_secret_in_harder_shapes() {
    let dir = tempfile::tempdir().unwrap();
    let secrets = edge_fixtures(dir.path());
    let found = every_output_leaks(dir.path(), &secrets);
    assert!(found.is_empty(), "{}", report(&found));
}
