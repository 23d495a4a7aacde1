//! `--format concise`: one `path:line:col: severity[rule-id] message` line per finding,
//! the shape editors and grep understand.

use std::io::{self, Write};

use owo_colors::OwoColorize;

use crate::finding::Severity;
use crate::lint::FileReport;

pub fn write(reports: &[FileReport], color: bool, out: &mut dyn Write) -> io::Result<()> {
    for report in reports {
        for d in &report.diagnostics {
            let at = d.primary.start;
            let severity = d.severity.as_str();
            let tag = format!("{severity}[{}]", d.rule);
            if color {
                let tag = match d.severity {
                    Severity::Error => tag.red().bold().to_string(),
                    Severity::Warning => tag.yellow().bold().to_string(),
                    Severity::Info => tag.cyan().bold().to_string(),
                };
                writeln!(
                    out,
                    "{}:{}:{}: {tag} {}",
                    report.path.bold(),
                    at.line,
                    at.column,
                    d.message
                )?;
            } else {
                writeln!(
                    out,
                    "{}:{}:{}: {tag} {}",
                    report.path, at.line, at.column, d.message
                )?;
            }
        }
    }
    Ok(())
}
