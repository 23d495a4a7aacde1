//! Throughput of the reader and of the whole `lint_source` on an in-memory capture of
//! back-to-back JSON-RPC and HTTP+JSON exchanges (chunked, LF and CRLF mixed).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};

/// Builds a capture of `exchanges` exchanges, about 1 KiB each.
fn capture(exchanges: usize) -> Vec<u8> {
    let mut out = Vec::new();
    for i in 0..exchanges {
        let request = format!(
            r#"{{"jsonrpc":"2.0","id":{i},"method":"SendMessage","params":{{"message":{{"messageId":"m-{i}","role":"ROLE_USER","parts":[{{"text":"Summarise report number {i} for the quarterly board meeting, please."}}]}}}}}}"#
        );
        let response = format!(
            r#"{{"jsonrpc":"2.0","id":{i},"result":{{"task":{{"id":"task-{i}","contextId":"ctx-{i}","status":{{"state":"TASK_STATE_COMPLETED","timestamp":"2026-11-30T09:15:00.000Z"}},"artifacts":[{{"artifactId":"a-{i}","parts":[{{"text":"The report shows revenue up by {i} percent with costs held flat."}}]}}]}}}}}}"#
        );
        let nl = if i % 2 == 0 { "\r\n" } else { "\n" };
        out.extend(
            format!(
                "POST /a2a HTTP/1.1{nl}Host: agent.example{nl}Content-Type: application/json{nl}A2A-Version: 1.0{nl}Content-Length: {}{nl}{nl}{request}",
                request.len()
            )
            .bytes(),
        );
        if i % 3 == 0 {
            out.extend(
                format!(
                    "HTTP/1.1 200 OK{nl}Content-Type: application/json{nl}Transfer-Encoding: chunked{nl}{nl}{:x}\r\n{response}\r\n0\r\n\r\n",
                    response.len()
                )
                .bytes(),
            );
        } else {
            out.extend(
                format!(
                    "HTTP/1.1 200 OK{nl}Content-Type: application/json{nl}Content-Length: {}{nl}{nl}{response}",
                    response.len()
                )
                .bytes(),
            );
        }
    }
    out
}

fn bench(c: &mut Criterion) {
    let bytes = capture(2_000);
    let mut group = c.benchmark_group("capture-2000-exchanges");
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    group.bench_function("read_http", |b| {
        b.iter(|| a2alint::capture::read_http(&bytes).exchanges.len())
    });
    group.bench_function("lint_source", |b| {
        b.iter(|| {
            a2alint::lint_source("bench.http", &bytes, &a2alint::Options::default()).exchanges
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
