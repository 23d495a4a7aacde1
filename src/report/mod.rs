//! The last pipeline stage: writes diagnostics in the format a user asked for.

mod concise;
mod human;
mod summary;

pub use summary::{Summary, write_summary};

use std::io::{self, IsTerminal, Write};

use crate::cli::{ColorChoice, Format};
use crate::lint::FileReport;

/// Writes every report's diagnostics, in order, in `format`.
pub fn write(
    format: Format,
    reports: &[FileReport],
    color: bool,
    out: &mut dyn Write,
) -> io::Result<()> {
    match format {
        Format::Human => human::write(reports, color, out),
        Format::Concise => concise::write(reports, color, out),
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
