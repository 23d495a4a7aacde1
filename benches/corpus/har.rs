//! Writes exchanges as a HAR 1.2 log, the way browsers and mitmproxy export them.

use serde_json::{Value, json};

use super::message::{Exchange, Message, Start};
use super::rng::Rng;
use super::scenarios::Generator;

fn har_headers(message: &Message) -> Vec<Value> {
    let mut headers: Vec<Value> = message
        .headers
        .iter()
        .map(|(name, value)| json!({"name": name, "value": value}))
        .collect();
    if message.gzip {
        headers.push(json!({"name": "content-encoding", "value": "gzip"}));
    }
    headers
}

/// One exchange as a HAR entry, the way browsers and mitmproxy export them.
fn har_entry(rng: &mut Rng, index: usize, exchange: &Exchange) -> Value {
    let request = &exchange.request;
    let Start::Request { method, path } = &request.start else {
        unreachable!("requests have request lines")
    };
    let mime = |m: &Message| {
        m.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case("content-type"))
            .map_or(String::new(), |(_, v)| v.clone())
    };
    let text = |body: &[u8]| String::from_utf8_lossy(body).into_owned();
    let mut har_request = json!({
        "method": method,
        "url": format!("https://agent.example{path}"),
        "httpVersion": "HTTP/1.1",
        "cookies": [],
        "headers": har_headers(request),
        "queryString": [],
        "headersSize": -1,
        "bodySize": request.body.len(),
    });
    if !request.body.is_empty() {
        har_request["postData"] = json!({"mimeType": mime(request), "text": text(&request.body)});
    }
    let mut entry = json!({
        "startedDateTime": format!("2026-11-30T{:02}:{:02}:{:02}.{:03}Z", (index / 3600) % 24, (index / 60) % 60, index % 60, rng.below(1000)),
        "time": rng.range(2, 900) as f64 / 3.0,
        "request": har_request,
        "cache": {},
        "timings": {"blocked": -1, "dns": -1, "connect": -1, "ssl": -1, "send": 0.2, "wait": rng.range(1, 800) as f64 / 7.0, "receive": 0.4},
    });
    if let Some(response) = &exchange.response {
        let Start::Response { status, reason } = &response.start else {
            unreachable!("responses have status lines")
        };
        let base64 = rng.chance(0.05);
        let mut content = json!({"size": response.body.len(), "mimeType": mime(response)});
        if base64 {
            use base64::Engine;
            content["text"] =
                json!(base64::engine::general_purpose::STANDARD.encode(&response.body));
            content["encoding"] = json!("base64");
        } else {
            content["text"] = json!(text(&response.body));
        }
        entry["response"] = json!({
            "status": status,
            "statusText": reason,
            "httpVersion": "HTTP/1.1",
            "cookies": [],
            "headers": har_headers(response),
            "content": content,
            "redirectURL": "",
            "headersSize": -1,
            "bodySize": response.body.len(),
        });
    }
    entry
}

/// A HAR 1.2 log of exchanges, pretty-printed as browsers export it, of at least `target`
/// bytes.
pub fn har_file(generator: &mut Generator, target: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(target + 64 * 1024);
    out.extend_from_slice(
        b"{\n  \"log\": {\n    \"version\": \"1.2\",\n    \"creator\": {\n      \"name\": \"a2alint corpus generator\",\n      \"version\": \"0.1\"\n    },\n    \"pages\": [],\n    \"entries\": [",
    );
    let mut index = 0;
    while out.len() < target || index == 0 {
        generator.budget = target.saturating_sub(out.len());
        let exchange = generator.exchange();
        let entry = har_entry(&mut generator.rng, index, &exchange);
        out.extend_from_slice(if index == 0 { b"\n" } else { b",\n" });
        let pretty = serde_json::to_string_pretty(&entry).expect("serialisable");
        for (i, line) in pretty.lines().enumerate() {
            if i > 0 {
                out.push(b'\n');
            }
            out.extend_from_slice(b"      ");
            out.extend_from_slice(line.as_bytes());
        }
        index += 1;
    }
    out.extend_from_slice(b"\n    ]\n  }\n}\n");
    out
}
