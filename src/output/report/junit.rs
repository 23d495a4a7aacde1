//! `--format junit`: JUnit XML, one test suite per file.
//!
//! JUnit has no standard for linters; this is the common shape (ruff, ESLint, Spectral,
//! hadolint) from linter-conventions §4.3. Every finding, whatever its severity, is a
//! `<failure>` whose `type` is the severity: JUnit has no warnings, and a finding the user
//! did not want reported is turned off in the configuration instead.

use std::collections::HashSet;
use std::io::{self, Write};

use crate::input::walk::Input;
use crate::output::FileReport;
use crate::output::report::github::display_path;
use crate::output::report::spool::Spool;
use crate::output::report::{Context, Reporter, Summary};

/// The suites wait in a spool until the run is done: the opening `<testsuites>` holds
/// the totals, and JUnit readers know no element for totals at the end.
pub struct Junit<'w> {
    context: &'w Context,
    out: &'w mut dyn Write,
    suites: Spool,
    tests: usize,
    failures: usize,
}

impl<'w> Junit<'w> {
    pub fn new(context: &'w Context, out: &'w mut dyn Write) -> io::Result<Self> {
        Ok(Junit {
            context,
            out,
            suites: Spool::new()?,
            tests: 0,
            failures: 0,
        })
    }

    /// One suite of a file's findings; files are named from the repository root, as in
    /// the other CI formats.
    fn suite(&mut self, report: &FileReport) -> io::Result<()> {
        let out = &mut self.suites;
        let shown = display_path(&report.path, self.context);
        let path = attribute(&shown);
        let count = report.diagnostics.len();
        // A clean file still counts one (passing) test, so the report is never empty.
        self.tests += count.max(1);
        self.failures += count;
        writeln!(
            out,
            r#"  <testsuite name="{path}" tests="{}" failures="{count}">"#,
            count.max(1)
        )?;
        if count == 0 {
            writeln!(out, r#"    <testcase name="a2alint" classname="{path}"/>"#)?;
        }
        // GitLab keys test cases by classname and name and drops duplicates
        // (gitlab-org/gitlab-foss#50964): the position goes into the name, and a counter
        // when two findings of one rule start at the same place.
        let mut names = HashSet::new();
        for d in &report.diagnostics {
            let at = d.primary.start;
            let base = format!("a2alint.{} line {} col {}", d.rule, at.line, at.column);
            let mut name = base.clone();
            let mut n = 1;
            while !names.insert(name.clone()) {
                n += 1;
                name = format!("{base} ({n})");
            }
            let mut body = format!(
                "{}:{}:{}: {}[{}] {}",
                shown, at.line, at.column, d.severity, d.rule, d.message
            );
            if let Some(help) = &d.help {
                body.push_str(&format!("\nhelp: {help}"));
            }
            writeln!(
                out,
                r#"    <testcase name="{}" classname="{path}">"#,
                attribute(&name)
            )?;
            writeln!(
                out,
                r#"      <failure message="{}" type="{}">{}</failure>"#,
                attribute(&d.message),
                d.severity,
                text(&body)
            )?;
            writeln!(out, "    </testcase>")?;
        }
        writeln!(out, "  </testsuite>")
    }
}

impl Reporter for Junit<'_> {
    fn file(&mut self, report: &FileReport, _source: Option<&Input>) -> io::Result<()> {
        self.suite(report)
    }

    /// A second suite, named like the file's, for a file with run-level findings: its
    /// own suite was written long before (a run-level rule reports each exchange at most
    /// once, and none that a per-file finding of its rule is at, so case names stay apart).
    fn run_level(&mut self, reports: &[(usize, FileReport)]) -> io::Result<()> {
        for (_, report) in reports.iter().filter(|(_, r)| !r.diagnostics.is_empty()) {
            self.suite(report)?;
        }
        Ok(())
    }

    fn finish(self: Box<Self>, _summary: &Summary) -> io::Result<()> {
        let Junit {
            out,
            suites,
            tests,
            failures,
            ..
        } = *self;
        writeln!(out, r#"<?xml version="1.0" encoding="UTF-8"?>"#)?;
        writeln!(
            out,
            r#"<testsuites name="a2alint" tests="{tests}" failures="{failures}">"#
        )?;
        suites.copy_to(out)?;
        writeln!(out, "</testsuites>")
    }
}

/// Element text: the markup characters escaped; characters XML 1.0 forbids (most C0
/// controls, which a capture can hold) replaced, since no escape makes them legal.
fn text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            // A literal CR would be normalised away by the parser.
            '\r' => out.push_str("&#13;"),
            '\t' | '\n' => out.push(c),
            c if is_forbidden(c) => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// An attribute value in double quotes: also `"`, and white space as character
/// references, because parsers normalise literal tabs and line breaks in attributes to spaces.
fn attribute(s: &str) -> String {
    text(s)
        .replace('"', "&quot;")
        .replace('\t', "&#9;")
        .replace('\n', "&#10;")
}

/// Characters outside XML 1.0's `Char` production.
fn is_forbidden(c: char) -> bool {
    matches!(c, '\u{0}'..='\u{8}' | '\u{B}' | '\u{C}' | '\u{E}'..='\u{1F}' | '\u{FFFE}' | '\u{FFFF}')
}
