//! HAR 1.2 files in the shapes real tools write: the same findings as the equivalent
//! `.http` capture, machine locations on the right HAR members, bodies shown as sources
//! of their own, credentials never shown, and files that are not HAR logs.

#[path = "../common/mod.rs"]
mod common;

use std::path::{Path, PathBuf};

use a2alint::output::report::Format;
use a2alint::output::resolve::Diagnostic;
use a2alint::{FileReport, Options, lint_source};
use common::{fired, lint_file, render};

mod entries;
mod files;

pub(crate) fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/har")
        .join(name)
}

pub(crate) fn lint_text(path: &str, text: &str) -> FileReport {
    lint_source(path, text.as_bytes(), &Options::default())
}

/// What a finding says, leaving out where it is.
pub(crate) fn findings(report: &FileReport) -> Vec<String> {
    report
        .diagnostics
        .iter()
        .map(|d| {
            format!(
                "{} {} exchange={:?} member={:?} related={} | {} | {:?}",
                d.rule,
                d.severity,
                d.exchange,
                d.member,
                d.related.len(),
                d.message,
                d.help
            )
        })
        .collect()
}

pub(crate) fn find<'r>(report: &'r FileReport, slug: &str) -> &'r Diagnostic {
    report
        .diagnostics
        .iter()
        .find(|d| d.rule.slug() == slug)
        .unwrap_or_else(|| panic!("{slug} did not fire: {:?}", fired(report)))
}

/// 1-based line and column of the `nth` (0-based) occurrence of `needle` in `text`.
pub(crate) fn position(text: &str, needle: &str, nth: usize) -> (usize, usize) {
    let at = text
        .match_indices(needle)
        .nth(nth)
        .unwrap_or_else(|| panic!("{needle} #{nth} not found"))
        .0;
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    (
        text[..at].matches('\n').count() + 1,
        text[line_start..at].chars().count() + 1,
    )
}

#[test]
fn har_files_give_the_findings_of_the_equivalent_http_capture() {
    for name in ["mitmproxy-hardump", "browser-export"] {
        let har = lint_file(&fixture(&format!("{name}.har")));
        let http = lint_file(&fixture(&format!("twins/{name}.http")));
        // The browser export also carries fake credentials (`secret-in-capture`).
        let rules = fired(&har);
        for rule in [
            "error-info-missing",
            "http-status-mismatch",
            "unpaired-message",
        ] {
            assert!(rules.contains(&rule), "{name}: {rules:?}");
        }
        // The same findings, but that the HAR entry of an unanswered request says why
        // (its `_error`), which the `.http` twin cannot.
        let noted = findings(&har);
        assert!(
            noted
                .iter()
                .any(|f| f.contains(" (the HAR entry's `_error`: ")),
            "{name}: {noted:?}"
        );
        let without_note: Vec<String> = (noted.iter())
            .map(
                |f| match (f.find(" (the HAR entry's `_error`: "), f.find(") | ")) {
                    (Some(start), Some(end)) if start < end => {
                        format!("{}{}", &f[..start], &f[end + 1..])
                    }
                    _ => f.clone(),
                },
            )
            .collect();
        assert_eq!(without_note, findings(&http), "{name}");
        assert_eq!(har.exchanges, http.exchanges, "{name}");
    }
}

#[test]
fn machine_locations_point_at_the_members_in_the_har_file() {
    let path = fixture("mitmproxy-hardump.har");
    let text = std::fs::read_to_string(&path).unwrap();
    let report = lint_file(&path);

    // A finding in a body: the body is its own source, the location the `text` member.
    let missing = find(&report, "error-info-missing");
    assert_eq!(missing.exchange, Some(0));
    assert_eq!(
        missing.primary.body.as_deref(),
        Some("#entries[0].response.content")
    );
    let text_member = position(
        &text,
        r#""text": "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\""#,
        0,
    );
    assert_eq!(missing.primary.start.line, text_member.0);
    assert_eq!(
        missing.primary.start.column,
        text_member.1 + "\"text\": ".len()
    );
    let window = &missing.snippets[0];
    assert_eq!(
        window.name,
        "tests/fixtures/har/mitmproxy-hardump.har#entries[0].response.content"
    );
    assert_eq!((window.line, window.column), (1, 25));

    // A status: the very characters of the `status` member.
    let status = find(&report, "http-status-mismatch");
    assert_eq!(status.exchange, Some(1));
    assert_eq!(&text[status.primary.span.range()], "409");
    let (line, column) = position(&text, "\"status\": 409", 0);
    assert_eq!(
        (status.primary.start.line, status.primary.start.column),
        (line, column + "\"status\": ".len())
    );
    assert_eq!(status.primary.body, None);

    // A request that was never answered: its URL.
    let unpaired = find(&report, "unpaired-message");
    assert_eq!(unpaired.exchange, Some(2));
    assert_eq!(
        &text[unpaired.primary.span.range()],
        "\"http://agent.example:8080/a2a\""
    );
    assert_eq!(
        unpaired.primary.start.line,
        position(&text, "\"url\": ", 2).0
    );

    let concise = render(Format::Concise, &[report]);
    assert!(
        concise.contains(&format!(
            "tests/fixtures/har/mitmproxy-hardump.har:{}:{}: error[http-status-mismatch]",
            line,
            column + 10
        )),
        "{concise}"
    );
}

#[test]
fn human_output_shows_bodies_as_their_own_sources() {
    insta::glob!("../fixtures/har", "*.har", |path| {
        let reports = [lint_file(path)];
        insta::assert_snapshot!(format!(
            "{}\n----- human -----\n{}",
            render(Format::Concise, &reports),
            render(Format::Human, &reports)
        ));
    });
}
