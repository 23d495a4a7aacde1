//! Throughput (bytes of capture per second) of the three stages on generated traffic (the
//! generator is `benches/corpus/mod.rs`, the same one `examples/corpus.rs` writes corpora
//! with): the reader alone, classification plus the enabled rules on exchanges already
//! read, and the whole `lint_source` (read, classify, rules, suppressions, resolve), on
//! `.http` captures of the realistic mix in both file styles and on a HAR log.
//!
//! ```sh
//! cargo bench --bench lint
//! ```

mod corpus;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};

use a2alint::finding::Finding;
use a2alint::input::capture::{Capture, read_http};
use a2alint::protocol::classify::{Generation, Payloads, Sends, classify};
use a2alint::{Options, Profile};

/// About 8 MiB of captures: enough exchanges that per-file costs do not dominate.
const SIZE: usize = 8 << 20;

struct Input {
    name: &'static str,
    path: &'static str,
    bytes: Vec<u8>,
}

fn inputs() -> Vec<Input> {
    let http = |name, seed, mix, wire| {
        let mut generator = corpus::Generator::new(corpus::Rng::derive(seed, 0), mix);
        let style = corpus::Style { crlf: true, wire };
        Input {
            name,
            path: "bench.http",
            bytes: corpus::http_file(&mut generator, SIZE, style),
        }
    };
    let mut har_generator =
        corpus::Generator::new(corpus::Rng::derive(5, 0), corpus::Mix::Realistic);
    vec![
        http("realistic-wire", 1, corpus::Mix::Realistic, true),
        http("realistic-hand", 2, corpus::Mix::Realistic, false),
        http("clean-jsonrpc", 3, corpus::Mix::JsonRpc, true),
        Input {
            name: "realistic-har",
            path: "bench.har",
            bytes: corpus::har_file(&mut har_generator, SIZE),
        },
    ]
}

/// Classification and the enabled rules on each exchange of a capture already read, as
/// the engine runs them (without suppressions and resolve).
fn classify_and_check(capture: &Capture<'_>, options: &Options) -> usize {
    let rules: Vec<_> = a2alint::rules::all()
        .iter()
        .filter(|r| options.rules.is_enabled(r.id()))
        .collect();
    let mut findings: Vec<Finding> = Vec::new();
    let mut sends = Sends::default();
    for exchange in &capture.exchanges {
        let view = classify(exchange, Profile::default(), &sends, Payloads::Hollow);
        let legacy = view.generation == Generation::V0_3;
        let errors = view.errors();
        for rule in rules.iter().filter(|r| !(legacy && r.id().only_for_1_0())) {
            rule.check_exchange(&view, &mut findings);
            rule.check_errors(&view, &errors, &mut findings);
            for error in &errors {
                rule.check_error(&view, error, &mut findings);
            }
        }
        let record = view.send_record(&errors).cloned();
        drop(errors);
        drop(view);
        if let Some(record) = record {
            sends.record(record);
        }
    }
    for rule in &rules {
        rule.check_problems(&capture.problems, &mut findings);
    }
    findings.len()
}

fn bench(c: &mut Criterion) {
    let options = Options::default();
    for input in inputs() {
        let mut group = c.benchmark_group(input.name);
        group.sample_size(10);
        group.throughput(Throughput::Bytes(input.bytes.len() as u64));
        // A HAR log is read entry by entry as the HTTP text each entry describes (as the
        // engine does); the reader and the rules are timed on the text of all entries.
        let text = if input.path.ends_with(".har") {
            group.bench_function("read_har", |b| {
                b.iter(|| {
                    let mut written = 0;
                    a2alint::input::capture::for_each_entry(&input.bytes, &mut |entry| {
                        written += entry.text.len()
                    });
                    written
                })
            });
            a2alint::input::capture::read_har(&input.bytes).wire
        } else {
            input.bytes.clone()
        };
        group.bench_function("read_http", |b| b.iter(|| read_http(&text).exchanges.len()));
        let capture = read_http(&text);
        group.bench_function("classify_rules", |b| {
            b.iter(|| classify_and_check(&capture, &options))
        });
        group.bench_function("lint_source", |b| {
            b.iter(|| {
                a2alint::lint_source(input.path, &input.bytes, &options)
                    .diagnostics
                    .len()
            })
        });
        group.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
