//! Runs a parsed command line and decides the exit status.

use std::io::{self, Write};
use std::process::ExitCode;
use std::time::Instant;

use crate::cli::{CheckArgs, Cli, Command};
use crate::lint::{FileReport, Options, lint_inputs};
use crate::report::{self, Summary, write_summary};
use crate::rules::RuleId;
use crate::walk::walk;

/// Exit status 1: findings at or above `--fail-on`.
const FINDINGS: u8 = 1;
/// Exit status 2: a2alint could not do its job.
const FAILURE: u8 = 2;

pub fn run(cli: Cli) -> ExitCode {
    let result = match cli.command {
        Command::Check(args) => check(&args),
        Command::Rules => list_rules(),
        Command::Explain { rule } => explain(&rule),
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
    let found = walk(&args.paths, &args.stdin_filename);
    let mut failed = !found.errors.is_empty();
    for error in &found.errors {
        eprintln!("error: {error}");
    }
    if found.inputs.is_empty() {
        if found.errors.is_empty() {
            let paths: Vec<_> = args.paths.iter().map(|p| p.display().to_string()).collect();
            eprintln!(
                "error: no capture files (*.http) found in {}",
                paths.join(", ")
            );
        }
        return Ok(ExitCode::from(FAILURE));
    }

    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()
        .map_err(io::Error::other)?;
    let options = Options {
        profile: args.profile,
    };
    let results = pool.install(|| lint_inputs(&found.inputs, &options));
    let mut reports: Vec<FileReport> = Vec::with_capacity(results.len());
    for result in results {
        match result {
            Ok(report) => reports.push(report),
            Err(error) => {
                eprintln!("error: {error}");
                failed = true;
            }
        }
    }

    let summary = Summary::of(&reports);
    let context = report::Context {
        color: args.output.is_none() && report::use_color(args.color),
        summary,
        sarif_category: args.sarif_category.clone(),
        base_dir: std::env::current_dir()?,
        repo_root: repo_root(),
        github_step_summary: std::env::var_os("GITHUB_STEP_SUMMARY").map(Into::into),
    };
    write_report(args, &reports, &context)?;
    if !args.quiet {
        write_summary(&summary, started.elapsed(), &mut io::stderr().lock())?;
    }
    Ok(ExitCode::from(if failed {
        FAILURE
    } else if summary.fails(args.fail_on.threshold()) {
        FINDINGS
    } else {
        0
    }))
}

/// Writes the report to `--output` or standard output.
fn write_report(args: &CheckArgs, reports: &[FileReport], context: &report::Context) -> io::Result<()> {
    match &args.output {
        Some(path) => {
            let file = std::fs::File::create(path)
                .map_err(|e| io::Error::new(e.kind(), format!("cannot write {}: {e}", path.display())))?;
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

/// The enclosing git work tree, which SARIF paths are made relative to.
fn repo_root() -> Option<std::path::PathBuf> {
    let cwd = std::env::current_dir().ok()?;
    cwd.ancestors().find(|dir| dir.join(".git").exists()).map(Into::into)
}

fn list_rules() -> io::Result<ExitCode> {
    let mut out = io::stdout().lock();
    for rule in RuleId::ALL {
        writeln!(
            out,
            "{:<28} {:<8} {:<8} {}",
            rule.slug(),
            rule.group().as_str(),
            rule.default_severity(),
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
            eprintln!("error: unknown rule `{slug}`; `a2alint rules` lists them all");
            Ok(ExitCode::from(FAILURE))
        }
    }
}
