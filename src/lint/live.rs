//! A capture piped in live: each connection is linted as it closes and its findings handed over at once.

use std::io;

use crate::input::capture::wire::{LiveEvent, LiveReader};
use crate::lint::Defer;
use crate::lint::Options;
use crate::lint::file::{FileLint, Unit};
use crate::lint::pcap::lint_exchange;
use crate::output::FileReport;
use crate::output::resolve::Resolver;

/// Lints the pcap or pcapng stream whose bytes `chunks` yields as they arrive, shown as
/// `path`. `each` gets a report of each connection's findings once it closed (no file
/// counted: only `path` and diagnostics); the report returned, at the end of `chunks`,
/// is the stream's, as [`crate::lint_source`] would make of the same bytes, without the
/// findings already handed over. Without `each`, the report returned holds them all, in
/// the order a file's are.
pub fn lint_live(
    path: &str,
    options: &Options,
    chunks: &mut dyn Iterator<Item = Vec<u8>>,
    mut each: Option<&mut dyn FnMut(FileReport) -> io::Result<()>>,
) -> io::Result<FileReport> {
    let resolver = Resolver::for_live_wire(path).identified_as(options.identity(path));
    let mut lint = FileLint::new(path, options, resolver, Defer::Nothing);
    let mut reader = LiveReader::new();
    let mut failed: io::Result<()> = Ok(());
    let mut held = Vec::new();
    let mut on = |event: LiveEvent| match event {
        LiveEvent::Exchange(exchange) => lint_exchange(&mut lint, &exchange),
        LiveEvent::Connection(wire) => {
            lint.resolver().set_frames(wire.frame_starts());
            for (connection, problem) in &wire.connection_problems {
                lint.problems(std::slice::from_ref(problem), Unit::Connection(connection));
            }
            let diagnostics = lint.resolver().take();
            match &mut each {
                Some(each) if !diagnostics.is_empty() && failed.is_ok() => {
                    failed = each(FileReport {
                        path: path.to_string(),
                        diagnostics,
                        ..FileReport::default()
                    });
                }
                Some(_) => {}
                None => held.extend(diagnostics),
            }
        }
    };
    for chunk in chunks {
        reader.feed(&chunk, &mut on);
    }
    let wire = reader.finish(&mut on);
    failed?;
    lint.resolver().set_frames(wire.frame_starts());
    lint.problems(&wire.problems, Unit::File);
    let mut report = FileReport {
        wire: Some(wire.counts),
        ..lint.finish(Vec::new())
    };
    if !held.is_empty() {
        held.append(&mut report.diagnostics);
        // As the resolver orders a file's.
        held.sort_by(|a, b| {
            (a.primary.span.start, a.rule, &a.message).cmp(&(
                b.primary.span.start,
                b.rule,
                &b.message,
            ))
        });
        report.diagnostics = held;
    }
    Ok(report)
}
