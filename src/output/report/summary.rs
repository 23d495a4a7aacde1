//! The closing summary on standard error: files, exchanges, findings by severity, time.

use std::io::{self, Write};
use std::time::Duration;

use crate::finding::Severity;
use crate::output::FileReport;
use crate::output::resolve::Diagnostic;

/// Counts for the summary line.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Summary {
    pub files: usize,
    pub exchanges: usize,
    pub errors: usize,
    pub warnings: usize,
    pub infos: usize,
    /// Findings silenced by inline or configured ignores.
    pub suppressed: usize,
    /// Findings left out because the baseline has them.
    pub baselined: usize,
    /// Baseline entries that matched no finding (fixed since, or moved files).
    pub stale_baseline: usize,
    /// Exchanges shaped as A2A 0.3 (`legacy-protocol` findings), for which 1.0-only
    /// rules were skipped.
    pub legacy_exchanges: usize,
    /// In pcap files: frames that are not TCP (ARP, UDP...) and TCP connections that
    /// carry no HTTP, skipped silently; encrypted connections, reported.
    pub skipped_frames: usize,
    pub skipped_connections: usize,
    pub tls_connections: usize,
}

impl Summary {
    pub fn of(reports: &[FileReport]) -> Summary {
        let mut summary = Summary::default();
        for report in reports {
            summary.add(report);
        }
        summary
    }

    /// Counts a file and its findings.
    pub fn add(&mut self, report: &FileReport) {
        self.files += 1;
        self.exchanges += report.exchanges;
        if let Some(wire) = &report.wire {
            self.skipped_frames += wire.skipped_frames;
            self.skipped_connections += wire.skipped_connections;
            self.tls_connections += wire.tls_connections;
        }
        self.add_findings(&report.diagnostics);
    }

    /// Counts findings, of a file already counted (the run-level rules').
    pub fn add_findings(&mut self, diagnostics: &[Diagnostic]) {
        for d in diagnostics {
            if d.rule == crate::rules::RuleId::LegacyProtocol {
                self.legacy_exchanges += 1;
            }
            match d.severity {
                Severity::Error => self.errors += 1,
                Severity::Warning => self.warnings += 1,
                Severity::Info => self.infos += 1,
            }
        }
    }

    /// Is any finding at or above `threshold`?
    pub fn fails(&self, threshold: Severity) -> bool {
        match threshold {
            Severity::Error => self.errors > 0,
            Severity::Warning => self.errors + self.warnings > 0,
            Severity::Info => self.errors + self.warnings + self.infos > 0,
        }
    }
}

pub fn write_summary(summary: &Summary, elapsed: Duration, out: &mut dyn Write) -> io::Result<()> {
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    write!(
        out,
        "Checked {} ({}) in {:.2}s: {}, {}, {}",
        plural(summary.files, "file"),
        plural(summary.exchanges, "exchange"),
        elapsed.as_secs_f64(),
        plural(summary.errors, "error"),
        plural(summary.warnings, "warning"),
        plural(summary.infos, "info"),
    )?;
    // Held-back findings are counted so that nothing disappears silently.
    for (count, what) in [
        (summary.suppressed, "suppressed"),
        (summary.baselined, "in the baseline"),
        (summary.stale_baseline, "stale baseline entries"),
        (
            summary.legacy_exchanges,
            "exchanges shaped as A2A 0.3 (1.0-only rules skipped)",
        ),
        (summary.skipped_frames, "frames skipped (not TCP)"),
        (
            summary.skipped_connections,
            "TCP connections skipped (not HTTP)",
        ),
        (summary.tls_connections, "TCP connections encrypted (TLS)"),
    ] {
        if count > 0 {
            // "1 TCP connections skipped" reads wrong: the counted word loses its `s`.
            let what = if count == 1 {
                what.replacen("connections", "connection", 1)
                    .replacen("frames", "frame", 1)
            } else {
                what.to_string()
            };
            write!(out, "; {count} {what}")?;
        }
    }
    writeln!(out)
}
