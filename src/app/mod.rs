//! Runs a parsed command line: settles configuration, lints, gates and reports, and
//! decides the exit status.

use std::io::{self, IsTerminal, Read};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::CommandFactory;

use crate::cli::{CheckArgs, Cli, Command, FailOn};
use crate::config::Config;
use crate::gate::{self, Baseline};
use crate::lint::{FileReport, Options, lint_inputs};
use crate::report::{self, Summary, write_summary};
use crate::walk::{self, Walk};

mod commands;

use commands::{explain, inspect, list_rules, merge, redact, use_color, write_output};

/// Exit status 1: findings at or above `--fail-on`.
const FINDINGS: u8 = 1;
/// Exit status 2: a2alint could not do its job.
const FAILURE: u8 = 2;
/// Runs at least this large show a progress bar (on a terminal).
const PROGRESS_MIN_FILES: usize = 200;

pub fn run(cli: Cli) -> ExitCode {
    let result = match cli.command {
        Command::Check(args) => check(&args),
        Command::Inspect(args) => inspect(&args),
        Command::Redact(args) => redact(&args),
        Command::Rules { out } => list_rules(&out),
        Command::Explain { rule, out } => explain(&rule, &out),
        Command::Merge { reports, out } => merge(&reports, &out),
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

fn check(args: &CheckArgs) -> io::Result<ExitCode> {
    let started = Instant::now();
    let cwd = std::env::current_dir()?;
    let config = match settle_config(args, &cwd) {
        Ok(config) => config,
        Err(message) => {
            eprintln!("error: {message}");
            return Ok(ExitCode::from(FAILURE));
        }
    };
    if let Some(dir) = args.root.as_deref().filter(|dir| !cwd.join(dir).is_dir()) {
        eprintln!("error: --root {}: not a directory", dir.display());
        return Ok(ExitCode::from(FAILURE));
    }
    // Machine formats, fingerprints and baselines name files from here.
    let root = crate::repo_root::discover(&cwd, args.root.as_deref(), config.dir());
    let repo_path = |path: &str| crate::repo_root::repo_path(path, &cwd, &root);
    let found = find_inputs(args, &config)?;
    let mut failed = !found.errors.is_empty();
    for error in &found.errors {
        eprintln!("error: {error}");
    }
    if found.inputs.is_empty() {
        if args.files_from.is_some() {
            // Pull-request mode with no capture in the change: nothing to do.
            return Ok(ExitCode::SUCCESS);
        }
        if found.errors.is_empty() {
            eprintln!(
                "error: no capture files (*.http, *.har) found in {}",
                shown_paths(args)
            );
        }
        return Ok(ExitCode::from(FAILURE));
    }
    let mut found = found;
    if let Some(shard) = args.shard {
        // After the check for no input at all: a shard may hold no file and still succeed.
        (found.inputs).retain(|input| shard.keeps(&repo_path(input.display_name()), args.shard_by));
    }
    let baseline = args.baseline.as_deref().map(Baseline::read).transpose()?;

    let profile = args.profile.or(config.profile).unwrap_or_default();
    let options_for = |path: &str| Options {
        profile,
        rules: config.rules_for(path),
        no_ignores: args.no_ignores,
        repo_path: Some(repo_path(path)),
        ..Options::default()
    };
    let progress = progress_bar(args, found.inputs.len());
    let on_done = || progress.inc(1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()
        .map_err(io::Error::other)?;
    let results =
        pool.install(|| lint_inputs(&found.inputs, &options_for, &on_done, args.max_file_size));
    progress.finish_and_clear();
    let mut reports: Vec<FileReport> = Vec::with_capacity(results.len());
    // The input each report was read from, to read it again for a pending finding.
    let mut report_inputs = Vec::with_capacity(results.len());
    for (result, input) in results.into_iter().zip(&found.inputs) {
        match result {
            Ok(report) => {
                reports.push(report);
                report_inputs.push(input);
            }
            Err(error) => {
                eprintln!("error: {error}");
                failed = true;
            }
        }
    }

    let resolve_pending = |file: usize, findings: &[&crate::finding::Finding]| {
        let input: &walk::Input = report_inputs[file];
        match input.read(args.max_file_size) {
            Ok(bytes) => {
                let name = input.display_name();
                crate::lint::resolve_pending(name, &repo_path(name), &bytes, findings)
            }
            Err(_) => Vec::new(),
        }
    };
    crate::rules::binding_divergence::check_run_with(&mut reports, &resolve_pending);
    crate::rules::unsupported_version_accepted::check_run(&mut reports);
    crate::rules::card_contradicted::check_run(&mut reports);
    if let Some(path) = &args.write_baseline {
        let baseline = Baseline::of(&reports, &repo_path);
        baseline.write(path)?;
        eprintln!("Wrote {} findings to {}", baseline.len(), path.display());
        return Ok(ExitCode::from(if failed { FAILURE } else { 0 }));
    }
    let held = gate::apply(
        &mut reports,
        &config,
        baseline.as_ref(),
        args.no_ignores,
        &repo_path,
    );
    let summary = Summary {
        suppressed: held.suppressed,
        baselined: held.baselined,
        stale_baseline: held.stale_baseline,
        ..Summary::of(&reports)
    };
    let context = report::Context {
        color: use_color(&args.out),
        summary,
        sarif_category: args.sarif_category.clone(),
        base_dir: cwd.clone(),
        repo_root: Some(root.clone()),
        github_step_summary: std::env::var_os("GITHUB_STEP_SUMMARY").map(Into::into),
        captures: html_captures(args, profile, &report_inputs),
    };
    write_report(args, &reports, &context)?;
    if !args.out.quiet {
        write_summary(&summary, started.elapsed(), &mut io::stderr().lock())?;
    }
    let fail_on = args.fail_on.or(config.fail_on).unwrap_or(FailOn::Warning);
    Ok(ExitCode::from(if failed {
        FAILURE
    } else if !args.exit_zero && summary.fails(fail_on.threshold()) {
        FINDINGS
    } else {
        0
    }))
}

/// For `--format html`: how the explorer reads each report's capture again (standard
/// input cannot be read twice).
fn html_captures(
    args: &CheckArgs,
    profile: crate::profile::Profile,
    inputs: &[&walk::Input],
) -> report::Captures {
    if args.format != crate::cli::Format::Html {
        return report::Captures::default();
    }
    let inputs: Vec<walk::Input> = inputs.iter().map(|&input| input.clone()).collect();
    let max = args.max_file_size;
    report::Captures::new(profile, move |i| match inputs.get(i)? {
        walk::Input::Stdin { .. } => None,
        input => input.read(max).ok(),
    })
}

/// The configuration in force: `--no-config`, `--config FILE`, or the nearest
/// `a2alint.toml`; then `--select` and `--ignore`.
fn settle_config(args: &CheckArgs, cwd: &std::path::Path) -> Result<Config, String> {
    let path = match (&args.config, args.no_config) {
        (_, true) => None,
        (Some(path), false) => Some(path.clone()),
        (None, false) => crate::config::discover(cwd),
    };
    let mut config = match path {
        Some(path) => Config::read(&path, cwd).map_err(|e| e.to_string())?,
        None => Config::empty(cwd),
    };
    config.apply_flags(&args.select, &args.ignore)?;
    Ok(config)
}

fn find_inputs(args: &CheckArgs, config: &Config) -> io::Result<Walk> {
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

fn shown_paths(args: &CheckArgs) -> String {
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
fn progress_bar(args: &CheckArgs, files: usize) -> indicatif::ProgressBar {
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

/// Writes the report to `--output` or standard output.
fn write_report(
    args: &CheckArgs,
    reports: &[FileReport],
    context: &report::Context,
) -> io::Result<()> {
    write_output(&args.out, |out| {
        report::write(args.format, reports, context, out)
    })
}
