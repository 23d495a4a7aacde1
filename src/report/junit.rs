//! `--format junit`: JUnit XML, one test suite per file.
//!
//! JUnit has no standard for linters; this is the common shape (ruff, ESLint, Spectral,
//! hadolint) from linter-conventions §4.3. Every finding, whatever its severity, is a
//! `<failure>` whose `type` is the severity: JUnit has no warnings, and a finding the user
//! did not want reported is turned off in the configuration instead.

use std::collections::HashSet;
use std::io::{self, Write};

use crate::lint::FileReport;
use crate::report::Context;
use crate::report::github::display_path;

/// Files are named from the repository root, as in the other CI formats.
pub fn write(reports: &[FileReport], context: &Context, out: &mut dyn Write) -> io::Result<()> {
    // A clean file still counts one (passing) test, so the report is never empty.
    let tests: usize = reports.iter().map(|r| r.diagnostics.len().max(1)).sum();
    let failures: usize = reports.iter().map(|r| r.diagnostics.len()).sum();
    writeln!(out, r#"<?xml version="1.0" encoding="UTF-8"?>"#)?;
    writeln!(
        out,
        r#"<testsuites name="a2alint" tests="{tests}" failures="{failures}">"#
    )?;
    for report in reports {
        let shown = display_path(&report.path, context);
        let path = attribute(&shown);
        let count = report.diagnostics.len();
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
        writeln!(out, "  </testsuite>")?;
    }
    writeln!(out, "</testsuites>")
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
