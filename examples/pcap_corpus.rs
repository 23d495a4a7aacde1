//! Writes one large classic pcap of A2A traffic (HTTP/1.1 over TCP on loopback) for the
//! pcap reading benchmark of BENCHMARKS.md. The exchanges are those `examples/corpus.rs`
//! writes (the realistic mix by default); the packet layout is `benches/corpus/pcap.rs`.
//!
//! ```sh
//! cargo run --release --example pcap_corpus -- --seed 1 --size 200M --out /tmp/bench/a2a-200m.pcap
//! cargo run --release --example pcap_corpus -- --seed 2 --size 1G --out /tmp/bench/a2a-1g.pcap
//! ```
//!
//! Options: `--mix realistic|clean|findings|jsonrpc`, `--parallel N` (connections open at
//! once, default 8), `--exchanges LO-HI` (per connection, default 5-15). The same options
//! and seed always give the same bytes.

#[path = "../benches/corpus/mod.rs"]
mod corpus;

use std::io::BufWriter;
use std::path::PathBuf;
use std::process::ExitCode;

use corpus::Mix;
use corpus::pcap::{PcapOptions, write_pcap};

const USAGE: &str = "usage: pcap_corpus --seed N --size 200M --out FILE.pcap \
                     [--mix realistic|clean|findings|jsonrpc] [--parallel N] [--exchanges LO-HI]";

fn main() -> ExitCode {
    let mut seed = 1;
    let mut size = 200 << 20;
    let mut out = None;
    let mut mix = Mix::Realistic;
    let mut options = PcapOptions::default();
    let mut it = std::env::args().skip(1);
    let parsed: Result<(), String> = (|| {
        while let Some(flag) = it.next() {
            let mut value = || it.next().ok_or(format!("{flag} needs a value"));
            match flag.as_str() {
                "--seed" => seed = value()?.parse().map_err(|e| format!("--seed: {e}"))?,
                "--size" => {
                    let text = value()?;
                    size =
                        corpus::parse_size(&text).ok_or(format!("--size: cannot read {text}"))?;
                }
                "--out" => out = Some(PathBuf::from(value()?)),
                "--mix" => {
                    let text = value()?;
                    mix = Mix::parse(&text).ok_or(format!("--mix: unknown mix {text}"))?;
                }
                "--parallel" => {
                    options.parallel = value()?.parse().map_err(|e| format!("--parallel: {e}"))?;
                }
                "--exchanges" => {
                    let text = value()?;
                    let (lo, hi) = text.split_once('-').unwrap_or((&text, &text));
                    let read = |n: &str| n.parse().map_err(|e| format!("--exchanges: {e}"));
                    options.exchanges = (read(lo)?, read(hi)?);
                }
                "-h" | "--help" => return Err(USAGE.into()),
                other => return Err(format!("unknown argument {other}\n{USAGE}")),
            }
        }
        Ok(())
    })();
    let Some(out) = out.filter(|_| parsed.is_ok()) else {
        eprintln!(
            "{}",
            parsed
                .err()
                .unwrap_or(format!("--out is required\n{USAGE}"))
        );
        return ExitCode::from(2);
    };
    let written = std::fs::File::create(&out).and_then(|file| {
        let mut file = BufWriter::with_capacity(1 << 20, file);
        write_pcap(&mut file, seed, size as u64, mix, options)
    });
    match written {
        Ok(stats) => {
            eprintln!(
                "wrote {}: {} bytes, {} frames, {} connections, {} exchanges",
                out.display(),
                stats.bytes,
                stats.frames,
                stats.connections,
                stats.exchanges
            );
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}
