//! `check`: settles configuration and inputs, then streams the run: each file's report,
//! as the engine hands it over in input order, goes through the gate to the reporter and
//! is cut down to what the run-level rules need; at the end those rules report, after
//! every file's findings, and the reporter closes the document with the run's counts.

use std::io;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use rayon::prelude::*;

use super::progress::Progress;
use super::{
    FAILURE, FINDINGS, files_from, find_inputs, settle_config, shown_paths, use_color, write_output,
};
use crate::commands::cli::CheckArgs;
use crate::finding::run_level::RUN_LEVEL_RULES;
use crate::input::walk::{Input, InputError};
use crate::lint::{Options, Run, lint_in_order, lint_live};
use crate::output::FileReport;
use crate::output::report::Format;
use crate::output::report::{self, Summary, write_summary};
use crate::settings::config::FailOn;
use crate::settings::gate::{Baseline, Gate};

/// What the run keeps of the files once their findings are written.
struct Kept<'a> {
    /// The run-level rules' facts, compact.
    run: Run,
    /// Whether the run asks files linted from now on to place their claims at once
    /// ([`Run::claims_now`]); read by the workers.
    claims_now: &'a AtomicBool,
    /// The inputs that could not be read or linted, in order: an input's position among
    /// the files written is its index less the failed inputs before it.
    failed: Vec<usize>,
}

pub(super) fn check(args: &CheckArgs) -> io::Result<ExitCode> {
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
    let root = crate::input::repo_root::discover(&cwd, args.root.as_deref(), config.dir());
    let repo_path = |path: &str| crate::input::repo_root::repo_path(path, &cwd, &root);
    let list = files_from(args)?;
    let excluded = |path: &str| config.is_excluded(path);
    let progress = Progress::new(args);
    // The walk goes on as the run lints: a path it cannot read is told when it is met.
    let walk_failed = AtomicBool::new(false);
    let told = |found: Result<Input, InputError>| match found {
        Ok(input) => Some(input),
        Err(error) => {
            progress.aside(|| eprintln!("error: {error}"));
            walk_failed.store(true, Ordering::Relaxed);
            None
        }
    };
    let mut found = find_inputs(args, list.as_deref(), &excluded);
    // The first inputs before anything is written: none at all is an error, and one
    // that is standard input may be a live capture.
    let first: Vec<Input> = found.by_ref().filter_map(told).take(2).collect();
    if first.is_empty() {
        if args.files_from.is_some() {
            // Pull-request mode with no capture in the change: nothing to do.
            return Ok(ExitCode::SUCCESS);
        }
        if !walk_failed.load(Ordering::Relaxed) {
            eprintln!(
                "error: no capture files (*.http, *.har) found in {}",
                shown_paths(args)
            );
        }
        return Ok(ExitCode::from(FAILURE));
    }
    // After the check for no input at all: a shard may hold no file and still succeed.
    let in_shard = |input: &Input| {
        (args.shard)
            .is_none_or(|shard| shard.keeps(&repo_path(input.display_name()), args.shard_by))
    };
    let live = match &first[..] {
        [only] if in_shard(only) => super::live::live_stdin(only),
        _ => None,
    };
    let mut inputs = (first.clone().into_iter())
        .chain(found.filter_map(told))
        .filter(in_shard);
    // What the progress bar counts to: a walk of its own beside the run's, which holds
    // no name either (the run's walk is only a few inputs ahead of the linting).
    let count_inputs = || {
        let found = find_inputs(args, list.as_deref(), &excluded);
        progress.count(found.filter_map(Result::ok).filter(in_shard));
    };
    let baseline = args.baseline.as_deref().map(Baseline::read).transpose()?;

    let profile = args.profile.or(config.profile).unwrap_or_default();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()
        .map_err(io::Error::other)?;
    let claims_now = AtomicBool::new(false);
    let options_for = |path: &str| Options {
        profile,
        rules: config.rules_for(path),
        no_ignores: args.no_ignores,
        repo_path: Some(repo_path(path)),
        // Only these formats show context windows.
        no_windows: !matches!(args.format, Format::Human | Format::Html),
        claims_now: claims_now.load(Ordering::Relaxed),
        read_ahead: pool.current_num_threads() > 1,
        ..Options::default()
    };
    // Formats that list findings without a document of files around them take a live
    // capture's connection by connection; the others, its report at the end.
    let per_connection = matches!(
        args.format,
        Format::Human | Format::Concise | Format::Github | Format::Sarif | Format::Gitlab
    );
    // `each` gets every report; `false`: one connection's findings on a live capture,
    // of a file counted later.
    let mut stream = |each: &mut Each<'_>| {
        let on_done = || progress.done();
        let mut kept = Kept {
            run: Run::relinting(),
            claims_now: &claims_now,
            failed: Vec::new(),
        };
        if let Some(name) = live {
            let source = &first[0];
            let mut chunks = super::live::stdin_chunks();
            let mut part = |mut part: FileReport| each(source, &mut part, false);
            let part = per_connection.then_some(&mut part as &mut dyn FnMut(_) -> _);
            let report = lint_live(name, &options_for(name), &mut chunks, part)?;
            on_done();
            keep(&mut kept, &progress, (0, source), &mut Ok(report), each)?;
        } else {
            std::thread::scope(|scope| {
                if progress.may_show() {
                    scope.spawn(count_inputs);
                }
                let linted = lint_in_order(
                    &pool,
                    &mut inputs,
                    &options_for,
                    &on_done,
                    args.max_file_size,
                    &mut |input, source, linted| {
                        keep(&mut kept, &progress, (input, source), linted, each)
                    },
                );
                progress.stop_counting();
                linted
            })?;
        }
        progress.finish();
        let reports = run_level(kept.run, &pool, args.max_file_size, &options_for);
        let reports: Vec<(usize, FileReport)> = (reports.into_iter())
            .map(|(input, report)| {
                let failed_before = kept.failed.partition_point(|&f| f < input);
                (input - failed_before, report)
            })
            .collect();
        Ok::<_, io::Error>((reports, !kept.failed.is_empty()))
    };

    if let Some(path) = &args.write_baseline {
        // Before the gate, as the findings a team accepts are all of them.
        let mut accepted = Baseline::empty();
        let (run_level, kept_failed) = stream(&mut |_, report, _| {
            accepted.add(report, &repo_path(&report.path));
            Ok(())
        })?;
        for (_, report) in &run_level {
            accepted.add(report, &repo_path(&report.path));
        }
        accepted.write(path)?;
        eprintln!("Wrote {} findings to {}", accepted.len(), path.display());
        let failed = walk_failed.load(Ordering::Relaxed) || kept_failed;
        return Ok(ExitCode::from(if failed { FAILURE } else { 0 }));
    }

    let context = report::Context {
        color: use_color(&args.out),
        summary: Summary::default(),
        sarif_category: args.sarif_category.clone(),
        base_dir: cwd.clone(),
        repo_root: Some(root.clone()),
        github_step_summary: std::env::var_os("GITHUB_STEP_SUMMARY").map(Into::into),
        captures: html_captures(args, profile),
    };
    let mut gate = Gate::new(&config, baseline.as_ref(), args.no_ignores);
    let mut summary = Summary::default();
    let mut failed = false;
    write_output(&args.out, |out| {
        // Live, what a connection's report writes is on its way at once.
        let mut flushing = Flushing(out);
        let out: &mut dyn io::Write = if live.is_some() { &mut flushing } else { out };
        let mut reporter = report::reporter(args.format, &context, out)?;
        if live.is_some() {
            reporter.live();
        }
        let (mut run_level, kept_failed) = stream(&mut |source, report, whole| {
            let key = (report.repo_path.take()).unwrap_or_else(|| repo_path(&report.path));
            gate.file(report, &key);
            match whole {
                true => summary.add(report),
                false => summary.add_findings(&report.diagnostics),
            }
            // Output and the progress bar may share a terminal: the bar steps aside.
            progress.aside(|| reporter.file(report, Some(source)))
        })?;
        for (_, report) in &mut run_level {
            gate.run_level(report, &repo_path(&report.path));
            summary.add_findings(&report.diagnostics);
        }
        reporter.run_level(&run_level)?;
        let held = gate.held();
        summary.suppressed = held.suppressed;
        summary.baselined = held.baselined;
        summary.stale_baseline = held.stale_baseline;
        failed = kept_failed;
        reporter.finish(&summary)
    })?;
    if !args.out.quiet {
        write_summary(&summary, started.elapsed(), &mut io::stderr().lock())?;
    }
    let fail_on = args.fail_on.or(config.fail_on).unwrap_or(FailOn::Warning);
    Ok(ExitCode::from(
        if failed || walk_failed.load(Ordering::Relaxed) {
            FAILURE
        } else if !args.exit_zero && summary.fails(fail_on.threshold()) {
            FINDINGS
        } else {
            0
        },
    ))
}

/// What a run hands each file's report to: the input, the report, and whether it is the
/// whole file (not one connection of a live capture).
type Each<'e> = dyn FnMut(&Input, &mut FileReport, bool) -> io::Result<()> + 'e;

/// Hands one file's report to `each` (the gate and the reporter), then keeps what the
/// run-level rules need of it; an input that failed is reported on standard error.
fn keep(
    kept: &mut Kept,
    progress: &Progress,
    (input, source): (usize, &Input),
    linted: &mut Result<FileReport, InputError>,
    each: &mut Each<'_>,
) -> io::Result<()> {
    match linted {
        Ok(report) => {
            each(source, report, true)?;
            // Written: from here on the run holds no finding of this file.
            kept.run.absorb(input, source, report);
            (kept.claims_now).store(kept.run.claims_now(), Ordering::Relaxed);
        }
        Err(error) => {
            progress.aside(|| eprintln!("error: {error}"));
            kept.failed.push(input);
        }
    }
    Ok(())
}

/// The run-level rules over the run's facts: a report of each input with run-level
/// findings, holding them in place order. A file whose spots the rules need is linted
/// again (without its findings being written again).
fn run_level(
    run: Run,
    pool: &rayon::ThreadPool,
    max_file_size: u64,
    options_for: &(dyn Fn(&str) -> Options + Sync),
) -> Vec<(usize, FileReport)> {
    // Only what the run-level rules keep: their spots are numbered as in the first pass,
    // and nothing else of the file is linted again.
    let relint_one = |input: &&Input| {
        let bytes = input.read(max_file_size).ok()?;
        let name = input.display_name();
        let mut options = options_for(name);
        options.rules = options.rules.only(&RUN_LEVEL_RULES);
        Some(crate::lint::lint_source(name, &bytes, &options).spots)
    };
    let relint = |wanted: &[&Input]| pool.install(|| wanted.par_iter().map(relint_one).collect());
    run.finish(&relint)
}

/// For `--format html`: how the explorer reads each input's capture again (standard
/// input cannot be read twice).
fn html_captures(args: &CheckArgs, profile: crate::protocol::profile::Profile) -> report::Captures {
    if args.format != crate::output::report::Format::Html {
        return report::Captures::default();
    }
    let max = args.max_file_size;
    report::Captures::new(profile, move |input| match input {
        Input::Stdin { .. } => None,
        input => input.read(max).ok(),
    })
}

/// A writer that flushes at the end of every line: findings of a live capture reach a
/// pipe or a terminal as they are written.
struct Flushing<'w>(&'w mut dyn io::Write);

impl io::Write for Flushing<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.0.write(buf)?;
        if buf[..n].contains(&b'\n') {
            self.0.flush()?;
        }
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()
    }
}
