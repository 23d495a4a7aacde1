//! Plans a corpus of many files of log-normal sizes, and writes each planned file.

use super::har::har_file;
use super::http::http_file_and_streams;
use super::message::Style;
use super::rng::Rng;
use super::scenarios::{Generator, Mix};

/// One file of a corpus.
pub struct FilePlan {
    pub name: String,
    pub size: usize,
    pub har: bool,
    pub seed: u64,
}

/// Plans a corpus of `files` files adding up to about `total` bytes: sizes drawn from a
/// log-normal distribution (many small files, a few large ones), one file in a hundred a
/// HAR log when `with_har`.
pub fn plan(seed: u64, total: usize, files: usize, with_har: bool) -> Vec<FilePlan> {
    let mut rng = Rng::derive(seed, u64::MAX);
    // One file in a thousand is a long recording, fifty times the usual weight.
    let weights: Vec<f64> = (0..files)
        .map(|_| (rng.normal() * 1.5).exp() * if rng.chance(0.001) { 50.0 } else { 1.0 })
        .collect();
    let sum: f64 = weights.iter().sum();
    let width = files.to_string().len().max(5);
    weights
        .iter()
        .enumerate()
        .map(|(i, w)| {
            let har = with_har && files >= 10 && rng.chance(0.01);
            FilePlan {
                name: format!("{:0width$}.{}", i, if har { "har" } else { "http" }),
                size: ((w / sum * total as f64) as usize).max(400),
                har,
                seed: i as u64,
            }
        })
        .collect()
}

/// The bytes of one planned file.
pub fn file_bytes(seed: u64, file: &FilePlan, mix: Mix) -> Vec<u8> {
    file_and_streams(seed, file, mix, false).0
}

/// The bytes of one planned file and, for a `.http` file with `streams`, its messages as
/// HTTPolice request and response streams.
pub fn file_and_streams(
    seed: u64,
    file: &FilePlan,
    mix: Mix,
    streams: bool,
) -> (Vec<u8>, Vec<u8>, Vec<u8>) {
    let mut rng = Rng::derive(seed, file.seed);
    let style = Style::random(&mut rng);
    let mut generator = Generator::new(rng, mix);
    if file.har {
        (har_file(&mut generator, file.size), Vec::new(), Vec::new())
    } else {
        http_file_and_streams(&mut generator, file.size, style, streams)
    }
}

/// Parses `10G`, `200M`, `64K` or a plain byte count.
pub fn parse_size(text: &str) -> Option<usize> {
    let text = text.trim();
    let (digits, unit) = match text
        .char_indices()
        .find(|(_, c)| !c.is_ascii_digit() && *c != '.')
    {
        Some((at, _)) => text.split_at(at),
        None => (text, ""),
    };
    let number: f64 = digits.parse().ok()?;
    let scale = match unit
        .to_ascii_uppercase()
        .trim_end_matches("IB")
        .trim_end_matches('B')
    {
        "" => 1.0,
        "K" => 1024.0,
        "M" => 1024.0 * 1024.0,
        "G" => 1024.0 * 1024.0 * 1024.0,
        _ => return None,
    };
    Some((number * scale) as usize)
}
