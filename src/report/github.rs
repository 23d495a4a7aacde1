//! `--format github`: GitHub Actions workflow commands and a step summary table.
//!
//! Command syntax, escaping and limits: linter-conventions §4.1. Invalid commands are
//! dropped silently by the runner (actions/runner#4167), so every rule there is kept here.

use std::fs::OpenOptions;
use std::io::{self, Write};

use crate::finding::Severity;
use crate::lint::FileReport;
use crate::repo_root;
use crate::report::Context;
use crate::resolve::Diagnostic;

/// GitHub renders at most this many error and this many warning annotations per step.
const SHOWN_PER_STEP: usize = 10;
/// A step summary may hold 1 MiB; stay below it with room for other tools' output.
const SUMMARY_BUDGET: usize = 900 * 1024;

pub fn write(reports: &[FileReport], context: &Context, out: &mut dyn Write) -> io::Result<()> {
    let count = |severity| {
        reports
            .iter()
            .flat_map(|r| &r.diagnostics)
            .filter(|d| d.severity == severity)
            .count()
    };
    let (errors, warnings) = (count(Severity::Error), count(Severity::Warning));
    if errors > SHOWN_PER_STEP || warnings > SHOWN_PER_STEP {
        // First, not last: notices are capped too, so after many info findings a closing
        // notice would itself be hidden.
        let rest = if context.github_step_summary.is_some() {
            "the step summary lists every finding"
        } else {
            "this log lists every finding"
        };
        writeln!(
            out,
            "::notice title=a2alint::{}",
            escape_data(&format!(
                "a2alint found {errors} errors and {warnings} warnings; GitHub shows only \
                 {SHOWN_PER_STEP} error and {SHOWN_PER_STEP} warning annotations per step, \
                 {rest}"
            ))
        )?;
    }
    for report in reports {
        let path = display_path(&report.path, context);
        for d in &report.diagnostics {
            writeln!(out, "{}", command(d, &path))?;
        }
    }
    if let Some(file) = &context.github_step_summary {
        let mut summary = OpenOptions::new()
            .create(true)
            .append(true)
            .open(file)
            .map_err(|e| {
                io::Error::new(
                    e.kind(),
                    format!("cannot append to {}: {e}", file.display()),
                )
            })?;
        summary.write_all(step_summary(reports, context).as_bytes())?;
    }
    Ok(())
}

/// One annotation: `::error file=…,line=…,endLine=…,col=…,endColumn=…,title=…::message`.
fn command(d: &Diagnostic, path: &str) -> String {
    let kind = match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "notice",
    };
    let (start, end) = (d.primary.start, d.primary.end);
    let mut properties = format!(
        "file={},line={},endLine={}",
        escape_property(path),
        start.line,
        end.line
    );
    // Columns on a multi-line span make the runner drop the command (astral-sh/ruff#22074).
    if start.line == end.line {
        properties.push_str(&format!(",col={},endColumn={}", start.column, end.column));
    }
    properties.push_str(&format!(",title={}", escape_property(d.rule.slug())));
    let message = match &d.help {
        Some(help) => format!("{}\nhelp: {help}", d.message),
        None => d.message.clone(),
    };
    format!("::{kind} {properties}::{}", escape_data(&message))
}

/// actions/toolkit `escapeData`: the message after `::`.
fn escape_data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// actions/toolkit `escapeProperty`: a `key=value` value, where `:` and `,` end the value.
fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

/// A Markdown table of every finding: the annotations GitHub hides are still one click
/// away (linter-conventions §4.1, "Complement").
fn step_summary(reports: &[FileReport], context: &Context) -> String {
    let s = &context.summary;
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    let mut text = format!(
        "## a2alint\n\nChecked {} ({}): {}, {}, {}",
        plural(s.files, "file"),
        plural(s.exchanges, "exchange"),
        plural(s.errors, "error"),
        plural(s.warnings, "warning"),
        plural(s.infos, "info"),
    );
    for (n, what) in [
        (s.suppressed, "suppressed"),
        (s.baselined, "baselined"),
        (s.stale_baseline, "stale baseline entries"),
    ] {
        if n > 0 {
            text.push_str(&format!(", {n} {what}"));
        }
    }
    text.push_str(".\n\n");
    let total: usize = reports.iter().map(|r| r.diagnostics.len()).sum();
    if total == 0 {
        return text;
    }
    text.push_str("| Location | Severity | Rule | Message |\n| --- | --- | --- | --- |\n");
    let mut written = 0;
    for report in reports {
        let path = display_path(&report.path, context);
        for d in &report.diagnostics {
            let row = format!(
                "| {}:{} | {} | {} | {} |\n",
                cell(&path),
                d.primary.start.line,
                d.severity,
                d.rule,
                cell(&d.message)
            );
            if text.len() + row.len() > SUMMARY_BUDGET {
                text.push_str(&format!(
                    "\n{} more not shown: the step summary is limited to 1 MiB; \
                     see the step's log.\n",
                    plural(total - written, "finding")
                ));
                return text;
            }
            text.push_str(&row);
            written += 1;
        }
    }
    text.push('\n');
    text
}

/// A table cell: `|` would end the cell (GFM honours `\|` even inside code spans) and a
/// line break the row.
fn cell(text: &str) -> String {
    text.replace('|', "\\|")
        .replace("\r\n", " ")
        .replace(['\r', '\n'], " ")
}

// Paths as CI sees them, shared with `sarif`, `gitlab`, `junit` and `json`: annotations,
// Code Quality and code scanning resolve paths against the checkout root, not the
// directory a2alint ran in (a `working-directory:` step, say); see `crate::repo_root`.

/// The path shown to CI tools: repository-relative when possible, absolute for a file
/// outside the repository, else as reported; always with `/` separators.
pub(super) fn display_path(path: &str, context: &Context) -> String {
    match &context.repo_root {
        Some(root) => repo_root::locate(path, &context.base_dir, root).path,
        None => repo_root::slashed(path),
    }
}
