//! `--format concise`: one `path:line:col: severity[rule-id] message` line per finding,
//! the shape editors and grep understand.

use std::io::{self, Write};

use owo_colors::OwoColorize;

use crate::finding::Severity;
use crate::input::walk::Input;
use crate::output::FileReport;
use crate::output::report::{Reporter, Summary};

pub struct Concise<'w> {
    color: bool,
    out: &'w mut dyn Write,
}

impl<'w> Concise<'w> {
    pub fn new(color: bool, out: &'w mut dyn Write) -> Self {
        Concise { color, out }
    }
}

impl Reporter for Concise<'_> {
    fn file(&mut self, report: &FileReport, _source: Option<&Input>) -> io::Result<()> {
        write_file(report, self.color, self.out)
    }

    fn run_level(&mut self, reports: &[(usize, FileReport)]) -> io::Result<()> {
        for (_, report) in reports {
            write_file(report, self.color, self.out)?;
        }
        Ok(())
    }

    fn finish(self: Box<Self>, _summary: &Summary) -> io::Result<()> {
        Ok(())
    }
}

fn write_file(report: &FileReport, color: bool, out: &mut dyn Write) -> io::Result<()> {
    if !color {
        return write_plain(report, out);
    }
    for d in &report.diagnostics {
        let at = d.primary.start;
        let severity = d.severity.as_str();
        let tag = format!("{severity}[{}]", d.rule);
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
    }
    Ok(())
}

/// Each line put together in one reused buffer and written at once: through a `dyn
/// Write`, the formatting machinery cost more than the bytes of the line it wrote.
fn write_plain(report: &FileReport, out: &mut dyn Write) -> io::Result<()> {
    let mut line = Vec::with_capacity(256);
    let mut digits = itoa::Buffer::new();
    for d in &report.diagnostics {
        let at = d.primary.start;
        line.clear();
        line.extend_from_slice(report.path.as_bytes());
        line.push(b':');
        line.extend_from_slice(digits.format(at.line).as_bytes());
        line.push(b':');
        line.extend_from_slice(digits.format(at.column).as_bytes());
        let pieces = [
            ": ",
            d.severity.as_str(),
            "[",
            d.rule.slug(),
            "] ",
            &d.message,
        ];
        for piece in pieces {
            line.extend_from_slice(piece.as_bytes());
        }
        line.push(b'\n');
        out.write_all(&line)?;
    }
    Ok(())
}
