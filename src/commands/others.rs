//! The subcommands other than `check`: inspect, redact, rules, explain, merge, each
//! reading its input and writing through the shared output flags (`OutputArgs`).

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use super::{FAILURE, FINDINGS};
use crate::commands::cli::{InspectArgs, InspectFormat, OutputArgs, RedactArgs};
use crate::input::walk;
use crate::output::report;
use crate::protocol::inspect;
use crate::rules::RuleId;

/// Runs `write` on the `-o/--output` file (created, or truncated), else on standard
/// output, buffered, and flushes it: the one place every subcommand's output goes.
pub(super) fn write_output(
    out: &OutputArgs,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    match &out.output {
        Some(path) => {
            let cannot = |e: io::Error| {
                io::Error::new(e.kind(), format!("cannot write {}: {e}", path.display()))
            };
            let file = std::fs::File::create(path).map_err(cannot)?;
            let mut writer = io::BufWriter::new(file);
            write(&mut writer)?;
            writer.flush().map_err(cannot)
        }
        None => {
            let mut writer = io::BufWriter::new(io::stdout().lock());
            write(&mut writer)?;
            writer.flush()
        }
    }
}

/// Whether to colour what goes to standard output: never into a `--output` file.
pub(super) fn use_color(out: &OutputArgs) -> bool {
    out.output.is_none() && report::use_color(out.color)
}

pub(super) fn inspect(args: &InspectArgs) -> io::Result<ExitCode> {
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
    let style = match use_color(&args.out) {
        true => inspect::Style::Color,
        false => inspect::Style::Plain,
    };
    write_output(&args.out, |out| match args.format {
        InspectFormat::Table => inspect::write_table_styled(&rows, style, out),
        InspectFormat::Json => inspect::write_json(&rows, out),
    })?;
    Ok(ExitCode::from(if failed || found.inputs.is_empty() {
        FAILURE
    } else {
        0
    }))
}

pub(super) fn redact(args: &RedactArgs) -> io::Result<ExitCode> {
    let found = walk::walk(&args.paths, "<stdin>", &|_| false);
    let mode = match (args.check, args.diff) {
        (true, _) => crate::commands::redact::Mode::Check,
        (_, true) => crate::commands::redact::Mode::Diff,
        _ => crate::commands::redact::Mode::Write,
    };
    let mut outcome = (0, Vec::new());
    write_output(&args.out, |out| {
        outcome = crate::commands::redact::run(&found.inputs, mode, args.out.quiet, out)?;
        Ok(())
    })?;
    let (changed, errors) = outcome;
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
    } else if mode == crate::commands::redact::Mode::Check && changed > 0 {
        FINDINGS
    } else {
        0
    }))
}

pub(super) fn list_rules(out: &OutputArgs) -> io::Result<ExitCode> {
    write_output(out, |out| {
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
        Ok(())
    })?;
    Ok(ExitCode::SUCCESS)
}

/// `a2alint merge`: the shards' reports read, merged, written; a report that cannot be
/// read or merged is an error naming it (exit 2).
pub(super) fn merge(paths: &[PathBuf], out: &OutputArgs) -> io::Result<ExitCode> {
    let mut reports = Vec::with_capacity(paths.len());
    for path in paths {
        let text = std::fs::read_to_string(path)
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
        let path = path.display().to_string();
        reports.push(crate::commands::merge::Report { path, text });
    }
    match crate::commands::merge::merge(&reports) {
        Ok(merged) => {
            write_output(out, |w| w.write_all(merged.as_bytes()))?;
            Ok(ExitCode::SUCCESS)
        }
        Err(error) => {
            eprintln!("error: {error}");
            Ok(ExitCode::from(FAILURE))
        }
    }
}

pub(super) fn explain(slug: &str, out: &OutputArgs) -> io::Result<ExitCode> {
    match RuleId::from_slug(slug) {
        Some(rule) => {
            write_output(out, |out| out.write_all(rule.doc().as_bytes()))?;
            Ok(ExitCode::SUCCESS)
        }
        None => {
            eprintln!("error: unknown rule `{slug}`; `a2alint rules` lists them");
            Ok(ExitCode::from(FAILURE))
        }
    }
}
