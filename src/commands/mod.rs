//! Runs a parsed command line: settles configuration, lints, gates and reports, and
//! decides the exit status.

use std::io::{self, IsTerminal, Read};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::CommandFactory;

use crate::commands::cli::{CheckArgs, Cli, Command};
use crate::input::walk::{self, Walk};
use crate::settings::config::Config;

mod check;
pub mod cli;
mod live;
pub mod merge;
mod others;
pub mod redact;

use check::check;
use others::{explain, inspect, list_rules, use_color, write_output};

/// Exit status 1: findings at or above `--fail-on`.
const FINDINGS: u8 = 1;
/// Exit status 2: a2alint could not do its job.
const FAILURE: u8 = 2;
/// Runs at least this large show a progress bar (on a terminal).
pub(super) const PROGRESS_MIN_FILES: usize = 200;

pub fn run(cli: Cli) -> ExitCode {
    let result = match cli.command {
        Command::Check(args) => check(&args),
        Command::Inspect(args) => inspect(&args),
        Command::Redact(args) => others::redact(&args),
        Command::Rules { out } => list_rules(&out),
        Command::Explain { rule, out } => explain(&rule, &out),
        Command::Merge { reports, out } => others::merge(&reports, &out),
        Command::Completions { shell, out } => write_output(&out, |w| {
            clap_complete::generate(shell, &mut Cli::command(), "a2alint", w);
            Ok(())
        })
        .map(|()| ExitCode::SUCCESS),
    };
    result.unwrap_or_else(|error| {
        // A closed pipe (`a2alint check | head`) is not a failure worth a message.
        if error.kind() != io::ErrorKind::BrokenPipe {
            eprintln!("error: {error}");
        }
        ExitCode::from(FAILURE)
    })
}

/// The configuration in force: `--no-config`, `--config FILE`, or the nearest
/// `a2alint.toml`; then `--select` and `--ignore`.
pub(super) fn settle_config(args: &CheckArgs, cwd: &std::path::Path) -> Result<Config, String> {
    let path = match (&args.config, args.no_config) {
        (_, true) => None,
        (Some(path), false) => Some(path.clone()),
        (None, false) => crate::settings::config::discover(cwd),
    };
    let mut config = match path {
        Some(path) => Config::read(&path, cwd).map_err(|e| e.to_string())?,
        None => Config::empty(cwd),
    };
    config.apply_flags(&args.select, &args.ignore)?;
    Ok(config)
}

pub(super) fn find_inputs(args: &CheckArgs, config: &Config) -> io::Result<Walk> {
    let excluded = |path: &str| config.is_excluded(path);
    match &args.files_from {
        Some(list) => {
            let text = if list.as_os_str() == "-" {
                let mut text = String::new();
                io::stdin().lock().read_to_string(&mut text)?;
                text
            } else {
                std::fs::read_to_string(list).map_err(|e| {
                    io::Error::new(e.kind(), format!("cannot read {}: {e}", list.display()))
                })?
            };
            Ok(walk::from_list(&text, &excluded))
        }
        None => {
            let default = [PathBuf::from(".")];
            let paths = if args.paths.is_empty() {
                &default[..]
            } else {
                &args.paths[..]
            };
            Ok(walk::walk(paths, &args.stdin_filename, &excluded))
        }
    }
}

pub(super) fn shown_paths(args: &CheckArgs) -> String {
    if args.paths.is_empty() {
        return ".".into();
    }
    args.paths
        .iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// A progress bar on standard error for large runs, only on a terminal.
pub(super) fn progress_bar(args: &CheckArgs, files: usize) -> indicatif::ProgressBar {
    let show = !args.out.no_progress
        && !args.out.quiet
        && files >= PROGRESS_MIN_FILES
        && io::stderr().is_terminal();
    if !show {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(files as u64);
    if let Ok(style) =
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} files {elapsed}")
    {
        bar.set_style(style);
    }
    bar
}
