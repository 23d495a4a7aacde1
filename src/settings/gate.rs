//! After linting, file by file as the engine hands reports over: drops findings that
//! configured ignores silence or that the baseline already holds, counting both, and
//! collects baselines. What it keeps across files is counts and keys into the baseline.

use std::collections::HashMap;
use std::io;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::output::FileReport;
use crate::settings::config::Config;

/// What the gate held back.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Held {
    pub suppressed: usize,
    pub baselined: usize,
    pub stale_baseline: usize,
}

/// A baseline file: the findings a team has accepted, by fingerprint. Paths are from the
/// repository root (absolute for files outside it), like fingerprints, so a baseline
/// written in one directory holds in any other.
#[derive(Debug, Serialize, Deserialize)]
pub struct Baseline {
    version: u32,
    findings: Vec<BaselineEntry>,
}

#[derive(Debug, Serialize, Deserialize, PartialEq, Eq, PartialOrd, Ord)]
struct BaselineEntry {
    path: String,
    rule: String,
    fingerprint: String,
    /// For people reviewing the file; matching uses the fingerprint.
    message: String,
}

impl Baseline {
    pub fn read(path: &Path) -> io::Result<Baseline> {
        let text = std::fs::read_to_string(path)?;
        let baseline: Baseline = serde_json::from_str(&text).map_err(|e| {
            io::Error::new(
                io::ErrorKind::InvalidData,
                format!("{}: not an a2alint baseline: {e}", path.display()),
            )
        })?;
        if baseline.version != 1 {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "{}: baseline version {} is not supported",
                    path.display(),
                    baseline.version
                ),
            ));
        }
        Ok(baseline)
    }

    /// A baseline to be filled with [`Self::add`].
    pub fn empty() -> Baseline {
        Baseline {
            version: 1,
            findings: Vec::new(),
        }
    }

    /// Adds every finding of `report`, whose file the baseline names `path` (from the
    /// repository root).
    pub fn add(&mut self, report: &FileReport, path: &str) {
        self.findings
            .extend(report.diagnostics.iter().map(|d| BaselineEntry {
                path: path.to_string(),
                rule: d.rule.slug().to_string(),
                fingerprint: d.fingerprint.clone(),
                message: d.message.clone(),
            }));
    }

    /// Writes the baseline, its entries sorted and each once, whatever order they were
    /// added in.
    pub fn write(&mut self, path: &Path) -> io::Result<()> {
        self.findings.sort_unstable();
        self.findings.dedup();
        let mut text = serde_json::to_string_pretty(self).map_err(io::Error::other)?;
        text.push('\n');
        std::fs::write(path, text)
    }

    pub fn len(&self) -> usize {
        self.findings.len()
    }
}

/// The gate over a run: configured ignores and the baseline, applied to each file's
/// report as it comes, then to the findings of the run-level rules.
pub struct Gate<'b> {
    config: &'b Config,
    no_ignores: bool,
    baseline: Option<&'b Baseline>,
    /// The baseline's (path, fingerprint) keys, each numbered, and its paths.
    known: HashMap<(&'b str, &'b str), usize>,
    paths: HashMap<&'b str, usize>,
    /// Keys a finding matched, and the baseline's paths this run linted: entries for
    /// files it did not lint are not stale (`--files-from` lints a few).
    matched: Vec<bool>,
    linted: Vec<bool>,
    held: Held,
}

impl<'b> Gate<'b> {
    /// Configured ignores apply unless `no_ignores`.
    pub fn new(config: &'b Config, baseline: Option<&'b Baseline>, no_ignores: bool) -> Self {
        let entries = baseline.map_or(&[][..], |b| &b.findings[..]);
        let mut known = HashMap::new();
        let mut paths = HashMap::new();
        for e in entries {
            let n = known.len();
            known
                .entry((e.path.as_str(), e.fingerprint.as_str()))
                .or_insert(n);
            let n = paths.len();
            paths.entry(e.path.as_str()).or_insert(n);
        }
        Gate {
            config,
            no_ignores,
            baseline,
            matched: vec![false; known.len()],
            linted: vec![false; paths.len()],
            known,
            paths,
            held: Held::default(),
        }
    }

    /// Gates a file's report; the baseline names its file `key` (the repository path of
    /// the path it is shown under).
    pub fn file(&mut self, report: &mut FileReport, key: &str) {
        self.held.suppressed += report.suppressed;
        self.run_level(report, key);
    }

    /// Gates findings added to a report after its file was gated (the run-level rules').
    pub fn run_level(&mut self, report: &mut FileReport, key: &str) {
        if let Some(&path) = self.paths.get(key) {
            self.linted[path] = true;
        }
        let ignores = (!self.no_ignores).then(|| self.config.ignores_for(&report.path));
        report.diagnostics.retain(|d| {
            if ignores.as_ref().is_some_and(|i| i.silence(d)) {
                self.held.suppressed += 1;
                return false;
            }
            if let Some(&known) = self.known.get(&(key, d.fingerprint.as_str())) {
                self.held.baselined += 1;
                self.matched[known] = true;
                return false;
            }
            true
        });
    }

    /// What the gate held back over the run.
    pub fn held(&self) -> Held {
        let mut held = self.held;
        if let Some(baseline) = self.baseline {
            held.stale_baseline = (baseline.findings.iter())
                .filter(|e| {
                    let key = (e.path.as_str(), e.fingerprint.as_str());
                    self.linted[self.paths[key.0]] && !self.matched[self.known[&key]]
                })
                .count();
        }
        held
    }
}
