//! The run-level rules over a whole run: each file's facts are taken in as the file is
//! done ([`Run::absorb`]), kept compact by the rules; at the end the rules answer with
//! findings at spots, which the engine places (linting a file again for spots it did not
//! keep, once per file) and turns into each file's run-level diagnostics.

use std::collections::{HashMap, HashSet};

use crate::finding::run_level::{Place, Places, RunFinding, Spot};
use crate::input::walk::Input;
use crate::lint::run_inputs::RunInputs;
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

    /// Takes the run-level facts out of the report of `source`, input number `input`.
    pub fn absorb(&mut self, input: usize, source: &Input, report: &mut FileReport) {
        let file = self.files;
        self.files += 1;
        let mut spots = std::mem::take(&mut report.spots);
        let cards = (self.cards).add(file, std::mem::take(&mut report.cards));
        if self.relints && matches!(source, Input::File { .. }) {
            self.weigh_claims(&mut spots, &cards);
        }
        let held = spots.holds_any();
        let mut kept = held || cards.kept;
        if held {
            self.held.insert(file, spots);
        }
        kept |= (self.outcomes).add(file, std::mem::take(&mut report.outcomes));
        kept |= (self.versions).add(file, std::mem::take(&mut report.versions));
        if kept {
            self.inputs.keep(file, input, source);
        }
    }

    /// Lets go of what a file placed at once that no rule is likely to ask for (a second
    /// pass gives it if one does), and counts the claims likely reported that are held
    /// and that were left to a second pass, for [`Run::claims_now`].
    fn weigh_claims(&mut self, spots: &mut Spots, cards: &Added) {
        // Of a card's members, only a card new to the run is ever named; of claims,
        // those the cards so far contradict are likely reported.
        spots.retain(|spot, placed| match placed {
            Placed::Label(_) => cards.new_card,
            Placed::Diagnostic(d) if d.rule == RuleId::CardContradicted => {
                cards.likely.contains(&spot)
            }
            _ => true,
        });
        let held = cards
            .likely
            .iter()
            .filter(|&&s| spots.get(s).is_some())
            .count();
        self.held_claims += held;
        self.likely_relinted += usize::from(held < cards.likely.len());
        self.asked |=
            self.likely_relinted >= CLAIMS_NOW_AFTER && self.likely_relinted * 4 >= self.files;
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
        let mut places = RunPlaces {
            inputs: &self.inputs,
            held: self.held,
            relinted: HashSet::new(),
            relint,
        };
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
    let mut places = RunPlaces {
        inputs: &inputs,
        held: HashMap::from([(0, spots)]),
        relinted: HashSet::new(),
        relint: &|inputs| inputs.iter().map(|_| None).collect(),
    };
    let found: Vec<&RunFinding> = found.iter().collect();
    let diagnostics = places.diagnostics(&found).into_iter().map(|(_, d)| d);
    let diagnostics = diagnostics.collect();
    (diagnostics, places.held.remove(&0).unwrap_or_default())
}

/// Files with likely-reported claims left to a second pass before claims are placed at
/// once ([`Run::claims_now`]).
const CLAIMS_NOW_AFTER: usize = 32;

/// Placed claims a run holds at most (a few KiB each with windows, less without); past
/// them, claims are left to the second pass again.
const HELD_CLAIMS_AT_MOST: usize = 16_384;

/// How many files' findings are placed at a time at the end of a run: their files are
/// linted again side by side, and their spots let go of before the next batch's.
const FILES_PER_BATCH: usize = 64;

/// The run's files as run-level rules see them.
struct RunPlaces<'a> {
    inputs: &'a RunInputs,
    /// Each file's spots, once held or linted again.
    held: HashMap<usize, Spots>,
    /// The files linted again, which hold every spot.
    relinted: HashSet<usize>,
    relint: &'a Relint<'a>,
}

impl RunPlaces<'_> {
    /// Lints again, all at once, each file that does not hold one of `wanted`; once per
    /// file (the second pass resolves every spot): a file that cannot be read again holds
    /// nothing.
    fn hold(&mut self, wanted: impl Iterator<Item = (usize, Spot)>) {
        let mut missing: Vec<usize> = wanted
            .filter(|&(file, _)| !self.relinted.contains(&file))
            .filter(|&(file, spot)| self.held.get(&file).and_then(|s| s.get(spot)).is_none())
            .map(|(file, _)| file)
            .collect();
        missing.sort_unstable();
        missing.dedup();
        if missing.is_empty() {
            return;
        }
        let mut found: Vec<(usize, Input)> = Vec::new();
        for file in missing {
            match self.inputs.get(file) {
                Some((_, input)) => found.push((file, input)),
                // A file whose input was not kept has nothing a rule asks for.
                None => {
                    self.relinted.insert(file);
                }
            }
        }
        let inputs: Vec<&Input> = found.iter().map(|(_, input)| input).collect();
        for ((file, _), spots) in found.iter().zip((self.relint)(&inputs)) {
            let file = *file;
            self.held.insert(file, spots.unwrap_or_default());
            self.relinted.insert(file);
        }
    }

    /// What file `file` holds at `spot` ([`Self::hold`] it first).
    fn placed(&mut self, file: usize, spot: Spot) -> Option<&Placed> {
        self.hold(std::iter::once((file, spot)));
        self.held.get(&file)?.get(spot)
    }

    /// [`Self::diagnostics`] of the findings in file order, a batch of files at a time,
    /// letting go of each batch's spots once placed: a run whose run-level findings are
    /// in thousands of files holds a batch of them, not all. The findings of a file keep
    /// their order, so sorting by place afterwards gives what placing all at once does.
    fn diagnostics_in_batches(&mut self, found: &[RunFinding]) -> Vec<(usize, Diagnostic)> {
        let mut by_file: Vec<&RunFinding> = found.iter().collect();
        by_file.sort_by_key(|f| f.file);
        let mut out = Vec::with_capacity(found.len());
        let mut rest = &by_file[..];
        while !rest.is_empty() {
            let mut files = 0;
            let end = (0..rest.len())
                .find(|&i| {
                    let new_file = i == 0 || rest[i].file != rest[i - 1].file;
                    files += usize::from(new_file);
                    files > FILES_PER_BATCH
                })
                .unwrap_or(rest.len());
            let (batch, after) = rest.split_at(end);
            out.extend(self.diagnostics(batch));
            for finding in batch {
                self.held.remove(&finding.file);
            }
            rest = after;
        }
        out
    }

    /// The diagnostic of each finding, at its file: the finding kept at its spot, with the
    /// rule's message. A spot that cannot be placed (its file is gone) gives none.
    fn diagnostics(&mut self, found: &[&RunFinding]) -> Vec<(usize, Diagnostic)> {
        self.hold((found.iter()).flat_map(|f| {
            std::iter::once(f.spot)
                .chain(f.related.iter().copied())
                .map(move |spot| (f.file, spot))
        }));
        let mut out = Vec::with_capacity(found.len());
        for &finding in found {
            let Some(Placed::Diagnostic(base)) = self.placed(finding.file, finding.spot) else {
                continue;
            };
            let mut diagnostic = (**base).clone();
            diagnostic.message = finding.message.clone();
            if let Some(help) = &finding.help {
                diagnostic.help = Some(help.clone());
            }
            for &spot in &finding.related {
                let at = match self.placed(finding.file, spot) {
                    Some(Placed::Label(at)) => Some(&**at),
                    Some(Placed::Diagnostic(d)) => Some(&d.primary),
                    _ => None,
                };
                diagnostic.related.extend(at.cloned());
            }
            out.push((finding.file, diagnostic));
        }
        out
    }
}

impl Places for RunPlaces<'_> {
    fn path(&self, file: usize) -> String {
        (self.inputs.get(file))
            .map(|(_, source)| source.display_name().to_string())
            .unwrap_or_default()
    }

    fn places(&mut self, wanted: &[(usize, Spot)]) -> Vec<Option<Place>> {
        self.hold(wanted.iter().copied());
        (wanted.iter())
            .map(|&(file, spot)| self.placed(file, spot).map(Placed::place))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
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
            let mut report = FileReport {
                path: name.into(),
                outcomes,
                ..FileReport::default()
            };
            // Inputs 0, 2, 4, 6: a run's input numbers count failed inputs too.
            run.absorb(2 * input, &file(name), &mut report);
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
