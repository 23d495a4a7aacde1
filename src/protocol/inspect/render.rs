//! Renders `inspect` rows: a table readable in 100 columns, or versioned JSON.

use std::collections::BTreeMap;
use std::io::{self, Write};

use owo_colors::OwoColorize;

use crate::protocol::inspect::{Advice, Row};

/// The bindings the matrix gives a column of their own; any other counts under OTHER.
pub(crate) const MATRIX_BINDINGS: [&str; 3] = ["JSON-RPC", "HTTP+JSON", "gRPC"];

/// Errors by name, then by binding, for the summary matrix.
pub(crate) fn matrix(rows: &[Row]) -> BTreeMap<&str, BTreeMap<&'static str, usize>> {
    let mut matrix: BTreeMap<&str, BTreeMap<&'static str, usize>> = BTreeMap::new();
    for row in rows {
        if let Some(error) = &row.error {
            *matrix
                .entry(error.as_str())
                .or_default()
                .entry(row.binding)
                .or_default() += 1;
        }
    }
    matrix
}

/// The table's width.
const WIDTH: usize = 100;
const BINDING: usize = 9;
const OPERATION: usize = 32;
/// How narrow the operation column may get to leave the error whole.
const OPERATION_LEAST: usize = 20;

/// Column widths for one file's rows. The place and status columns are as wide as their
/// widest cell (6 at least: a gRPC status such as `FAILED_PRECONDITION (9)` needs more);
/// the operation column gives up to 12 columns to a long error; the error column has
/// what is left of 100.
struct Layout {
    place: usize,
    operation: usize,
    status: usize,
    error: usize,
}

impl Layout {
    fn of(rows: &[Row]) -> Layout {
        let widest = |cell: &dyn Fn(&Row) -> String, least: usize| {
            (rows.iter())
                .map(|r| cell(r).chars().count())
                .fold(least, usize::max)
        };
        let place = widest(&place_cell, 6);
        let status = widest(&status_cell, 6);
        let error = widest(&|r| error_cell(r).to_string(), 5);
        let fixed = place + 1 + BINDING + 1 + 1 + status + 2;
        let over = (fixed + OPERATION + error).saturating_sub(WIDTH);
        let operation = OPERATION - over.min(OPERATION - OPERATION_LEAST);
        Layout {
            place,
            operation,
            status,
            error: WIDTH.saturating_sub(fixed + operation).max(5),
        }
    }
}

/// Where the exchange is: its line, `#entry` in a HAR file, `f<frame>` or
/// `f<frame>/s<stream>` in a pcap.
pub(crate) fn place_cell(row: &Row) -> String {
    match (row.line, row.entry, row.frame) {
        (Some(line), _, _) => line.to_string(),
        (None, Some(entry), _) => format!("#{entry}"),
        (None, None, Some(frame)) => match row.stream {
            Some(stream) => format!("f{frame}/s{stream}"),
            None => format!("f{frame}"),
        },
        (None, None, None) => "-".to_string(),
    }
}

/// The HTTP status; over gRPC, `grpc-status` by name and number (`NOT_FOUND (5)`,
/// `OK (0)`), since a gRPC call's HTTP status is 200 whatever its outcome (A2A §10.6).
pub(crate) fn status_cell(row: &Row) -> String {
    match (row.grpc_status, row.grpc_status_name) {
        (Some(code), Some(name)) => format!("{name} ({code})"),
        (Some(code), None) => code.to_string(),
        _ => row
            .status
            .map_or_else(|| "-".to_string(), |s| s.to_string()),
    }
}

pub(crate) fn error_cell(row: &Row) -> &str {
    row.reason
        .as_ref()
        .or(row.error.as_ref())
        .map_or("-", String::as_str)
}

/// The delay the server asks for: `Retry-After`, RetryInfo's `retryDelay`, or both.
pub(crate) fn delay_note(row: &Row) -> String {
    let parts: Vec<String> = [
        row.retry_after
            .as_ref()
            .map(|r| format!("Retry-After: {r}")),
        row.retry_delay.as_ref().map(|d| format!("retryDelay: {d}")),
    ]
    .into_iter()
    .flatten()
    .collect();
    match parts.is_empty() {
        true => String::new(),
        false => format!(" ({})", parts.join("; ")),
    }
}

/// One heading per file, then a row per exchange (place, binding, operation, status,
/// error reason or name) and, under it, what a client should do next; 100 columns wide.
pub fn write_table(rows: &[Row], out: &mut dyn Write) -> io::Result<()> {
    write_table_styled(rows, Style::Plain, out)
}

/// How the table looks: plain text, or with a few colours (`--color`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    Plain,
    /// Bold file names and headings, the error column in red and the advice dimmed;
    /// the text and its alignment are the plain table's.
    Color,
}

impl Style {
    /// `text`, already padded, in this style's colour for it.
    fn paint(self, text: String, how: Paint) -> String {
        match (self, how) {
            (Style::Plain, _) => text,
            (Style::Color, Paint::Heading) => text.bold().to_string(),
            (Style::Color, Paint::Error) => text.red().to_string(),
            (Style::Color, Paint::Advice) => text.dimmed().to_string(),
        }
    }
}

#[derive(Clone, Copy)]
enum Paint {
    Heading,
    Error,
    Advice,
}

/// [`write_table`] in a [`Style`].
pub fn write_table_styled(rows: &[Row], style: Style, out: &mut dyn Write) -> io::Result<()> {
    for (i, file) in rows.chunk_by(|a, b| a.path == b.path).enumerate() {
        if i > 0 {
            writeln!(out)?;
        }
        let layout = Layout::of(file);
        let Layout {
            place: pw,
            operation: ow,
            status: sw,
            error: ew,
        } = layout;
        writeln!(out, "{}", style.paint(file[0].path.clone(), Paint::Heading))?;
        let heading = format!(
            "{:>pw$} {:<BINDING$} {:<ow$} {:>sw$}  ERROR",
            "LINE", "BINDING", "OPERATION", "STATUS"
        );
        writeln!(out, "{}", style.paint(heading, Paint::Heading))?;
        for row in file {
            let error = match error_cell(row) {
                "-" => "-".to_string(),
                error => style.paint(clip(error, ew), Paint::Error),
            };
            writeln!(
                out,
                "{:>pw$} {:<BINDING$} {:<ow$} {:>sw$}  {error}",
                place_cell(row),
                row.binding,
                clip(row.operation.unwrap_or("-"), ow),
                status_cell(row),
            )?;
            if row.advice != Advice::Proceed {
                let advice = match row.binding {
                    "gRPC" => row.advice.describe_for_grpc(),
                    _ => row.advice.describe(),
                };
                let line = format!("{:>pw$} -> {advice}{}", "", delay_note(row));
                writeln!(out, "{}", style.paint(clip(&line, WIDTH), Paint::Advice))?;
            }
        }
    }
    write_matrix(rows, style, out)
}

/// The errors by binding: a column for each binding of A2A, one for the rest.
fn write_matrix(rows: &[Row], style: Style, out: &mut dyn Write) -> io::Result<()> {
    let matrix = matrix(rows);
    if matrix.is_empty() {
        return writeln!(out, "\nNo errors in {} exchanges.", rows.len());
    }
    let [rpc, rest, grpc] = MATRIX_BINDINGS;
    let heading = format!(
        "{:<40} {rpc:>9} {rest:>10} {grpc:>5} {:>6}",
        "ERRORS BY BINDING", "OTHER"
    );
    writeln!(out, "\n{}", style.paint(heading, Paint::Heading))?;
    for (error, by_binding) in &matrix {
        let count = |b: &str| by_binding.get(b).copied().unwrap_or(0);
        let other: usize = (by_binding.iter())
            .filter(|(b, _)| !MATRIX_BINDINGS.contains(b))
            .map(|(_, n)| n)
            .sum();
        writeln!(
            out,
            "{:<40} {:>9} {:>10} {:>5} {other:>6}",
            clip(error, 40),
            count(rpc),
            count(rest),
            count(grpc),
        )?;
    }
    Ok(())
}

pub fn write_json(rows: &[Row], out: &mut dyn Write) -> io::Result<()> {
    #[derive(serde::Serialize)]
    struct Document<'a> {
        version: u32,
        exchanges: &'a [Row],
        errors_by_binding: BTreeMap<&'a str, BTreeMap<&'static str, usize>>,
    }
    let document = Document {
        version: 1,
        exchanges: rows,
        errors_by_binding: matrix(rows),
    };
    serde_json::to_writer_pretty(&mut *out, &document).map_err(io::Error::other)?;
    writeln!(out)
}

/// `text` cut to `width` characters, marking the cut.
fn clip(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_string();
    }
    let kept: String = text.chars().take(width - 1).collect();
    format!("{kept}…")
}
