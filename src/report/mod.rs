//! The last pipeline stage: writes diagnostics in the format a user asked for.

mod concise;
mod github;
mod gitlab;
mod html;
mod human;
mod json;
mod junit;
mod sarif;
mod sarif_location;
mod summary;

pub use html::{Captures, HtmlReport};
pub use summary::{Summary, write_summary};

use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;

use crate::cli::{ColorChoice, Format};
use crate::lint::FileReport;

/// What reporters need besides the findings.
#[derive(Debug, Clone, Default)]
pub struct Context {
    /// Colour for the human and concise formats.
    pub color: bool,
    /// The run's counts (files, exchanges, findings, suppressed, baselined).
    pub summary: Summary,
    /// SARIF `automationDetails.id`.
    pub sarif_category: Option<String>,
    /// The directory the paths in reports are relative to (the current directory).
    pub base_dir: PathBuf,
    /// The repository root (see [`crate::repo_root::discover`]) that the machine formats
    /// (json, sarif, github, gitlab, junit) give paths from; `None`: paths as reported.
    pub repo_root: Option<PathBuf>,
    /// GitHub's `$GITHUB_STEP_SUMMARY` file, for the `github` format's Markdown table.
    pub github_step_summary: Option<PathBuf>,
    /// For the `html` format's exchange explorer: the captures read again.
    pub captures: Captures,
}

/// Writes every report's diagnostics, in order, in `format`.
pub fn write(
    format: Format,
    reports: &[FileReport],
    context: &Context,
    out: &mut dyn Write,
) -> io::Result<()> {
    match format {
        Format::Human => human::write(reports, context.color, out),
        Format::Concise => concise::write(reports, context.color, out),
        Format::Json => json::write(reports, context, out),
        Format::Sarif => sarif::write(reports, context, out),
        Format::Github => github::write(reports, context, out),
        Format::Gitlab => gitlab::write(reports, context, out),
        Format::Junit => junit::write(reports, context, out),
        Format::Html => html::write(reports, context, out),
    }
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
