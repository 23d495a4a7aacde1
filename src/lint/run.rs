//! The run-level rules over a whole run: each file's facts are taken in as the file is
//! done ([`Run::absorb`]), kept compact by the rules; at the end the rules answer with
//! findings at spots, which the engine places (linting a file again for spots it did not
//! keep, once per file) and turns into each file's run-level diagnostics.

use std::collections::HashMap;

use crate::finding::run_level::RunFinding;
use crate::input::walk::Input;
use crate::lint::run_inputs::RunInputs;
use crate::lint::run_places::RunPlaces;
use crate::output::FileReport;
use crate::output::resolve::Diagnostic;
use crate::output::resolve::spots::{Placed, Spots};
use crate::rules::RuleId;
use crate::rules::binding_divergence::RunOutcomes;
use crate::rules::card_contradicted::{Added, RunCards};
use crate::rules::unsupported_version_accepted::RunVersions;

/// Lints inputs again, resolving every spot at once (each `None` when it cannot be
/// read); given all a rule needs at once, so that they can be linted side by side.
pub type Relint<'a> = dyn Fn(&[&Input]) -> Vec<Option<Spots>> + 'a;

/// The facts of the run so far. The rules keep what they need, compact (see each rule's
/// `Run*`), and the run keeps the input of a file only while a rule keeps a fact of it,
/// so that a run of many files with nothing to compare holds none of their names.
#[derive(Default)]
pub struct Run {
    /// The number of files taken in.
    files: usize,
    /// Files can be linted again (`check`'s files): a spot no rule is likely to ask for
    /// is let go of, and given again by a second pass if it is asked for after all.
    relints: bool,
    /// Files whose claims the cards so far contradict, left to a second pass.
    likely_relinted: usize,
    /// Claims were asked for at once ([`Run::claims_now`]), and how many placed claims
    /// are held since, of the most a run holds.
    asked: bool,
    held_claims: usize,
    held_claims_at_most: usize,
    /// The input number and the input of each file a rule may name, by file number.
    inputs: RunInputs,
    /// Spots that a file resolved at once (read from standard input or live, or linted
    /// by the library), which a second pass cannot give.
    held: HashMap<usize, Spots>,
    outcomes: RunOutcomes,
    versions: RunVersions,
    cards: RunCards,
}

impl Run {
    /// A run over files that can be linted again.
    pub fn relinting() -> Run {
        Run {
            relints: true,
            held_claims_at_most: HELD_CLAIMS_AT_MOST,
            ..Run::default()
        }
    }

    /// [`Run::relinting`], holding at most `claims` placed claims.
    #[cfg(test)]
    pub(super) fn holding_at_most(claims: usize) -> Run {
        Run {
            held_claims_at_most: claims,
            ..Run::relinting()
        }
    }

    /// Takes in the run-level facts of the report of `source`, input number `input`. The
    /// run copies what it keeps rather than take it from the report: the engine hands the
    /// report back to the thread that linted it, to be freed there. Freed here, its small
    /// allocations were reused by this thread while their neighbours in the same cache
    /// lines were still the other thread's, and two threads spent about 15 % more CPU
    /// time for it (BENCHMARKS.md, "The tenth round").
    pub fn absorb(&mut self, input: usize, source: &Input, report: &FileReport) {
        let file = self.files;
        self.files += 1;
        let cards = (self.cards).add(file, &report.cards);
        let spots = match self.relints && matches!(source, Input::File { .. }) {
            true => self.weigh_claims(&report.spots, &cards),
            false => report.spots.copied(|_, _| true),
        };
        let mut kept = cards.kept;
        if let Some(spots) = spots {
            self.held.insert(file, spots);
            kept = true;
        }
        kept |= (self.outcomes).add(file, &report.outcomes);
        kept |= (self.versions).add(file, &report.versions);
        if kept {
            self.inputs.keep(file, input, source);
        }
    }

    /// What the run holds of a file's spots: not what no rule is likely to ask for (a
    /// second pass gives it if one does). Counts the claims likely reported that are held
    /// and that were left to a second pass, for [`Run::claims_now`].
    fn weigh_claims(&mut self, spots: &Spots, cards: &Added) -> Option<Spots> {
        // Of a card's members, only a card new to the run is ever named; of claims,
        // those the cards so far contradict are likely reported.
        let spots = spots.copied(|spot, placed| match placed {
            Placed::Label(_) => cards.new_card,
            Placed::Diagnostic(d) if d.rule == RuleId::CardContradicted => {
                cards.likely.contains(&spot)
            }
            _ => true,
        });
        let held = (cards.likely.iter())
            .filter(|&&s| spots.as_ref().is_some_and(|spots| spots.get(s).is_some()))
            .count();
        self.held_claims += held;
        self.likely_relinted += usize::from(held < cards.likely.len());
        self.asked |=
            self.likely_relinted >= CLAIMS_NOW_AFTER && self.likely_relinted * 4 >= self.files;
        spots
    }

    /// Whether files linted from now on should resolve their claims about agent cards
    /// at once: when many files so far made claims the run's cards contradict, linting
    /// them all a second time at the end would cost more than placing their few claims
    /// now (a quarter of the files, after the first few dozen). Until the run holds
    /// [`HELD_CLAIMS_AT_MOST`] of them: a later card may yet leave them unreported (two
    /// cards of one agent that disagree), so what is held must stay bounded.
    pub fn claims_now(&self) -> bool {
        self.asked && self.held_claims < self.held_claims_at_most
    }

    /// Runs `binding-divergence`, `unsupported-version-accepted` and `card-contradicted`:
    /// the run-level diagnostics of each input that has any, in input order, each file's
    /// in place order, with its input number.
    pub fn finish(self, relint: &Relint<'_>) -> Vec<(usize, FileReport)> {
        let mut places = RunPlaces::new(&self.inputs, self.held, relint);
        let mut found = self.outcomes.check(&mut places);
        found.extend(self.versions.check(&places));
        found.extend(self.cards.check(&mut places));
        let mut by_input: Vec<(usize, FileReport)> = Vec::new();
        let mut placed: Vec<(usize, Diagnostic)> = places.diagnostics_in_batches(&found);
        // Stable: at one place, findings keep the order their rules ran in.
        placed.sort_by_key(|(file, d)| (*file, d.primary.span.start, d.rule));
        let mut last_file = None;
        for (file, diagnostic) in placed {
            if last_file != Some(file) {
                // A finding is placed only in a file whose input is kept (`hold`).
                let Some((input, source)) = self.inputs.get(file) else {
                    continue;
                };
                last_file = Some(file);
                let path = source.display_name().to_string();
                (by_input).push((
                    input,
                    FileReport {
                        path,
                        ..FileReport::default()
                    },
                ));
            }
            if let Some((_, report)) = by_input.last_mut() {
                report.diagnostics.push(diagnostic);
            }
        }
        by_input
    }
}

/// [`Run`] over reports of [`crate::lint_source`], which resolves every spot at once:
/// adds each report's run-level diagnostics to it.
pub fn check_linted_run(reports: &mut [FileReport]) {
    let mut run = Run::default();
    for (input, report) in reports.iter_mut().enumerate() {
        let source = Input::File {
            name: report.path.as_str().into(),
            path: None,
        };
        run.absorb(input, &source, report);
    }
    let relint = |inputs: &[&Input]| inputs.iter().map(|_| None).collect();
    for (input, found) in run.finish(&relint) {
        let report = &mut reports[input];
        report.diagnostics.extend(found.diagnostics);
        (report.diagnostics).sort_by_key(|d| (d.primary.span.start, d.rule));
    }
}

/// Resolves the findings of `found` that are at spots of one file linted at once, with
/// the spots it holds: run-level rules that judge a file by itself (its own cards).
pub fn diagnostics_in_file(
    path: &str,
    spots: Spots,
    found: &[RunFinding],
) -> (Vec<Diagnostic>, Spots) {
    let source = Input::File {
        name: path.into(),
        path: None,
    };
    let mut inputs = RunInputs::in_memory();
    inputs.keep(0, 0, &source);
    let relint: &Relint<'_> = &|inputs| inputs.iter().map(|_| None).collect();
    let mut places = RunPlaces::new(&inputs, HashMap::from([(0, spots)]), relint);
    let found: Vec<&RunFinding> = found.iter().collect();
    let diagnostics = places.diagnostics(&found).into_iter().map(|(_, d)| d);
    let diagnostics = diagnostics.collect();
    (diagnostics, places.let_go(0))
}

/// Files with likely-reported claims left to a second pass before claims are placed at
/// once ([`Run::claims_now`]).
const CLAIMS_NOW_AFTER: usize = 32;

/// Placed claims a run holds at most (a few KiB each with windows, less without); past
/// them, claims are left to the second pass again.
const HELD_CLAIMS_AT_MOST: usize = 16_384;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::finding::run_level::Spot;
    use crate::protocol::classify::{Binding, Operation};
    use crate::rules::binding_divergence::Outcome;

    fn file(name: &str) -> Input {
        Input::File {
            name: name.into(),
            path: None,
        }
    }

    fn answer(binding: Binding, reason: Option<&str>) -> Outcome {
        Outcome {
            binding,
            operation: Operation::GetTask,
            task_id: "t-1".into(),
            reason: reason.map(Into::into),
            answer: Spot(0),
        }
    }

    /// The run names at its end only files whose facts a rule kept: a file whose
    /// answer repeats one already kept, or that has none, is not kept, and the finding
    /// lands in the right file, under its input number.
    #[test]
    fn only_files_a_rule_keeps_facts_of_are_kept() {
        let mut run = Run::default();
        let reports = [
            ("first.http", vec![answer(Binding::JsonRpc, None)]),
            ("again.http", vec![answer(Binding::JsonRpc, None)]),
            ("nothing.http", vec![]),
            (
                "rest.http",
                vec![answer(Binding::HttpJson, Some("TASK_NOT_FOUND"))],
            ),
        ];
        for (input, (name, outcomes)) in reports.into_iter().enumerate() {
            let report = FileReport {
                path: name.into(),
                outcomes,
                ..FileReport::default()
            };
            // Inputs 0, 2, 4, 6: a run's input numbers count failed inputs too.
            run.absorb(2 * input, &file(name), &report);
        }
        assert_eq!(run.inputs.get(0).map(|(i, _)| i), Some(0));
        assert_eq!(run.inputs.get(1), None);
        assert_eq!(run.inputs.get(2), None);
        assert_eq!(run.inputs.get(3), Some((6, file("rest.http"))));
        let asked = std::cell::RefCell::new(Vec::new());
        let relint = |inputs: &[&Input]| {
            asked
                .borrow_mut()
                .extend(inputs.iter().map(|i| i.display_name().to_string()));
            inputs.iter().map(|_| None).collect()
        };
        let found = run.finish(&relint);
        // The diverging answer and the reference it names were not held, so their files
        // were linted again (here: given nothing back, so no finding can be placed).
        assert_eq!(*asked.borrow(), ["first.http", "rest.http"]);
        assert!(found.is_empty());
    }
}
