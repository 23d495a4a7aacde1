//! `--format github`: GitHub Actions workflow commands and a step summary table.
//!
//! Command syntax, escaping and limits: linter-conventions §4.1. Invalid commands are
//! dropped silently by the runner (actions/runner#4167), so every rule there is kept here.

use std::fmt::Write as _;
use std::fs::OpenOptions;
use std::io::{self, Write};

use crate::finding::Severity;
use crate::input::repo_root;
use crate::input::walk::Input;
use crate::output::FileReport;
use crate::output::report::spool::Spool;
use crate::output::report::{Context, Reporter, Summary};
use crate::output::resolve::Diagnostic;

/// GitHub renders at most this many error and this many warning annotations per step.
const SHOWN_PER_STEP: usize = 10;
/// A step summary may hold 1 MiB; stay below it with room for other tools' output.
const SUMMARY_BUDGET: usize = 900 * 1024;

/// The annotations wait in a spool until the run's totals are known, because the notice
/// that GitHub hides most of them opens the log; the step summary keeps only the rows
/// that can fit in it.
pub struct Github<'w> {
    context: &'w Context,
    out: &'w mut dyn Write,
    commands: Spool,
    errors: usize,
    warnings: usize,
    rows: Rows,
    /// A live capture: annotations are written at once, the notice at the end.
    live: bool,
}

/// The step summary's first rows, as many as its budget could hold, and how many
/// findings there were in all.
#[derive(Default)]
struct Rows {
    text: String,
    /// Where each row in `text` ends.
    ends: Vec<usize>,
    total: usize,
}

impl<'w> Github<'w> {
    pub fn new(context: &'w Context, out: &'w mut dyn Write) -> io::Result<Self> {
        Ok(Github {
            context,
            out,
            commands: Spool::new()?,
            errors: 0,
            warnings: 0,
            rows: Rows::default(),
            live: false,
        })
    }
}

impl Reporter for Github<'_> {
    fn live(&mut self) {
        self.live = true;
    }

    fn file(&mut self, report: &FileReport, _source: Option<&Input>) -> io::Result<()> {
        let path = display_path(&report.path, self.context);
        for d in &report.diagnostics {
            match d.severity {
                Severity::Error => self.errors += 1,
                Severity::Warning => self.warnings += 1,
                Severity::Info => {}
            }
            match self.live {
                true => writeln!(self.out, "{}", command(d, &path))?,
                false => writeln!(self.commands, "{}", command(d, &path))?,
            }
            if self.context.github_step_summary.is_some() {
                self.rows.push(d, &path);
            }
        }
        Ok(())
    }

    fn finish(self: Box<Self>, summary: &Summary) -> io::Result<()> {
        let Github {
            context,
            out,
            commands,
            errors,
            warnings,
            rows,
            live,
        } = *self;
        // Live, the annotations are out already: the notice follows them.
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
        if !live {
            commands.copy_to(out)?;
        }
        if let Some(file) = &context.github_step_summary {
            let mut file = OpenOptions::new()
                .create(true)
                .append(true)
                .open(file)
                .map_err(|e| {
                    io::Error::new(
                        e.kind(),
                        format!("cannot append to {}: {e}", file.display()),
                    )
                })?;
            file.write_all(step_summary(&rows, summary).as_bytes())?;
        }
        Ok(())
    }
}

impl Rows {
    fn push(&mut self, d: &Diagnostic, path: &str) {
        self.total += 1;
        // A row past the budget on its own can never be shown: only counted.
        if self.text.len() > SUMMARY_BUDGET {
            return;
        }
        let _ = writeln!(
            self.text,
            "| {}:{} | {} | {} | {} |",
            cell(path),
            d.primary.start.line,
            d.severity,
            d.rule,
            cell(&d.message)
        );
        self.ends.push(self.text.len());
    }
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
fn step_summary(rows: &Rows, s: &Summary) -> String {
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
    if rows.total == 0 {
        return text;
    }
    text.push_str("| Location | Severity | Rule | Message |\n| --- | --- | --- | --- |\n");
    // Rows stop being kept only once they alone pass the budget, so the loop reaches
    // the budget before it runs out of kept rows whenever some were not kept.
    let mut start = 0;
    for (written, &end) in rows.ends.iter().enumerate() {
        let row = &rows.text[start..end];
        if text.len() + row.len() > SUMMARY_BUDGET {
            text.push_str(&format!(
                "\n{} more not shown: the step summary is limited to 1 MiB; \
                 see the step's log.\n",
                plural(rows.total - written, "finding")
            ));
            return text;
        }
        text.push_str(row);
        start = end;
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
// directory a2alint ran in (a `working-directory:` step, say); see `crate::input::repo_root`.

/// The path shown to CI tools: repository-relative when possible, absolute for a file
/// outside the repository, else as reported; always with `/` separators.
pub(super) fn display_path(path: &str, context: &Context) -> String {
    match &context.repo_root {
        Some(root) => repo_root::locate(path, &context.base_dir, root).path,
        None => repo_root::slashed(path),
    }
}
