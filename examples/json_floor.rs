//! The serde_json-only floor of BENCHMARKS.md: reads every capture under the given paths,
//! takes out the JSON bodies (and stream events' data) the way a2alint does, and parses
//! each into a `serde_json::Value` on one thread, timing the three steps apart.
//!
//! ```sh
//! cargo run --release --example json_floor -- /tmp/corpus
//! cargo run --release --example json_floor -- --jsonl /tmp/bodies.jsonl /tmp/corpus
//! ```
//!
//! `--jsonl FILE` also writes every JSON-RPC request and response body, one per line, for
//! tools that read JSON-RPC traffic as JSON Lines (a2a-doctor).
//!
//! `--har FILE` also writes every exchange of the `.http` captures (those with a request)
//! as one HAR 1.2 log, decoded bodies as text, for tools that read only HAR (Redocly
//! `drift` in `benches/issue16.sh`, on the replicated real traffic).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use a2alint::input::capture::{HttpReader, is_har, parse_events, read_har};
use a2alint::protocol::classify::MediaType;

/// The same allocator as the `a2alint` binary, so that the floor measures parsing, not
/// a difference of allocators.
#[cfg(not(target_env = "msvc"))]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// The binary's jemalloc options too (`src/main.rs`), so the floor gains what they save.
#[cfg(not(target_env = "msvc"))]
#[unsafe(export_name = "_rjem_malloc_conf")]
static JEMALLOC_OPTIONS: &u8 = &b"tcache_gc_incr_bytes:4194304\0"[0];

fn main() {
    let mut jsonl: Option<std::io::BufWriter<std::fs::File>> = None;
    let mut har_out: Option<Har> = None;
    let mut paths = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--jsonl" {
            let path = args.next().expect("--jsonl needs a file");
            jsonl = Some(std::io::BufWriter::new(
                std::fs::File::create(path).expect("cannot create the JSONL file"),
            ));
        } else if arg == "--har" {
            let path = args.next().expect("--har needs a file");
            har_out = Some(Har::create(&path));
        } else {
            paths.push(PathBuf::from(arg));
        }
    }
    let mut files = Vec::new();
    for path in &paths {
        collect(path, &mut files);
    }
    files.sort();

    let (mut read, mut extract, mut parse) = (Duration::ZERO, Duration::ZERO, Duration::ZERO);
    let (mut bytes_total, mut bodies, mut body_bytes, mut invalid) =
        (0usize, 0usize, 0usize, 0usize);
    let started = Instant::now();
    for file in &files {
        let t = Instant::now();
        let bytes = std::fs::read(file).expect("readable capture");
        read += t.elapsed();
        bytes_total += bytes.len();

        let t = Instant::now();
        let har;
        let text: &[u8] = if is_har(&file.to_string_lossy(), &bytes) {
            har = read_har(&bytes);
            &har.wire
        } else {
            &bytes
        };
        // Bodies are parsed where they are found; only the parsing is timed as `parse`.
        let mut parsing = Duration::ZERO;
        let mut parse_one = |body: &[u8]| {
            let t = Instant::now();
            let parsed = serde_json::from_slice::<serde_json::Value>(body);
            parsing += t.elapsed();
            match parsed {
                Ok(value) => {
                    if let Some(out) = jsonl.as_mut()
                        && value.get("jsonrpc").is_some()
                    {
                        serde_json::to_writer(&mut *out, &value).expect("writable");
                        out.write_all(b"\n").expect("writable");
                    }
                    std::hint::black_box(&value);
                }
                Err(_) => invalid += 1,
            }
            bodies += 1;
            body_bytes += body.len();
        };
        for exchange in HttpReader::new(text) {
            if let Some(out) = har_out.as_mut()
                && text.as_ptr() == bytes.as_ptr()
            {
                out.entry(&exchange);
            }
            for message in exchange.request.iter().chain(exchange.response.iter()) {
                let Some(body) = message.body.content.as_ref() else {
                    continue;
                };
                let media = MediaType::of(message);
                if media
                    .as_ref()
                    .is_some_and(|m| m.essence == "text/event-stream")
                {
                    for event in parse_events(&body.bytes) {
                        parse_one(&event.data);
                    }
                    continue;
                }
                let declared = media.as_ref().is_some_and(MediaType::is_json);
                let first = body.bytes.iter().find(|b| !b.is_ascii_whitespace());
                if first.is_some() && (declared || matches!(first, Some(b'{' | b'['))) {
                    parse_one(&body.bytes);
                }
            }
        }
        extract += t.elapsed() - parsing;
        parse += parsing;
    }
    let total = started.elapsed();
    if let Some(out) = har_out {
        out.finish();
    }
    let mb = |d: Duration| bytes_total as f64 / 1e6 / d.as_secs_f64();
    println!(
        "{} files, {bytes_total} bytes; {bodies} JSON bodies, {body_bytes} bytes ({invalid} invalid)",
        files.len()
    );
    println!(
        "read      {:>8.3} s  ({:.0} MB/s of capture)",
        read.as_secs_f64(),
        mb(read)
    );
    println!("extract   {:>8.3} s", extract.as_secs_f64());
    println!(
        "parse     {:>8.3} s  ({:.0} MB/s of capture, {:.0} MB/s of JSON)",
        parse.as_secs_f64(),
        mb(parse),
        body_bytes as f64 / 1e6 / parse.as_secs_f64()
    );
    println!(
        "read+parse{:>8.3} s  ({:.0} MB/s of capture)",
        (read + parse).as_secs_f64(),
        mb(read + parse)
    );
    println!("total     {:>8.3} s", total.as_secs_f64());
}

fn collect(path: &Path, out: &mut Vec<PathBuf>) {
    if path.is_dir() {
        for entry in std::fs::read_dir(path).expect("readable directory") {
            collect(&entry.expect("readable entry").path(), out);
        }
    } else if path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("http") || e.eq_ignore_ascii_case("har"))
    {
        out.push(path.to_path_buf());
    }
}

/// A HAR 1.2 log written one entry at a time.
struct Har {
    out: std::io::BufWriter<std::fs::File>,
    entries: usize,
}

impl Har {
    fn create(path: &str) -> Self {
        let mut out =
            std::io::BufWriter::new(std::fs::File::create(path).expect("cannot create the HAR"));
        out.write_all(
            b"{\"log\": {\"version\": \"1.2\", \"creator\": {\"name\": \"a2alint json_floor\", \"version\": \"0.1\"}, \"pages\": [], \"entries\": [\n",
        )
        .expect("writable");
        Har { out, entries: 0 }
    }

    fn entry(&mut self, exchange: &a2alint::input::capture::Exchange<'_>) {
        use a2alint::input::capture::StartLine;
        use serde_json::{Value, json};
        let Some(request) = &exchange.request else {
            return;
        };
        let StartLine::Request { method, target } = request.start_line else {
            return;
        };
        let headers = |m: &a2alint::input::capture::Message<'_>| -> Vec<Value> {
            m.headers
                .iter()
                .map(|h| json!({"name": h.name, "value": String::from_utf8_lossy(h.value)}))
                .collect()
        };
        let header = |m: &a2alint::input::capture::Message<'_>, name: &str| {
            m.header(name).map_or(String::new(), |h| {
                String::from_utf8_lossy(h.value).into_owned()
            })
        };
        let body = |m: &a2alint::input::capture::Message<'_>| {
            m.body
                .bytes()
                .map_or(String::new(), |b| String::from_utf8_lossy(b).into_owned())
        };
        let url = if target.starts_with('/') {
            let host = header(request, "host");
            format!(
                "http://{}{target}",
                if host.is_empty() { "localhost" } else { &host }
            )
        } else {
            target.to_string()
        };
        let i = self.entries;
        let mut entry = json!({
            "startedDateTime": format!("2026-11-30T{:02}:{:02}:{:02}.000Z", (i / 3600) % 24, (i / 60) % 60, i % 60),
            "time": 1.0,
            "request": {
                "method": method, "url": url, "httpVersion": "HTTP/1.1", "cookies": [],
                "headers": headers(request), "queryString": [], "headersSize": -1,
                "bodySize": request.body.bytes().map_or(0, <[u8]>::len),
            },
            "cache": {},
            "timings": {"send": 0.0, "wait": 1.0, "receive": 0.0},
        });
        if request.body.bytes().is_some_and(|b| !b.is_empty()) {
            entry["request"]["postData"] =
                json!({"mimeType": header(request, "content-type"), "text": body(request)});
        }
        let response = exchange.response.as_ref();
        let (status, reason) = match response.map(|r| r.start_line) {
            Some(StartLine::Response { status, reason }) => (status, reason),
            _ => (0, ""),
        };
        entry["response"] = json!({
            "status": status, "statusText": reason, "httpVersion": "HTTP/1.1", "cookies": [],
            "headers": response.map_or(Vec::new(), headers),
            "content": {
                "size": response.and_then(|r| r.body.bytes()).map_or(0, <[u8]>::len),
                "mimeType": response.map_or(String::new(), |r| header(r, "content-type")),
                "text": response.map_or(String::new(), body),
            },
            "redirectURL": "", "headersSize": -1,
            "bodySize": response.and_then(|r| r.body.bytes()).map_or(0, <[u8]>::len),
        });
        if i > 0 {
            self.out.write_all(b",\n").expect("writable");
        }
        serde_json::to_writer(&mut self.out, &entry).expect("writable");
        self.entries += 1;
    }

    fn finish(mut self) {
        self.out.write_all(b"\n]}}\n").expect("writable");
        self.out.flush().expect("writable");
        eprintln!("wrote {} HAR entries", self.entries);
    }
}
