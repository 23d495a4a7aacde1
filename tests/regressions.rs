//! Inputs the fuzzers (see FUZZING.md) found crashing a2alint, kept as fixtures in
//! `tests/fixtures/regressions/`: each must lint without a panic, give the finding a
//! person would expect, and render in every format.

mod common;

use std::path::{Path, PathBuf};

use a2alint::FileReport;
use a2alint::cli::Format;
use common::{fired, lint_file, render};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/regressions")
        .join(name)
}

/// Lints the fixture and renders it in every format; any panic fails the test.
fn lint(name: &str) -> FileReport {
    let report = lint_file(&fixture(name));
    let reports = [report];
    for format in [
        Format::Human,
        Format::Concise,
        Format::Json,
        Format::Sarif,
        Format::Github,
        Format::Gitlab,
        Format::Junit,
    ] {
        render(format, &reports);
    }
    let [report] = reports;
    report
}

fn messages(report: &FileReport) -> Vec<&str> {
    report
        .diagnostics
        .iter()
        .map(|d| d.message.as_str())
        .collect()
}

/// A file starting with a UTF-8 continuation byte: the window of the finding at byte 0
/// stepped back before the start of the file looking for the character's first byte.
#[test]
fn window_at_a_leading_continuation_byte() {
    let report = lint("leading-continuation-byte.http");
    assert_eq!(fired(&report), ["capture-syntax"]);
    let diagnostic = &report.diagnostics[0];
    assert!(
        diagnostic
            .message
            .contains("expected a request line or a status line"),
        "{:?}",
        messages(&report)
    );
    assert_eq!(
        (
            diagnostic.primary.start.line,
            diagnostic.primary.start.column
        ),
        (1, 1)
    );
}

/// A HAR log that is not JSON before its entries: the masking scan still found entry 0,
/// which the HAR reader never wrote, and compared its length with a text that has none.
#[test]
fn har_entry_after_a_syntax_error() {
    let report = lint("har-entry-after-a-syntax-error.har");
    assert_eq!(report.exchanges, 0);
    assert_eq!(fired(&report), ["capture-syntax"]);
    assert!(
        report.diagnostics[0]
            .message
            .starts_with("HAR file is not valid JSON"),
        "{:?}",
        messages(&report)
    );
    // The credential in the entry is still masked in the window shown around the error.
    let human = render(Format::Human, &[report]);
    assert!(!human.contains("fuzz-not-a-secret"), "{human}");
}

/// A HAR file cut short right after a backslash in a string: the JSON scanner stepped
/// over the escape and past the end of the file.
#[test]
fn har_cut_after_a_backslash() {
    let report = lint("har-cut-after-a-backslash.har");
    assert_eq!(report.exchanges, 0);
    assert_eq!(fired(&report), ["capture-syntax"]);
    assert!(
        report.diagnostics[0]
            .message
            .starts_with("HAR file is cut short"),
        "{:?}",
        messages(&report)
    );
}

/// `#` lines inside a body that no separator or start line follows are body lines. Each
/// was looked at again for every line before it, so a body of many of them took
/// quadratic time: 20,000 lines took minutes.
#[test]
fn comment_lines_in_a_body() {
    let report = lint("comment-lines-in-a-body.http");
    assert_eq!(report.exchanges, 1);
    assert_eq!(fired(&report), ["body-not-json"]);
    assert_eq!(report.diagnostics[0].primary.start.line, 5);

    let bytes = std::fs::read(fixture("comment-lines-in-a-body.http")).unwrap();
    let text = String::from_utf8(bytes).unwrap();
    let many = text.replace("# another\n", &"# another\n".repeat(50_000));
    let started = std::time::Instant::now();
    let report = a2alint::lint_source("many.http", many.as_bytes(), &Default::default());
    assert_eq!(fired(&report), ["body-not-json"]);
    assert!(
        started.elapsed() < std::time::Duration::from_secs(30),
        "took {:?}",
        started.elapsed()
    );
}
