//! The engine: runs read, classify, rules, suppressions and resolve on one source, and
//! fans a list of inputs out over a thread pool while keeping their order.

use rayon::prelude::*;

use crate::capture::{Exchange, HttpReader, StartLine};
use crate::classify::{Generation, classify};
use crate::finding::{Anchor, Finding};
use crate::profile::Profile;
use crate::resolve::{Diagnostic, Resolver};
use crate::rule_set::RuleSet;
use crate::rules::{self, Rule};
use crate::suppress::{self, Directive, Scope};
use crate::walk::{Input, InputError};

/// The result of linting one capture.
#[derive(Debug)]
pub struct FileReport {
    pub path: String,
    pub exchanges: usize,
    pub diagnostics: Vec<Diagnostic>,
    /// Findings silenced by suppressions.
    pub suppressed: usize,
}

/// What a file is checked against.
#[derive(Clone, Debug, Default)]
pub struct Options {
    pub profile: Profile,
    pub rules: RuleSet,
    /// `--no-ignores` sets this: inline suppressions are not honoured.
    pub no_ignores: bool,
}

/// Lints the capture `bytes`, shown as `path`. Exchanges are read, checked and resolved
/// one at a time; only diagnostics outlive them.
pub fn lint_source(path: &str, bytes: &[u8], options: &Options) -> FileReport {
    let enabled: Vec<&dyn Rule> = rules::all()
        .iter()
        .copied()
        .filter(|r| options.rules.is_enabled(r.id()))
        .collect();
    let mut reader = HttpReader::new(bytes);
    let mut resolver = Resolver::new(path, bytes);
    let mut file_directives: Vec<Directive> = Vec::new();
    let mut misplaced: Vec<Directive> = Vec::new();
    let mut suppressed = 0;
    let mut findings = Vec::new();
    let mut exchanges = 0;
    // Sends seen so far, for `retry-new-message-id`.
    let mut sends = Vec::new();
    for exchange in reader.by_ref() {
        exchanges += 1;
        let mut directives = if options.no_ignores {
            Vec::new()
        } else {
            directives_of(bytes, &exchange)
        };
        // `ignore-file` counts only before the first message (A2A captures are read
        // in one pass); elsewhere it is reported as unused.
        let (file, exchange_scope): (Vec<_>, Vec<_>) =
            directives.drain(..).partition(|d| d.scope == Scope::File);
        for directive in file {
            if exchange.index == 0 && directive.span.start < exchange.start() {
                file_directives.push(directive);
            } else {
                misplaced.push(directive);
            }
        }
        let mut directives = exchange_scope;

        let view = classify(&exchange, options.profile, &sends);
        // Rules that hold only for 1.0 are skipped for exchanges shaped as 0.3.
        let legacy = view.generation == Generation::V0_3;
        for rule in enabled
            .iter()
            .filter(|r| !(legacy && r.id().only_for_1_0()))
        {
            rule.check_exchange(&view, &mut findings);
        }
        let record = view.send_record();
        drop(view);
        sends.extend(record);
        let anchor = anchor_of(&exchange);
        for finding in &mut findings {
            finding.exchange = Some(anchor.clone());
            finding.severity = options.rules.severity(finding.rule, finding.severity);
        }
        suppressed += suppress::apply(&mut directives, &mut findings)
            + suppress::apply(&mut file_directives, &mut findings);
        findings.extend(unused_findings(&directives, false, options));
        resolver.add(findings.drain(..), Some(&exchange));
    }
    for rule in &enabled {
        rule.check_problems(reader.problems(), &mut findings);
    }
    for finding in &mut findings {
        finding.severity = options.rules.severity(finding.rule, finding.severity);
    }
    suppressed += suppress::apply(&mut file_directives, &mut findings);
    findings.extend(unused_findings(&file_directives, false, options));
    findings.extend(unused_findings(&misplaced, true, options));
    resolver.add(findings.drain(..), None);
    FileReport {
        path: path.to_string(),
        exchanges,
        diagnostics: resolver.finish(),
        suppressed,
    }
}

/// The directives among the comment lines before an exchange's messages.
fn directives_of(bytes: &[u8], exchange: &Exchange<'_>) -> Vec<Directive> {
    exchange
        .comments()
        .filter_map(|span| suppress::parse(&bytes[span.range()], span))
        .collect()
}

fn unused_findings(directives: &[Directive], misplaced: bool, options: &Options) -> Vec<Finding> {
    if options.no_ignores || !options.rules.is_enabled(rules::RuleId::UnusedSuppression) {
        return Vec::new();
    }
    let mut findings = suppress::unused(directives, misplaced);
    for finding in &mut findings {
        finding.severity = options.rules.severity(finding.rule, finding.severity);
    }
    findings
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
/// Each file's bytes are dropped as soon as it is linted. `options_for` gives each file's
/// options (configuration overrides differ per file).
pub fn lint_inputs(
    inputs: &[Input],
    options_for: &(dyn Fn(&str) -> Options + Sync),
    on_done: &(dyn Fn() + Sync),
) -> Vec<Result<FileReport, InputError>> {
    inputs
        .par_iter()
        .map(|input| {
            let bytes = input.read()?;
            let report = lint_source(
                input.display_name(),
                &bytes,
                &options_for(input.display_name()),
            );
            on_done();
            Ok(report)
        })
        .collect()
}
