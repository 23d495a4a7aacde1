//! Throughput (bytes of pcap per second) of the wire reader on a generated capture of
//! about 8 MiB (HTTP/1.1 over TCP, the realistic mix; the generator is
//! `benches/corpus/pcap.rs`, the same one `examples/pcap_corpus.rs` writes files with):
//! packets to exchanges' text views (`read_pcap`), the same with each view read as HTTP
//! as the engine does, and the whole `lint_source` (read, classify, rules, resolve).
//!
//! ```sh
//! cargo bench --bench pcap
//! ```

mod corpus;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};

use a2alint::Options;
use a2alint::input::capture::HttpReader;
use a2alint::input::capture::wire::read_pcap;

/// About 8 MiB of packets: a few hundred connections.
const SIZE: u64 = 8 << 20;

fn bench(c: &mut Criterion) {
    let mut bytes = Vec::new();
    corpus::pcap::write_pcap(
        &mut bytes,
        1,
        SIZE,
        corpus::Mix::Realistic,
        corpus::pcap::PcapOptions::default(),
    )
    .expect("in memory");
    let options = Options::default();
    let mut group = c.benchmark_group("realistic-pcap");
    group.sample_size(10);
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    group.bench_function("read_pcap", |b| {
        b.iter(|| {
            let mut text = 0;
            read_pcap(&bytes, &mut |exchange| text += exchange.text.len());
            text
        })
    });
    group.bench_function("read_pcap_http", |b| {
        b.iter(|| {
            let mut exchanges = 0;
            read_pcap(&bytes, &mut |exchange| {
                exchanges += HttpReader::new(&exchange.text).count();
            });
            exchanges
        })
    });
    group.bench_function("lint_source", |b| {
        b.iter(|| {
            a2alint::lint_source("bench.pcap", &bytes, &options)
                .diagnostics
                .len()
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
