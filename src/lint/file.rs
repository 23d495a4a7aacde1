//! One capture being linted: what the engine carries from exchange to exchange (earlier
//! sends, suppressions, task outcomes), and the pass over each exchange: classify, rules,
//! suppressions, resolve.

use crate::finding::run_level::Spot;
use crate::finding::{Anchor, Finding};
use crate::input::capture::wire::{Connection, WireExchange};
use crate::input::capture::{EntryText, Exchange, ReadProblem, StartLine};
use crate::lint::run;
use crate::lint::{Defer, Options};
use crate::output::FileReport;
use crate::output::resolve::Resolver;
use crate::output::resolve::spots::{Placed, Spots};
use crate::protocol::classify::{Binding, Sends, classify};
use crate::rules::binding_divergence::{self, Outcome};
use crate::rules::card_contradicted::{self, Card, CardFacts};
use crate::rules::unsupported_version_accepted::VersionFacts;
use crate::rules::{self, Hooks, Rule};
use crate::settings::suppress::{self, Directive, Scope};

/// What the exchanges being linted were read from, beside the file itself: a HAR entry
/// written as HTTP text, or a pcap exchange's text view. Findings are placed from it.
#[derive(Clone, Copy)]
pub(super) enum Unit<'a> {
    File,
    Har(&'a EntryText<'a>),
    Wire(&'a WireExchange),
    /// A pcap connection as a whole (a hole in it, TLS).
    Connection(&'a Connection),
}

pub(super) struct FileLint<'r> {
    path: &'r str,
    options: &'r Options,
    /// The rules enabled, in catalogue order, with the hooks each overrides.
    enabled: Vec<(&'static dyn Rule, Hooks)>,
    resolver: Resolver<'r>,
    /// What is kept as a number only, for the run to lint the file again if it needs it.
    defer: Defer,
    file_directives: Vec<Directive>,
    misplaced: Vec<Directive>,
    suppressed: usize,
    findings: Vec<Finding>,
    exchanges: usize,
    sends: Sends,
    outcomes: Vec<Outcome>,
    versions: VersionFacts,
    cards: CardFacts,
    /// Where the run-level rules' facts point.
    spots: Spots,
}

impl<'r> FileLint<'r> {
    pub(super) fn new(
        path: &'r str,
        options: &'r Options,
        resolver: Resolver<'r>,
        defer: Defer,
    ) -> Self {
        FileLint {
            path,
            options,
            enabled: (rules::all().iter().copied())
                .filter(|r| options.rules.is_enabled(r.id()))
                .map(|r| (r, r.hooks()))
                .collect(),
            resolver: resolver.windows(!options.no_windows),
            defer,
            file_directives: Vec::new(),
            misplaced: Vec::new(),
            suppressed: 0,
            findings: Vec::new(),
            exchanges: 0,
            sends: Sends::default(),
            outcomes: Vec::new(),
            versions: VersionFacts::default(),
            cards: CardFacts::default(),
            spots: Spots::default(),
        }
    }

    /// The resolver findings are placed with, for what a format tells it late.
    pub(super) fn resolver(&mut self) -> &mut Resolver<'r> {
        &mut self.resolver
    }

    /// Exchanges linted so far: the index of the next one.
    pub(super) fn exchanges(&self) -> usize {
        self.exchanges
    }

    /// Lints one exchange read from `bytes`; `extra` are findings about it made outside
    /// the rules (a HAR body that is not the base64 it claims).
    pub(super) fn exchange(
        &mut self,
        bytes: &[u8],
        exchange: &Exchange<'_>,
        // Where the exchange's text came from, for placing findings.
        unit: Unit<'_>,
        extra: Vec<Finding>,
    ) {
        let options = self.options;
        self.exchanges += 1;
        let mut directives = if options.no_ignores {
            Vec::new()
        } else {
            directives_of(bytes, exchange)
        };
        // `ignore-file` counts only before the first message (A2A captures are read
        // in one pass); elsewhere it is reported as unused.
        let (file, exchange_scope): (Vec<_>, Vec<_>) =
            directives.drain(..).partition(|d| d.scope == Scope::File);
        for directive in file {
            if exchange.index == 0 && directive.span.start < exchange.start() {
                self.file_directives.push(directive);
            } else {
                self.misplaced.push(directive);
            }
        }
        let mut directives = exchange_scope;

        // Held apart while the view borrows them, so the rest of the lint stays usable.
        let mut sends = std::mem::take(&mut self.sends);
        let view = classify(exchange, options.profile, &sends, options.payloads);
        let errors = view.errors();
        rules::check_exchange(&self.enabled, &view, &errors, &mut self.findings);
        if options.rules.is_enabled(rules::RuleId::CardContradicted) {
            self.card_facts(&view, &errors, exchange, unit, &mut directives);
        }
        if let Unit::Har(entry) = unit
            && let Some(why) = entry.failure
            && exchange.response.is_none()
        {
            super::har::note_failure(&mut self.findings, why);
        }
        self.findings.extend(extra);
        // Built only for an exchange with something to report: clean traffic never pays.
        let anchor_cell = std::cell::OnceCell::new();
        let anchor = || {
            anchor_cell
                .get_or_init(|| anchor_of(exchange, unit))
                .clone()
        };
        if options.rules.is_enabled(rules::RuleId::BindingDivergence) {
            let outcome =
                binding_divergence::outcome_of(&view, &errors, &mut |mut finding, binding| {
                    finding.exchange = Some(anchor());
                    finding.severity = options.rules.severity(finding.rule, finding.severity);
                    // Only HTTP+JSON and gRPC answers are ever reported (`check_run`): a
                    // JSON-RPC one is only named by its line.
                    let as_ = match binding {
                        Binding::JsonRpc => Keep::Named,
                        _ => Keep::Answer,
                    };
                    self.keep(finding, exchange, unit, as_)
                });
            self.outcomes.extend(outcome);
        }
        if options
            .rules
            .is_enabled(rules::RuleId::UnsupportedVersionAccepted)
        {
            self.versions.read_card(&view);
            // Placed now, while the exchange is at hand; reported only if a card of the
            // file or the run leaves its version out.
            if let Some(mut claim) = self.versions.new_claim(&view) {
                let finding = &mut claim.finding;
                finding.exchange = Some(anchor());
                finding.severity = options.rules.severity(finding.rule, finding.severity);
                // Resolved now: the file's own cards may settle it at its end.
                let spot = self.keep(claim.finding.clone(), exchange, unit, Keep::Now);
                self.versions.claim(claim, spot);
            }
        }
        let record = view.send_record(&errors).cloned();
        drop(errors);
        drop(view);
        if let Some(record) = record {
            sends.record(record);
        }
        self.sends = sends;
        for finding in &mut self.findings {
            finding.exchange = Some(anchor());
            finding.severity = options.rules.severity(finding.rule, finding.severity);
        }
        self.suppressed += suppress::apply(&mut directives, &mut self.findings)
            + suppress::apply(&mut self.file_directives, &mut self.findings);
        self.findings
            .extend(unused_findings(&directives, false, options));
        if !self.findings.is_empty() {
            enter(&mut self.resolver, unit);
            self.resolver.add(self.findings.drain(..), Some(exchange));
        }
    }

    /// Notes the agent card `view` answers with, and the claims it makes of its agent's
    /// card, placed now while the exchange is at hand (unless an inline suppression
    /// silences them); the run's cards judge them (`card_contradicted::check_run`).
    fn card_facts(
        &mut self,
        view: &crate::protocol::classify::ExchangeView<'_, '_>,
        errors: &[crate::protocol::classify::ErrorView<'_>],
        exchange: &Exchange<'_>,
        unit: Unit<'_>,
        directives: &mut [Directive],
    ) {
        let (resolver, spots) = (&mut self.resolver, &mut self.spots);
        let defer = self.defer == Defer::All;
        let mut place = |label| {
            if defer {
                return spots.keep(None);
            }
            enter(resolver, unit);
            let finding = Finding::new(rules::RuleId::CardContradicted, label, "");
            let at = resolver.primary_location(&finding, Some(exchange));
            spots.keep(Some(Placed::Label(Box::new(at))))
        };
        if let Some(card) = Card::read(view, &mut place) {
            self.cards.add_card(card);
        }
        let facts = &mut self.cards;
        let claims = card_contradicted::claims_of(view, errors, &mut |c, a| facts.repeat(c, a));
        for mut claim in claims {
            let finding = &mut claim.finding;
            finding.exchange = Some(anchor_of(exchange, unit));
            finding.severity = (self.options.rules).severity(finding.rule, finding.severity);
            let mut held = vec![finding.clone()];
            if suppress::apply(directives, &mut held)
                + suppress::apply(&mut self.file_directives, &mut held)
                > 0
            {
                continue;
            }
            let spot = self.keep(held.remove(0), exchange, unit, Keep::Claim);
            self.cards.claim(claim, spot);
        }
    }

    /// Keeps `finding` for a run-level rule, which may report it or name its place: as
    /// a number only when the run can lint the file again and `defer` says so for its
    /// kind, else resolved now (to its line alone if it is only ever named).
    fn keep(
        &mut self,
        finding: Finding,
        exchange: &Exchange<'_>,
        unit: Unit<'_>,
        as_: Keep,
    ) -> Spot {
        let number_only = match as_ {
            Keep::Named | Keep::Answer => self.defer != Defer::Nothing,
            Keep::Claim => self.defer == Defer::All,
            Keep::Now => false,
        };
        if number_only {
            return self.spots.keep(None);
        }
        enter(&mut self.resolver, unit);
        let placed = match as_ {
            Keep::Named => Placed::Line(self.resolver.primary_line(&finding, Some(exchange))),
            Keep::Answer | Keep::Claim | Keep::Now => Placed::Diagnostic(Box::new(
                self.resolver.resolve_one(&finding, Some(exchange)),
            )),
        };
        self.spots.keep(Some(placed))
    }

    /// Lints what the reader could not read in the text of `entry` (or of the file).
    pub(super) fn problems(&mut self, problems: &[ReadProblem], unit: Unit<'_>) {
        for &(rule, hooks) in &self.enabled {
            rules::call(rule, hooks, Hooks::PROBLEMS, &mut self.findings, |out| {
                rule.check_problems(problems, out);
            });
        }
        if !self.findings.is_empty() {
            self.file_findings(Vec::new());
            enter(&mut self.resolver, unit);
            self.resolver.add(self.findings.drain(..), None);
        }
    }

    /// The report, after the findings about the file as a whole (`extra`) and the
    /// suppressions that were never used.
    pub(super) fn finish(mut self, extra: Vec<Finding>) -> FileReport {
        let options = self.options;
        self.file_findings(extra);
        self.findings
            .extend(unused_findings(&self.file_directives, false, options));
        self.findings
            .extend(unused_findings(&self.misplaced, true, options));
        self.resolver.add(self.findings.drain(..), None);
        FileReport {
            path: self.path.to_string(),
            repo_path: options.repo_path.clone(),
            exchanges: self.exchanges,
            // Both are kept until the end of the run: no spare capacity.
            diagnostics: {
                let mut diagnostics = self.resolver.finish();
                let settled = self.versions.settle();
                if !settled.is_empty() {
                    let spots = std::mem::take(&mut self.spots);
                    let (found, spots) = run::diagnostics_in_file(self.path, spots, &settled);
                    self.spots = spots;
                    diagnostics.extend(found);
                    diagnostics.sort_by_key(|d| (d.primary.span.start, d.rule));
                }
                diagnostics.shrink_to_fit();
                diagnostics
            },
            suppressed: self.suppressed,
            outcomes: {
                self.outcomes.shrink_to_fit();
                self.outcomes
            },
            versions: self.versions,
            cards: self.cards,
            spots: {
                // Linted again if the run needs them (see `spots`).
                if self.defer == Defer::All {
                    self.spots.forget();
                }
                self.spots
            },
            wire: None,
        }
    }

    /// Adds findings about no exchange, under the file's suppressions.
    fn file_findings(&mut self, extra: Vec<Finding>) {
        self.findings.extend(extra);
        for finding in &mut self.findings {
            finding.severity = self.options.rules.severity(finding.rule, finding.severity);
        }
        self.suppressed += suppress::apply(&mut self.file_directives, &mut self.findings);
    }
}

/// What a run-level rule does with a finding it keeps ([`FileLint::keep`]).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Keep {
    /// Only named by its place (`binding-divergence`'s reference answers).
    Named,
    /// A task answer, maybe reported at the end of the run.
    Answer,
    /// A claim about an agent card, maybe reported at the end of the run.
    Claim,
    /// Maybe reported at the end of the file: resolved now, while the file is at hand.
    Now,
}

/// Findings from now on are about `unit`.
fn enter(resolver: &mut Resolver<'_>, unit: Unit<'_>) {
    match unit {
        Unit::File => resolver.enter_connection(None),
        Unit::Connection(connection) => resolver.enter_connection(Some(connection)),
        Unit::Har(entry) => resolver.enter_har_entry(entry),
        Unit::Wire(exchange) => resolver.enter_wire(exchange),
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
fn anchor_of(exchange: &Exchange<'_>, unit: Unit<'_>) -> Anchor {
    let message = exchange.request.as_ref().or(exchange.response.as_ref());
    let key = match message.map(|m| m.start_line) {
        // Sized at once: `format!` guessed from its literals and grew for a long target.
        Some(StartLine::Request { method, target }) => [method, " ", target].concat(),
        Some(StartLine::Response { status, .. }) => format!("{status}"),
        None => String::new(),
    };
    Anchor {
        index: match unit {
            Unit::Har(entry) => entry.index,
            Unit::File | Unit::Wire(_) | Unit::Connection(_) => exchange.index,
        },
        key,
    }
}
