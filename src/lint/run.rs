//! The run-level rules over a whole run: each file's facts are taken in as the file is
//! done ([`Run::absorb`]), kept compact by the rules; at the end the rules answer with
//! findings at spots, which the engine places (linting a file again for spots it did not
//! keep, once per file) and turns into each file's run-level diagnostics.

use std::collections::{HashMap, HashSet};

use crate::finding::run_level::{Place, Places, RunFinding, Spot};
use crate::output::FileReport;
use crate::output::resolve::Diagnostic;
use crate::output::resolve::spots::{Placed, Spots};
use crate::rules::binding_divergence::RunOutcomes;
use crate::rules::card_contradicted::RunCards;
use crate::rules::unsupported_version_accepted::RunVersions;

/// Lints inputs again, resolving every spot at once (each `None` when it cannot be
/// read); given all a rule needs at once, so that they can be linted side by side.
pub type Relint<'a> = dyn Fn(&[usize]) -> Vec<Option<Spots>> + 'a;

/// The facts of the run so far. Per file it keeps the input index; the rules keep what
/// they need, compact (see each rule's `Run*`).
#[derive(Default)]
pub struct Run {
    /// The input each file was read from, by file number in the run.
    inputs: Vec<usize>,
    /// Spots that a file resolved at once (read from standard input or live, or linted
    /// by the library), which a second pass cannot give.
    held: HashMap<usize, Spots>,
    outcomes: RunOutcomes,
    versions: RunVersions,
    cards: RunCards,
}

impl Run {
    /// Takes the run-level facts out of the report of input `input`.
    pub fn absorb(&mut self, input: usize, report: &mut FileReport) {
        let file = self.inputs.len();
        self.inputs.push(input);
        let spots = std::mem::take(&mut report.spots);
        if spots.holds_any() {
            self.held.insert(file, spots);
        }
        self.outcomes
            .add(file, std::mem::take(&mut report.outcomes));
        self.versions
            .add(file, std::mem::take(&mut report.versions));
        self.cards.add(file, std::mem::take(&mut report.cards));
    }

    /// Runs `binding-divergence`, `unsupported-version-accepted` and `card-contradicted`:
    /// the run-level diagnostics of each input that has any, in input order, each file's
    /// in place order. `path_of` and `relint` take an input index.
    pub fn finish(
        self,
        path_of: &dyn Fn(usize) -> String,
        relint: &Relint<'_>,
    ) -> Vec<(usize, Vec<Diagnostic>)> {
        let mut places = RunPlaces {
            inputs: &self.inputs,
            held: self.held,
            relinted: HashSet::new(),
            path_of,
            relint,
        };
        let mut found = self.outcomes.check(&mut places);
        found.extend(self.versions.check(&places));
        found.extend(self.cards.check(&mut places));
        let mut by_input: Vec<(usize, Vec<Diagnostic>)> = Vec::new();
        let mut placed: Vec<(usize, Diagnostic)> = places.diagnostics(&found);
        // Stable: at one place, findings keep the order their rules ran in.
        placed.sort_by_key(|(file, d)| (*file, d.primary.span.start, d.rule));
        for (file, diagnostic) in placed {
            let input = self.inputs[file];
            match by_input.last_mut() {
                Some((last, diagnostics)) if *last == input => diagnostics.push(diagnostic),
                _ => by_input.push((input, vec![diagnostic])),
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
        run.absorb(input, report);
    }
    let paths: Vec<String> = reports.iter().map(|r| r.path.clone()).collect();
    let relint = |inputs: &[usize]| inputs.iter().map(|_| None).collect();
    for (input, diagnostics) in run.finish(&|input| paths[input].clone(), &relint) {
        let report = &mut reports[input];
        report.diagnostics.extend(diagnostics);
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
    let mut places = RunPlaces {
        inputs: &[0],
        held: HashMap::from([(0, spots)]),
        relinted: HashSet::new(),
        path_of: &|_| path.to_string(),
        relint: &|inputs| inputs.iter().map(|_| None).collect(),
    };
    let diagnostics = places.diagnostics(found).into_iter().map(|(_, d)| d);
    let diagnostics = diagnostics.collect();
    (diagnostics, places.held.remove(&0).unwrap_or_default())
}

/// The run's files as run-level rules see them.
struct RunPlaces<'a> {
    inputs: &'a [usize],
    /// Each file's spots, once held or linted again.
    held: HashMap<usize, Spots>,
    /// The files linted again, which hold every spot.
    relinted: HashSet<usize>,
    path_of: &'a dyn Fn(usize) -> String,
    relint: &'a Relint<'a>,
}

impl RunPlaces<'_> {
    /// Lints again, all at once, each file that does not hold one of `wanted`; once per
    /// file (the second pass resolves every spot): a file that cannot be read again holds
    /// nothing.
    fn hold(&mut self, wanted: impl Iterator<Item = (usize, Spot)>) {
        let mut missing: Vec<usize> = wanted
            .filter(|&(file, _)| file < self.inputs.len() && !self.relinted.contains(&file))
            .filter(|&(file, spot)| self.held.get(&file).and_then(|s| s.get(spot)).is_none())
            .map(|(file, _)| file)
            .collect();
        missing.sort_unstable();
        missing.dedup();
        if missing.is_empty() {
            return;
        }
        let inputs: Vec<usize> = missing.iter().map(|&f| self.inputs[f]).collect();
        for (file, spots) in missing.into_iter().zip((self.relint)(&inputs)) {
            self.held.insert(file, spots.unwrap_or_default());
            self.relinted.insert(file);
        }
    }

    /// What file `file` holds at `spot` ([`Self::hold`] it first).
    fn placed(&mut self, file: usize, spot: Spot) -> Option<&Placed> {
        self.hold(std::iter::once((file, spot)));
        self.held.get(&file)?.get(spot)
    }

    /// The diagnostic of each finding, at its file: the finding kept at its spot, with the
    /// rule's message. A spot that cannot be placed (its file is gone) gives none.
    fn diagnostics(&mut self, found: &[RunFinding]) -> Vec<(usize, Diagnostic)> {
        self.hold((found.iter()).flat_map(|f| {
            std::iter::once(f.spot)
                .chain(f.related.iter().copied())
                .map(move |spot| (f.file, spot))
        }));
        let mut out = Vec::with_capacity(found.len());
        for finding in found {
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
        self.inputs
            .get(file)
            .map(|&i| (self.path_of)(i))
            .unwrap_or_default()
    }

    fn places(&mut self, wanted: &[(usize, Spot)]) -> Vec<Option<Place>> {
        self.hold(wanted.iter().copied());
        (wanted.iter())
            .map(|&(file, spot)| self.placed(file, spot).map(Placed::place))
            .collect()
    }
}
