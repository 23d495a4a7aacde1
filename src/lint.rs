//! The engine: runs read, classify, rules and resolve on one source, and fans a list of
//! inputs out over a thread pool while keeping their order.

use rayon::prelude::*;

use crate::capture::{Exchange, HttpReader, StartLine};
use crate::finding::Anchor;
use crate::classify::classify;
use crate::profile::Profile;
use crate::resolve::{Diagnostic, Resolver};
use crate::rules;
use crate::walk::{Input, InputError};

/// The result of linting one capture.
#[derive(Debug)]
pub struct FileReport {
    pub path: String,
    pub exchanges: usize,
    pub diagnostics: Vec<Diagnostic>,
}

/// What a run checks against.
#[derive(Clone, Copy, Debug, Default)]
pub struct Options {
    pub profile: Profile,
}

/// Lints the capture `bytes`, shown as `path`. Exchanges are read, checked and resolved
/// one at a time; only diagnostics outlive them.
pub fn lint_source(path: &str, bytes: &[u8], options: &Options) -> FileReport {
    let mut reader = HttpReader::new(bytes);
    let mut resolver = Resolver::new(path, bytes);
    let mut findings = Vec::new();
    let mut exchanges = 0;
    for exchange in reader.by_ref() {
        exchanges += 1;
        let view = classify(&exchange, options.profile);
        for rule in rules::all() {
            rule.check_exchange(&view, &mut findings);
        }
        let anchor = anchor_of(&exchange);
        for finding in &mut findings {
            finding.exchange = Some(anchor.clone());
        }
        resolver.add(findings.drain(..), Some(&exchange));
    }
    for rule in rules::all() {
        rule.check_problems(reader.problems(), &mut findings);
    }
    resolver.add(findings.drain(..), None);
    FileReport {
        path: path.to_string(),
        exchanges,
        diagnostics: resolver.finish(),
    }
}

/// What identifies an exchange across edits: its request line, or its status line when
/// it has no request.
fn anchor_of(exchange: &Exchange<'_>) -> Anchor {
    let message = exchange.request.as_ref().or(exchange.response.as_ref());
    let key = match message.map(|m| m.start_line) {
        Some(StartLine::Request { method, target }) => format!("{method} {target}"),
        Some(StartLine::Response { status, .. }) => format!("{status}"),
        None => String::new(),
    };
    Anchor {
        index: exchange.index,
        key,
    }
}

/// Reads and lints every input on the current rayon pool; the output is in input order.
/// Each file's bytes are dropped as soon as it is linted.
pub fn lint_inputs(inputs: &[Input], options: &Options) -> Vec<Result<FileReport, InputError>> {
    inputs
        .par_iter()
        .map(|input| {
            let bytes = input.read()?;
            Ok(lint_source(input.display_name(), &bytes, options))
        })
        .collect()
}
