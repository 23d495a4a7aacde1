//! The engine: runs read, classify, rules and resolve on one source, and fans a list of
//! inputs out over a thread pool while keeping their order.

use rayon::prelude::*;

use crate::capture::read_http;
use crate::classify::classify;
use crate::resolve::{Diagnostic, resolve};
use crate::rules;
use crate::walk::{Input, InputError};

/// The result of linting one capture.
#[derive(Debug)]
pub struct FileReport {
    pub path: String,
    pub exchanges: usize,
    pub diagnostics: Vec<Diagnostic>,
}

/// Lints the capture `bytes`, shown as `path`.
pub fn lint_source(path: &str, bytes: &[u8]) -> FileReport {
    let capture = read_http(bytes);
    let views = classify(&capture);
    let mut findings = Vec::new();
    for rule in rules::all() {
        rule.check_capture(&capture, &mut findings);
        for view in &views {
            rule.check_exchange(view, &mut findings);
        }
    }
    FileReport {
        path: path.to_string(),
        exchanges: capture.exchanges.len(),
        diagnostics: resolve(path, bytes, &capture, findings),
    }
}

/// Reads and lints every input on the current rayon pool; the output is in input order.
/// Each file's bytes are dropped as soon as it is linted.
pub fn lint_inputs(inputs: &[Input]) -> Vec<Result<FileReport, InputError>> {
    inputs
        .par_iter()
        .map(|input| {
            let bytes = input.read()?;
            Ok(lint_source(input.display_name(), &bytes))
        })
        .collect()
}
