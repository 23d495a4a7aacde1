//! Runs a parsed command line: settles configuration, lints, gates and reports, and
//! decides the exit status.

use std::io::{self, IsTerminal, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::CommandFactory;

use crate::cli::{CheckArgs, Cli, Command, FailOn, InspectArgs, InspectFormat, RedactArgs};
use crate::config::Config;
use crate::gate::{self, Baseline};
use crate::inspect;
use crate::lint::{FileReport, Options, lint_inputs};
use crate::report::{self, Summary, write_summary};
use crate::rules::RuleId;
use crate::walk::{self, Walk};

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
        Command::Rules => list_rules(),
        Command::Explain { rule } => explain(&rule),
        Command::Completions { shell } => {
            clap_complete::generate(shell, &mut Cli::command(), "a2alint", &mut io::stdout());
            Ok(ExitCode::SUCCESS)
        }
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
    let baseline = args.baseline.as_deref().map(Baseline::read).transpose()?;

    let profile = args.profile.or(config.profile).unwrap_or_default();
    let options_for = |path: &str| Options {
        profile,
        rules: config.rules_for(path),
        no_ignores: args.no_ignores,
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
            Ok(bytes) => crate::lint::resolve_pending(input.display_name(), &bytes, findings),
            Err(_) => Vec::new(),
        }
    };
    crate::rules::binding_divergence::check_run_with(&mut reports, &resolve_pending);
    crate::rules::unsupported_version_accepted::check_run(&mut reports);
    crate::rules::card_contradicted::check_run(&mut reports);
    if let Some(path) = &args.write_baseline {
        let baseline = Baseline::of(&reports);
        baseline.write(path)?;
        eprintln!("Wrote {} findings to {}", baseline.len(), path.display());
        return Ok(ExitCode::from(if failed { FAILURE } else { 0 }));
    }
    let held = gate::apply(&mut reports, &config, baseline.as_ref(), args.no_ignores);
    let summary = Summary {
        suppressed: held.suppressed,
        baselined: held.baselined,
        stale_baseline: held.stale_baseline,
        ..Summary::of(&reports)
    };
    let context = report::Context {
        color: args.output.is_none() && report::use_color(args.color),
        summary,
        sarif_category: args.sarif_category.clone(),
        base_dir: cwd.clone(),
        repo_root: cwd
            .ancestors()
            .find(|dir| dir.join(".git").exists())
            .map(Into::into),
        github_step_summary: std::env::var_os("GITHUB_STEP_SUMMARY").map(Into::into),
    };
    write_report(args, &reports, &context)?;
    if !args.quiet {
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
    let show = !args.no_progress
        && !args.quiet
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
    match &args.output {
        Some(path) => {
            let file = std::fs::File::create(path).map_err(|e| {
                io::Error::new(e.kind(), format!("cannot write {}: {e}", path.display()))
            })?;
            let mut out = io::BufWriter::new(file);
            report::write(args.format, reports, context, &mut out)?;
            out.flush()
        }
        None => {
            let mut out = io::BufWriter::new(io::stdout().lock());
            report::write(args.format, reports, context, &mut out)?;
            out.flush()
        }
    }
}

fn inspect(args: &InspectArgs) -> io::Result<ExitCode> {
    let default = [PathBuf::from(".")];
    let paths = if args.paths.is_empty() {
        &default[..]
    } else {
        &args.paths[..]
    };
    let found = walk::walk(paths, "<stdin>", &|_| false);
    let mut failed = !found.errors.is_empty();
    for error in &found.errors {
        eprintln!("error: {error}");
    }
    let mut rows = Vec::new();
    for input in &found.inputs {
        match input.read(walk::DEFAULT_MAX_FILE_SIZE) {
            Ok(bytes) => rows.extend(inspect::inspect_source(
                input.display_name(),
                &bytes,
                args.profile,
            )),
            Err(error) => {
                eprintln!("error: {error}");
                failed = true;
            }
        }
    }
    let mut out = io::BufWriter::new(io::stdout().lock());
    match args.format {
        InspectFormat::Table => inspect::write_table(&rows, &mut out)?,
        InspectFormat::Json => inspect::write_json(&rows, &mut out)?,
    }
    out.flush()?;
    Ok(ExitCode::from(if failed || found.inputs.is_empty() {
        FAILURE
    } else {
        0
    }))
}

fn redact(args: &RedactArgs) -> io::Result<ExitCode> {
    let found = walk::walk(&args.paths, "<stdin>", &|_| false);
    let mode = match (args.check, args.diff) {
        (true, _) => crate::redact::Mode::Check,
        (_, true) => crate::redact::Mode::Diff,
        _ => crate::redact::Mode::Write,
    };
    let mut out = io::BufWriter::new(io::stdout().lock());
    let (changed, errors) = crate::redact::run(&found.inputs, mode, &mut out)?;
    out.flush()?;
    let errors: Vec<String> = found
        .errors
        .iter()
        .map(ToString::to_string)
        .chain(errors)
        .collect();
    for error in &errors {
        eprintln!("error: {error}");
    }
    let failed = !errors.is_empty() || found.inputs.is_empty();
    Ok(ExitCode::from(if failed {
        FAILURE
    } else if mode == crate::redact::Mode::Check && changed > 0 {
        FINDINGS
    } else {
        0
    }))
}

fn list_rules() -> io::Result<ExitCode> {
    let mut out = io::stdout().lock();
    for rule in RuleId::ALL {
        writeln!(
            out,
            "{:<32} {:<11} {:<8} {}",
            rule.slug(),
            rule.group().as_str(),
            rule.default_severity().as_str(),
            rule.summary()
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

fn explain(slug: &str) -> io::Result<ExitCode> {
    match RuleId::from_slug(slug) {
        Some(rule) => {
            io::stdout().lock().write_all(rule.doc().as_bytes())?;
            Ok(ExitCode::SUCCESS)
        }
        None => {
            eprintln!("error: unknown rule `{slug}`; `a2alint rules` lists them");
            Ok(ExitCode::from(FAILURE))
        }
    }
}
