//! After linting: drops findings that configured ignores silence or that the baseline
//! already holds, counting both, and writes baselines.

use std::collections::{BTreeSet, HashSet};
use std::io;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::config::Config;
use crate::lint::FileReport;

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

    /// The baseline of every finding in `reports`, each file named by `repo_path` of
    /// the path it is shown under.
    pub fn of(reports: &[FileReport], repo_path: &dyn Fn(&str) -> String) -> Baseline {
        let findings: BTreeSet<BaselineEntry> = reports
            .iter()
            .flat_map(|r| {
                let path = repo_path(&r.path);
                r.diagnostics.iter().map(move |d| BaselineEntry {
                    path: path.clone(),
                    rule: d.rule.slug().to_string(),
                    fingerprint: d.fingerprint.clone(),
                    message: d.message.clone(),
                })
            })
            .collect();
        Baseline {
            version: 1,
            findings: findings.into_iter().collect(),
        }
    }

    pub fn write(&self, path: &Path) -> io::Result<()> {
        let mut text = serde_json::to_string_pretty(self).map_err(io::Error::other)?;
        text.push('\n');
        std::fs::write(path, text)
    }

    pub fn len(&self) -> usize {
        self.findings.len()
    }
}

/// Applies configured ignores (unless `no_ignores`) and the baseline to `reports`; the
/// baseline names files by `repo_path` of the paths they are shown under.
pub fn apply(
    reports: &mut [FileReport],
    config: &Config,
    baseline: Option<&Baseline>,
    no_ignores: bool,
    repo_path: &dyn Fn(&str) -> String,
) -> Held {
    let mut held = Held::default();
    let known: HashSet<(&str, &str)> = baseline
        .map(|b| {
            b.findings
                .iter()
                .map(|e| (e.path.as_str(), e.fingerprint.as_str()))
                .collect()
        })
        .unwrap_or_default();
    let mut matched: HashSet<(String, String)> = HashSet::new();
    // Entries for files this run did not lint are not stale: `--files-from` lints a few.
    let mut linted: HashSet<String> = HashSet::new();
    for report in reports.iter_mut() {
        held.suppressed += report.suppressed;
        let path = report.path.clone();
        let key = repo_path(&path);
        report.diagnostics.retain(|d| {
            if !no_ignores && config.is_ignored(&path, d) {
                held.suppressed += 1;
                return false;
            }
            if known.contains(&(key.as_str(), d.fingerprint.as_str())) {
                held.baselined += 1;
                matched.insert((key.clone(), d.fingerprint.clone()));
                return false;
            }
            true
        });
        linted.insert(key);
    }
    if let Some(baseline) = baseline {
        held.stale_baseline = baseline
            .findings
            .iter()
            .filter(|e| {
                linted.contains(e.path.as_str())
                    && !matched.contains(&(e.path.clone(), e.fingerprint.clone()))
            })
            .count();
    }
    held
}
