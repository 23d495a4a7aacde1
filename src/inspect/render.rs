//! Renders `inspect` rows: a table readable in 100 columns, or versioned JSON.

use std::collections::BTreeMap;
use std::io::{self, Write};

use crate::inspect::{Advice, Row};

/// Errors by name, then by binding, for the summary matrix.
fn matrix(rows: &[Row]) -> BTreeMap<&str, BTreeMap<&'static str, usize>> {
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

/// One heading per file, then a row per exchange (line, `#entry` in a HAR file, `f<frame>` or `f<frame>/s<stream>` in a pcap; binding, operation, status,
/// error reason or name) and, under it, what a client should do next; 100 columns wide.
pub fn write_table(rows: &[Row], out: &mut dyn Write) -> io::Result<()> {
    let mut current: Option<&str> = None;
    for row in rows {
        if current != Some(row.path.as_str()) {
            if current.is_some() {
                writeln!(out)?;
            }
            writeln!(out, "{}", row.path)?;
            writeln!(
                out,
                "{:>6} {:<9} {:<32} {:>6}  ERROR",
                "LINE", "BINDING", "OPERATION", "STATUS"
            )?;
            current = Some(&row.path);
        }
        let status = row
            .status
            .map_or_else(|| "-".to_string(), |s| s.to_string());
        let error = row
            .reason
            .as_ref()
            .or(row.error.as_ref())
            .map_or("-", String::as_str);
        let place = match (row.line, row.entry, row.frame) {
            (Some(line), _, _) => line.to_string(),
            (None, Some(entry), _) => format!("#{entry}"),
            (None, None, Some(frame)) => match row.stream {
                Some(stream) => format!("f{frame}/s{stream}"),
                None => format!("f{frame}"),
            },
            (None, None, None) => "-".to_string(),
        };
        writeln!(
            out,
            "{place:>6} {:<9} {:<32} {status:>6}  {}",
            row.binding,
            clip(row.operation.unwrap_or("-"), 32),
            clip(error, 42)
        )?;
        if row.advice != Advice::Proceed {
            let retry = row
                .retry_after
                .as_ref()
                .map_or_else(String::new, |r| format!(" (Retry-After: {r})"));
            writeln!(out, "{:>6} -> {}{retry}", "", row.advice.describe())?;
        }
    }
    let matrix = matrix(rows);
    if matrix.is_empty() {
        return writeln!(out, "\nNo errors in {} exchanges.", rows.len());
    }
    writeln!(
        out,
        "\n{:<40} {:>9} {:>10} {:>6}",
        "ERRORS BY BINDING", "JSON-RPC", "HTTP+JSON", "OTHER"
    )?;
    for (error, by_binding) in &matrix {
        let count = |b: &str| by_binding.get(b).copied().unwrap_or(0);
        let other: usize = by_binding
            .iter()
            .filter(|(b, _)| !matches!(**b, "JSON-RPC" | "HTTP+JSON"))
            .map(|(_, n)| n)
            .sum();
        writeln!(
            out,
            "{:<40} {:>9} {:>10} {:>6}",
            clip(error, 40),
            count("JSON-RPC"),
            count("HTTP+JSON"),
            other
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
