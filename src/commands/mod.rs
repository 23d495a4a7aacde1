//! Runs a parsed command line: settles configuration, lints, gates and reports, and
//! decides the exit status.

use std::io::{self, Read};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::CommandFactory;

use crate::commands::cli::{CheckArgs, Cli, Command};
use crate::input::walk::{self, Excluded, Input, InputError};
use crate::settings::config::Config;

mod check;
pub mod cli;
mod live;
pub mod merge;
mod others;
mod progress;
pub mod redact;

use check::check;
use others::{explain, inspect, list_rules, use_color, write_output};

/// Exit status 1: findings at or above `--fail-on`.
const FINDINGS: u8 = 1;
/// Exit status 2: a2alint could not do its job.
const FAILURE: u8 = 2;

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

/// `--files-from`'s list of files, read whole (it names the files of one change).
pub(super) fn files_from(args: &CheckArgs) -> io::Result<Option<String>> {
    let Some(list) = &args.files_from else {
        return Ok(None);
    };
    if list.as_os_str() == "-" {
        let mut text = String::new();
        io::stdin().lock().read_to_string(&mut text)?;
        return Ok(Some(text));
    }
    std::fs::read_to_string(list)
        .map(Some)
        .map_err(|e| io::Error::new(e.kind(), format!("cannot read {}: {e}", list.display())))
}

/// The inputs of `check`, found one at a time: the files `list` names (`--files-from`),
/// or what the walk of the paths given (`.` by default) finds.
pub(super) fn find_inputs<'a>(
    args: &'a CheckArgs,
    list: Option<&'a str>,
    excluded: &'a Excluded<'a>,
) -> Box<dyn Iterator<Item = Result<Input, InputError>> + Send + 'a> {
    // `check` with no path walks the working directory.
    static HERE: std::sync::LazyLock<[PathBuf; 1]> =
        std::sync::LazyLock::new(|| [PathBuf::from(".")]);
    match list {
        Some(text) => Box::new(walk::from_list(text, excluded)),
        None if args.paths.is_empty() => {
            Box::new(walk::Walker::new(&*HERE, &args.stdin_filename, excluded))
        }
        None => Box::new(walk::Walker::new(
            &args.paths,
            &args.stdin_filename,
            excluded,
        )),
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
