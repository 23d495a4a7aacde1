//! Where the run-level rules' findings are placed at the end of a run: the spots each
//! file kept, and for the files that did not keep what a finding needs, their spots from
//! linting them again, once per file and a batch of files at a time.

use std::collections::{HashMap, HashSet};

use crate::finding::run_level::{Place, Places, RunFinding, Spot};
use crate::input::walk::Input;
use crate::lint::run::Relint;
use crate::lint::run_inputs::RunInputs;
use crate::output::resolve::Diagnostic;
use crate::output::resolve::spots::{Placed, Spots};

/// How many files' findings are placed at a time at the end of a run: their files are
/// linted again side by side, and their spots let go of before the next batch's.
const FILES_PER_BATCH: usize = 64;

/// The run's files as run-level rules see them.
pub(super) struct RunPlaces<'a> {
    inputs: &'a RunInputs,
    /// Each file's spots, once held or linted again.
    held: HashMap<usize, Spots>,
    /// The files linted again, which hold every spot.
    relinted: HashSet<usize>,
    relint: &'a Relint<'a>,
}

impl<'a> RunPlaces<'a> {
    pub(super) fn new(
        inputs: &'a RunInputs,
        held: HashMap<usize, Spots>,
        relint: &'a Relint<'a>,
    ) -> Self {
        RunPlaces {
            inputs,
            held,
            relinted: HashSet::new(),
            relint,
        }
    }

    /// The spots file `file` holds, no longer held here.
    pub(super) fn let_go(&mut self, file: usize) -> Spots {
        self.held.remove(&file).unwrap_or_default()
    }

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
    pub(super) fn diagnostics_in_batches(
        &mut self,
        found: &[RunFinding],
    ) -> Vec<(usize, Diagnostic)> {
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
    pub(super) fn diagnostics(&mut self, found: &[&RunFinding]) -> Vec<(usize, Diagnostic)> {
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
