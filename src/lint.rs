//! The engine: runs read, classify, rules, suppressions and resolve on one source, and
//! fans a list of inputs out over a thread pool while keeping their order.

use rayon::prelude::*;

use crate::capture::{
    Exchange, HarCapture, HarProblem, HttpReader, NotHar, StartLine, is_har, read_har,
};
use crate::classify::{Binding, Generation, Payloads, Sends, classify};
use crate::finding::{Anchor, Finding, Label};
use crate::profile::Profile;
use crate::resolve::{Diagnostic, Resolver, har_file_span};
use crate::rule_set::RuleSet;
use crate::rules::binding_divergence::Outcome;
use crate::rules::{self, Rule, binding_divergence};
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
    /// How task operations were answered, for the run-level `binding-divergence`.
    pub outcomes: Vec<Outcome>,
}

/// What a file is checked against.
#[derive(Clone, Debug, Default)]
pub struct Options {
    pub profile: Profile,
    pub rules: RuleSet,
    /// `--no-ignores` sets this: inline suppressions are not honoured.
    pub no_ignores: bool,
    /// How success responses' payloads are decoded (hollow unless a test asks otherwise).
    pub payloads: Payloads,
}

/// Lints the capture `bytes`, shown as `path`. Exchanges are read, checked and resolved
/// one at a time; only diagnostics outlive them. A HAR file (named `*.har`, or JSON) is
/// linted as the HTTP text its entries describe, and findings are placed in the HAR file.
pub fn lint_source(path: &str, bytes: &[u8], options: &Options) -> FileReport {
    lint_source_deferring(path, bytes, options, false)
}

/// [`lint_source`]; with `defer`, the HTTP+JSON answers that the run-level
/// `binding-divergence` might report are not resolved: each one's finding waits in
/// [`Outcome::pending`], and the rare one that is reported is resolved by
/// [`resolve_pending`] from the file read again. Resolving every answer up front cost a
/// fifth of the run time and most of its memory on realistic traffic.
fn lint_source_deferring(path: &str, bytes: &[u8], options: &Options, defer: bool) -> FileReport {
    if !is_har(path, bytes) {
        return lint_text(path, bytes, options, None, defer);
    }
    let har = HarText {
        har: bytes,
        capture: read_har(bytes),
    };
    lint_text(path, &har.capture.wire, options, Some(&har), defer)
}

/// Resolves a finding that [`lint_source_deferring`] left pending, on the same bytes:
/// exactly the diagnostic linting would have made of it.
pub fn resolve_pending(path: &str, bytes: &[u8], finding: &Finding) -> Diagnostic {
    if !is_har(path, bytes) {
        return Resolver::new(path, bytes).resolve_one(finding, None);
    }
    let har = HarText {
        har: bytes,
        capture: read_har(bytes),
    };
    har.resolver(path).resolve_one(finding, None)
}

/// Lints HTTP text: a `.http` capture, or the text a HAR file's entries were written as.
fn lint_text(
    path: &str,
    bytes: &[u8],
    options: &Options,
    har: Option<&HarText<'_>>,
    defer: bool,
) -> FileReport {
    let enabled: Vec<&dyn Rule> = rules::all()
        .iter()
        .copied()
        .filter(|r| options.rules.is_enabled(r.id()))
        .collect();
    let mut reader = HttpReader::new(bytes);
    let mut resolver = match har {
        Some(har) => har.resolver(path),
        None => Resolver::new(path, bytes),
    };
    let mut file_directives: Vec<Directive> = Vec::new();
    let mut misplaced: Vec<Directive> = Vec::new();
    let mut suppressed = 0;
    let mut findings = Vec::new();
    let mut exchanges = 0;
    // Sends seen so far, for `retry-new-message-id`.
    let mut sends = Sends::default();
    let mut outcomes = Vec::new();
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

        let view = classify(&exchange, options.profile, &sends, options.payloads);
        // Rules that hold only for 1.0 are skipped for exchanges shaped as 0.3.
        let legacy = view.generation == Generation::V0_3;
        let errors = view.errors();
        for rule in enabled
            .iter()
            .filter(|r| !(legacy && r.id().only_for_1_0()))
        {
            rule.check_exchange(&view, &mut findings);
            for error in &errors {
                rule.check_error(&view, error, &mut findings);
            }
        }
        drop(errors);
        if let Some(har) = har {
            har.exchange_findings(&exchange, options, &mut findings);
        }
        // Built only for an exchange with something to report: clean traffic never pays.
        let anchor_cell = std::cell::OnceCell::new();
        let anchor = || {
            anchor_cell
                .get_or_init(|| anchor_of(&exchange, har))
                .clone()
        };
        if options.rules.is_enabled(rules::RuleId::BindingDivergence)
            && let Some((mut outcome, mut finding)) = binding_divergence::outcome_of(&view)
        {
            finding.exchange = Some(anchor());
            finding.severity = options.rules.severity(finding.rule, finding.severity);
            // Only an HTTP+JSON answer is ever reported (`check_run`), and only a JSON-RPC
            // one is named by its place. A finding on a start line needs no exchange to
            // be resolved, so the answer can wait to be resolved until it is reported.
            if outcome.binding != Binding::HttpJson {
                outcome.line = resolver.primary_line(&finding, Some(&exchange));
            } else if defer {
                outcome.pending = Some(Box::new(finding));
            } else {
                let diagnostic = resolver.resolve_one(&finding, Some(&exchange));
                outcome.at = Some(Box::new(diagnostic));
            }
            outcomes.push(outcome);
        }
        let record = view.send_record();
        drop(view);
        if let Some(record) = record {
            sends.record(record);
        }
        for finding in &mut findings {
            finding.exchange = Some(anchor());
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
    if let Some(har) = har {
        har.file_findings(options, &mut findings);
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
        // Both are kept until the end of the run: no spare capacity.
        diagnostics: {
            let mut diagnostics = resolver.finish();
            diagnostics.shrink_to_fit();
            diagnostics
        },
        suppressed,
        outcomes: {
            outcomes.shrink_to_fit();
            outcomes
        },
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
/// it has no request. In a HAR file its index is its entry's.
fn anchor_of(exchange: &Exchange<'_>, har: Option<&HarText<'_>>) -> Anchor {
    let message = exchange.request.as_ref().or(exchange.response.as_ref());
    let key = match message.map(|m| m.start_line) {
        Some(StartLine::Request { method, target }) => format!("{method} {target}"),
        Some(StartLine::Response { status, .. }) => format!("{status}"),
        None => String::new(),
    };
    Anchor {
        index: har.map_or(exchange.index, |har| har.entry_of(exchange)),
        key,
    }
}

/// A HAR file and the HTTP text its entries were written as.
struct HarText<'h> {
    har: &'h [u8],
    capture: HarCapture,
}

impl HarText<'_> {
    fn resolver<'r>(&'r self, path: &'r str) -> Resolver<'r> {
        Resolver::for_har(
            path,
            self.har,
            &self.capture.wire,
            &self.capture.entry_starts,
        )
    }

    /// The entry an exchange was written from.
    fn entry_of(&self, exchange: &Exchange<'_>) -> usize {
        HarCapture::entry_at(&self.capture.entry_starts, exchange.start()).unwrap_or(exchange.index)
    }

    /// Bodies of the exchange's entry marked base64 that are not.
    fn exchange_findings(
        &self,
        exchange: &Exchange<'_>,
        options: &Options,
        out: &mut Vec<Finding>,
    ) {
        let rule = rules::RuleId::UndecodableBody;
        if !options.rules.is_enabled(rule) {
            return;
        }
        let entry = self.entry_of(exchange);
        // Bodies are reported in entry order, before any problem with the file itself.
        let problems = &self.capture.problems;
        let first = problems
            .partition_point(|p| matches!(p, HarProblem::BadBase64 { entry: e, .. } if *e < entry));
        for problem in &problems[first..] {
            let HarProblem::BadBase64 { entry: e, side } = problem else {
                break;
            };
            if *e != entry {
                break;
            }
            let Some(message) = exchange.message(*side) else {
                continue;
            };
            out.push(
                Finding::new(
                    rule,
                    Label::at(message.body.raw, "not base64"),
                    "body is marked `encoding: base64` but is not base64",
                )
                .help("the HAR file was edited or damaged; a2alint checked the text as it is"),
            );
        }
    }

    /// A file that is not a HAR log, or stops being one.
    fn file_findings(&self, options: &Options, out: &mut Vec<Finding>) {
        let rule = rules::RuleId::CaptureSyntax;
        if !options.rules.is_enabled(rule) {
            return;
        }
        for problem in &self.capture.problems {
            let HarProblem::NotHar {
                offset,
                message,
                kind,
            } = problem
            else {
                continue;
            };
            let end = (*offset + 1).min(self.har.len());
            let span = har_file_span(
                self.capture.wire.len(),
                crate::source::Span::new(*offset, end.max(*offset)),
            );
            let (what, label) = match kind {
                NotHar::Syntax => ("HAR file is not valid JSON", "cannot read this"),
                NotHar::Truncated => ("HAR file is cut short", "the file ends here"),
                NotHar::Shape => ("file is not a HAR 1.2 log", "not what a HAR log holds"),
            };
            let read = match self.capture.entry_starts.len() {
                0 => "no entry was read".to_string(),
                1 => "the entry before it was read".to_string(),
                n => format!("the {n} entries before it were read"),
            };
            out.push(
                Finding::new(rule, Label::at(span, label), format!("{what}: {message}")).help(format!(
                    "a HAR file is a JSON object whose `log.entries` array holds one request and \
                     response per entry, as browsers, mitmproxy, Charles and Playwright export it; \
                     {read}"
                )),
            );
        }
    }
}

/// Reads and lints every input on the current rayon pool; the output is in input order.
/// Each file's bytes are dropped as soon as it is linted. `options_for` gives each file's
/// options (configuration overrides differ per file).
pub fn lint_inputs(
    inputs: &[Input],
    options_for: &(dyn Fn(&str) -> Options + Sync),
    on_done: &(dyn Fn() + Sync),
    max_bytes: u64,
) -> Vec<Result<FileReport, InputError>> {
    inputs
        .par_iter()
        .map(|input| {
            let bytes = input.read(max_bytes)?;
            let name = input.display_name();
            // A bug in a2alint on one file must not cost the findings of the others: the
            // file is reported as a tool failure (exit 2) and the run goes on.
            // Standard input cannot be read again: its answers are resolved at once.
            let defer = matches!(input, Input::File { .. });
            let report = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                lint_source_deferring(name, &bytes, &options_for(name), defer)
            }))
            .map_err(|_| InputError {
                path: name.to_string(),
                message: "a2alint failed on this file (an internal error; please report it with the file)".into(),
            });
            on_done();
            report
        })
        .collect()
}
