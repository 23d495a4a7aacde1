//! Writes a deterministic corpus of recorded A2A traffic for the benchmarks
//! (see BENCHMARKS.md; the generator itself is `benches/corpus/mod.rs`).
//!
//! ```sh
//! # 1 GiB in 10,000 .http and .har files of log-normal sizes
//! cargo run --release --example corpus -- --seed 1 --size 1G --files 10000 --out /tmp/corpus
//! # one HAR log of about 200 MiB
//! cargo run --release --example corpus -- --seed 1 --har --size 200M --out /tmp/big.har
//! ```
//!
//! Options: `--mix realistic|clean|findings|jsonrpc` (default realistic), `--no-har` (only
//! `.http` files in a corpus), `--httpolice DIR` (also write each `.http` file's messages
//! as the request and response streams HTTPolice's `-i streams` reads).
//! The same options and seed always give the same bytes.

#[path = "../benches/corpus/mod.rs"]
mod corpus;

use std::path::PathBuf;
use std::process::ExitCode;

use rayon::prelude::*;

use corpus::{FilePlan, Generator, Mix, Rng};

struct Args {
    seed: u64,
    size: usize,
    files: usize,
    out: PathBuf,
    har: bool,
    mix: Mix,
    with_har: bool,
    httpolice: Option<PathBuf>,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        seed: 1,
        size: 1 << 20,
        files: 1,
        out: PathBuf::new(),
        har: false,
        mix: Mix::Realistic,
        with_har: true,
        httpolice: None,
    };
    let mut out = None;
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--seed" => args.seed = value()?.parse().map_err(|e| format!("--seed: {e}"))?,
            "--size" => {
                let text = value()?;
                args.size =
                    corpus::parse_size(&text).ok_or(format!("--size: cannot read {text}"))?;
            }
            "--files" => args.files = value()?.parse().map_err(|e| format!("--files: {e}"))?,
            "--out" => out = Some(PathBuf::from(value()?)),
            "--har" => args.har = true,
            "--no-har" => args.with_har = false,
            "--mix" => {
                let text = value()?;
                args.mix = Mix::parse(&text).ok_or(format!("--mix: unknown mix {text}"))?;
            }
            "--httpolice" => args.httpolice = Some(PathBuf::from(value()?)),
            "-h" | "--help" => {
                return Err("usage: corpus --seed N --size 1G --files N --out DIR \
                            [--mix realistic|clean|findings|jsonrpc] [--no-har] [--httpolice DIR]\n       \
                            corpus --seed N --har --size 200M --out FILE.har"
                    .into());
            }
            other => return Err(format!("unknown argument {other}")),
        }
    }
    args.out = out.ok_or("--out is required")?;
    Ok(args)
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(args) => args,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::from(2);
        }
    };
    let result = if args.har {
        write_har(&args)
    } else {
        write_corpus(&args)
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}

fn write_har(args: &Args) -> std::io::Result<()> {
    let mut generator = Generator::new(Rng::derive(args.seed, 0), args.mix);
    let bytes = corpus::har_file(&mut generator, args.size);
    std::fs::write(&args.out, &bytes)?;
    eprintln!("wrote {} ({} bytes)", args.out.display(), bytes.len());
    Ok(())
}

fn write_corpus(args: &Args) -> std::io::Result<()> {
    std::fs::create_dir_all(&args.out)?;
    if let Some(dir) = &args.httpolice {
        std::fs::create_dir_all(dir)?;
    }
    let plan: Vec<FilePlan> = corpus::plan(args.seed, args.size, args.files, args.with_har);
    let written: std::io::Result<Vec<usize>> = plan
        .par_iter()
        .map(|file| {
            let (bytes, requests, responses) =
                corpus::file_and_streams(args.seed, file, args.mix, args.httpolice.is_some());
            std::fs::write(args.out.join(&file.name), &bytes)?;
            if let (Some(dir), false) = (&args.httpolice, file.har) {
                let stem = file.name.trim_end_matches(".http");
                std::fs::write(dir.join(format!("{stem}.req")), &requests)?;
                std::fs::write(dir.join(format!("{stem}.resp")), &responses)?;
            }
            Ok(bytes.len())
        })
        .collect();
    let sizes = written?;
    let total: usize = sizes.iter().sum();
    let largest = sizes.iter().max().copied().unwrap_or(0);
    let hars = plan.iter().filter(|f| f.har).count();
    eprintln!(
        "wrote {} files ({hars} HAR) to {}: {total} bytes, largest {largest} bytes",
        sizes.len(),
        args.out.display()
    );
    Ok(())
}
