//! `--format gitlab`: GitLab Code Quality JSON.
//!
//! The fields GitLab reads and how it merges reports: linter-conventions §4.2 (GitLab's
//! `doc/ci/testing/code_quality.md`). Everything else in the Code Climate spec is ignored.

use std::collections::{HashMap, HashSet};
use std::io::{self, Write};

use serde::Serialize;

use crate::finding::Severity;
use crate::input::walk::Input;
use crate::output::FileReport;
use crate::output::report::github::display_path;
use crate::output::report::stream::{Elements, cut};
use crate::output::report::{Context, Reporter, Summary};
use crate::output::resolve::Diagnostic;

/// Issues are written as they come; what is kept is the fingerprints given so far in
/// the file being written.
pub struct Gitlab<'w> {
    context: &'w Context,
    out: &'w mut dyn Write,
    issues: Elements,
    tail: String,
    /// Every fingerprint given in the file being written, as its 64 bits: a collision
    /// is salted away. Only the file's: the path is hashed into each fingerprint, so two
    /// files' can meet only by chance of 2^-64 a pair, and a run of any size keeps no
    /// more than a file's worth.
    taken: HashSet<u64>,
    occurrences: Occurrences,
}

impl<'w> Gitlab<'w> {
    pub fn new(context: &'w Context, out: &'w mut dyn Write) -> io::Result<Self> {
        let cut = cut("[]", None);
        out.write_all(cut.head.as_bytes())?;
        Ok(Gitlab {
            context,
            out,
            issues: Elements::new(&cut),
            tail: cut.tail,
            taken: HashSet::new(),
            occurrences: Occurrences::default(),
        })
    }
}

impl Reporter for Gitlab<'_> {
    fn file(&mut self, report: &FileReport, _source: Option<&Input>) -> io::Result<()> {
        let path = display_path(&report.path, self.context);
        if report.path != self.occurrences.path {
            self.taken.clear();
        }
        let occurrences = self.occurrences.of(report);
        for (d, n) in report.diagnostics.iter().zip(occurrences) {
            // GitLab collapses issues that share a fingerprint into one widget entry, so
            // every finding needs its own: the path (several jobs' reports are merged) and
            // the logical identity with its occurrence, salted on the off chance of a
            // collision, as ruff does.
            let identity = identity(d, n);
            let mut fingerprint = crate::output::resolve::stable_hash(&[&path, &identity]);
            let mut salt = 0u32;
            while !self.taken.insert(key(&fingerprint)) {
                salt += 1;
                fingerprint =
                    crate::output::resolve::stable_hash(&[&path, &identity, &salt.to_string()]);
            }
            let issue = Issue {
                description: format!("{}: {}", d.rule, d.message),
                check_name: d.rule.slug(),
                fingerprint,
                // ruff's mapping: nothing a2alint reports blocks a merge by itself.
                severity: match d.severity {
                    Severity::Info => "info",
                    Severity::Warning => "minor",
                    Severity::Error => "major",
                },
                location: IssueLocation {
                    path: path.clone(),
                    positions: Positions {
                        begin: Position {
                            line: d.primary.start.line,
                            column: d.primary.start.column,
                        },
                        end: Position {
                            line: d.primary.end.line,
                            column: d.primary.end.column,
                        },
                    },
                },
            };
            self.issues.push(&issue, self.out)?;
        }
        Ok(())
    }

    fn finish(self: Box<Self>, _summary: &Summary) -> io::Result<()> {
        self.issues.close(self.out)?;
        self.out.write_all(self.tail.as_bytes())?;
        writeln!(self.out)
    }
}

/// A fingerprint as the number its 16 hex digits spell.
fn key(fingerprint: &str) -> u64 {
    u64::from_str_radix(fingerprint, 16).expect("stable_hash gives 16 hex digits")
}

// Finding identities, shared with `sarif` (primaryLocationLineHash).

/// For each diagnostic, how many earlier diagnostics of its file share its fingerprint
/// plus one. The resolve fingerprint has no occurrence counter, so two same-rule findings
/// with no exchange or member (capture problems, say) would otherwise collapse into one
/// alert; the counter is the "occurrence" part of the logical identity (issue 5).
/// Counted over the reports of one path in a row: a file's, or a live capture's handed
/// over connection by connection (their findings count on from the earlier ones').
#[derive(Default)]
pub(super) struct Occurrences {
    path: String,
    seen: HashMap<String, usize>,
}

impl Occurrences {
    pub(super) fn of(&mut self, report: &FileReport) -> Vec<usize> {
        if report.path != self.path {
            self.path.clone_from(&report.path);
            self.seen.clear();
        }
        (report.diagnostics.iter())
            .map(|d| {
                let n = self.seen.entry(d.fingerprint.clone()).or_default();
                *n += 1;
                *n
            })
            .collect()
    }
}

/// The fingerprint with its occurrence; the first occurrence stays bare so the common case
/// equals the diagnostic's (and the baseline's) fingerprint.
pub(super) fn identity(d: &Diagnostic, occurrence: usize) -> String {
    if occurrence <= 1 {
        d.fingerprint.clone()
    } else {
        format!("{}:{occurrence}", d.fingerprint)
    }
}

#[derive(Serialize)]
struct Issue {
    description: String,
    check_name: &'static str,
    fingerprint: String,
    severity: &'static str,
    location: IssueLocation,
}

#[derive(Serialize)]
struct IssueLocation {
    path: String,
    /// `positions` rather than `lines`: GitLab accepts either and this one keeps columns.
    positions: Positions,
}

#[derive(Serialize)]
struct Positions {
    begin: Position,
    end: Position,
}

#[derive(Serialize)]
struct Position {
    line: usize,
    column: usize,
}
