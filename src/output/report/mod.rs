//! The last pipeline stage: writes diagnostics in the format a user asked for, file by
//! file as the engine hands them over (a [`Reporter`]), so that no finding outlives the
//! writing of its file.

mod concise;
mod github;
mod gitlab;
mod html;
mod human;
mod json;
mod junit;
mod sarif;
mod sarif_location;
mod sarif_rules;
mod spool;
mod stream;
mod summary;
mod wrap_words;

pub use html::{Captures, HtmlReport};
pub use summary::{Summary, write_summary};

use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;

use crate::input::walk::Input;
use crate::output::FileReport;

/// What reporters need besides the findings.
#[derive(Debug, Clone, Default)]
pub struct Context {
    /// Colour for the human and concise formats.
    pub color: bool,
    /// The run's counts (files, exchanges, findings, suppressed, baselined), for
    /// [`write()`]; a streaming run hands them to [`Reporter::finish`] instead.
    pub summary: Summary,
    /// SARIF `automationDetails.id`.
    pub sarif_category: Option<String>,
    /// The directory the paths in reports are relative to (the current directory).
    pub base_dir: PathBuf,
    /// The repository root (see [`crate::input::repo_root::discover`]) that the machine formats
    /// (json, sarif, github, gitlab, junit) give paths from; `None`: paths as reported.
    pub repo_root: Option<PathBuf>,
    /// GitHub's `$GITHUB_STEP_SUMMARY` file, for the `github` format's Markdown table.
    pub github_step_summary: Option<PathBuf>,
    /// For the `html` format's exchange explorer: the captures read again.
    pub captures: Captures,
}

/// A format's writer over one run: created when the run starts (writing what comes
/// before the findings), then given each file's report in input order, then the findings
/// of the run-level rules, then the run's counts. What it keeps between calls is counts
/// and compact keys, never a file's diagnostics.
pub trait Reporter {
    /// One file's report, after the gate, and the input it came from, for reading the
    /// capture again (`html`); `None` where there is none to read.
    fn file(&mut self, report: &FileReport, source: Option<&Input>) -> io::Result<()>;

    /// The findings of the run-level rules, after every file: a report of each file
    /// with any, in order, holding only those, with the file's position among the files
    /// written. Unless a format says otherwise, they are written as a file's findings are.
    fn run_level(&mut self, reports: &[(usize, FileReport)]) -> io::Result<()> {
        for (_, report) in reports {
            self.file(report, None)?;
        }
        Ok(())
    }

    /// The run is a live capture (`check -` on a pcap pipe): reports come connection by
    /// connection, as they close, and a format that can write each at once does.
    fn live(&mut self) {}

    /// The end of the document, with the run's counts.
    fn finish(self: Box<Self>, summary: &Summary) -> io::Result<()>;
}

/// The reporter of `format`, writing to `out`; what comes before the findings is
/// written now.
pub fn reporter<'w>(
    format: Format,
    context: &'w Context,
    out: &'w mut dyn Write,
) -> io::Result<Box<dyn Reporter + 'w>> {
    Ok(match format {
        Format::Human => Box::new(human::Human::new(context.color, out)),
        Format::Concise => Box::new(concise::Concise::new(context.color, out)),
        Format::Json => Box::new(json::Json::new(context, out)?),
        Format::Sarif => Box::new(sarif::Sarif::new(context, out)?),
        Format::Github => Box::new(github::Github::new(context, out)?),
        Format::Gitlab => Box::new(gitlab::Gitlab::new(context, out)?),
        Format::Junit => Box::new(junit::Junit::new(context, out)?),
        Format::Html => Box::new(html::HtmlReporter::new(context, out)?),
    })
}

/// Writes every report's diagnostics, in order, in `format`, with `context.summary` as
/// the run's counts: the whole run at once, for callers that hold every report.
pub fn write(
    format: Format,
    reports: &[FileReport],
    context: &Context,
    out: &mut dyn Write,
) -> io::Result<()> {
    let mut reporter = reporter(format, context, out)?;
    for report in reports {
        reporter.file(report, None)?;
    }
    reporter.finish(&context.summary)
}

/// Decides colour for standard output: `--color` first, then FORCE_COLOR / CLICOLOR_FORCE,
/// then NO_COLOR, then whether standard output is a terminal.
pub fn use_color(choice: ColorChoice) -> bool {
    let set = |name: &str| std::env::var_os(name).is_some_and(|v| !v.is_empty() && v != "0");
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto if set("FORCE_COLOR") || set("CLICOLOR_FORCE") => true,
        ColorChoice::Auto if std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()) => false,
        ColorChoice::Auto => io::stdout().is_terminal(),
    }
}

/// The report formats (`--format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Rich diagnostics with the capture lines around each finding.
    Human,
    /// One line per finding: `path:line:col: severity[rule-id] message`.
    Concise,
    /// A versioned JSON document (`"version": 1`) of every finding and a summary.
    Json,
    /// SARIF 2.1.0, for GitHub code scanning and other SARIF viewers.
    Sarif,
    /// GitHub Actions workflow commands (annotations), plus a step summary table.
    Github,
    /// GitLab Code Quality JSON.
    Gitlab,
    /// JUnit XML: one test suite per file, one failing test case per finding.
    Junit,
    /// A self-contained HTML page (use with `-o report.html`): findings by file, an
    /// exchange explorer, errors by binding; works offline.
    Html,
}

/// When to colour output (`--color`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}
