//! The machine formats (json, sarif, github, gitlab, junit): snapshots over one fixture set,
//! SARIF validated against the OASIS schema, and each format's CI pitfalls pinned.

#[path = "../common/mod.rs"]
mod common;

use std::collections::HashSet;
use std::path::Path;

use a2alint::FileReport;
use a2alint::finding::Severity;
use a2alint::input::source::{LineCol, Span};
use a2alint::output::report::Format;
use a2alint::output::report::{Context, Summary};
use a2alint::output::resolve::{Diagnostic, Location};
use a2alint::rules::RuleId;
use serde_json::Value;

mod cli;
mod github;
mod sarif;

/// Capture errors, a JSON-RPC error, HTTP+JSON errors, a decoded gzip body with a related
/// label, a stream event, an info, and a clean file.
pub(crate) const FIXTURES: &[&str] = &[
    "capture-syntax/bad-unterminated-head.http",
    "jsonrpc-id-mismatch/bad-other-request-id.http",
    "content-type-error-misuse/bad-text-plain-body-http-json.http",
    "rest-error-shape/bad-missing-code.http",
    "body-not-json/bad-in-gzip-body.http",
    "rest-error-shape/bad-error-is-a-string-in-stream.http",
    "capture-syntax/ok-separators-and-comments.http",
];

pub(crate) fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

pub(crate) fn fixture_reports() -> Vec<FileReport> {
    FIXTURES
        .iter()
        .map(|f| common::lint_file(&root().join("tests/fixtures").join(f)))
        .collect()
}

/// A context as `check` builds it when run from the crate root inside its repository.
pub(crate) fn context(reports: &[FileReport]) -> Context {
    Context {
        summary: Summary::of(reports),
        sarif_category: Some("a2alint".into()),
        base_dir: root().to_path_buf(),
        repo_root: Some(root().to_path_buf()),
        ..Context::default()
    }
}

pub(crate) fn render(format: Format, reports: &[FileReport], context: &Context) -> String {
    let mut out = Vec::new();
    a2alint::output::report::write(format, reports, context, &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    if format == Format::Sarif {
        common::validate_sarif(&text);
    }
    text
}

/// Snapshots do not change with the crate version.
pub(crate) fn versionless(text: &str) -> String {
    text.replace(
        &format!("\"{}\"", env!("CARGO_PKG_VERSION")),
        "\"[version]\"",
    )
}

#[test]
pub(crate) fn the_schema_check_rejects_invalid_sarif() {
    if !root()
        .join("../shared/schemas/sarif-schema-2.1.0.json")
        .exists()
    {
        return common::validate_sarif("{}"); // fails under CI, notes the skip elsewhere
    }
    let invalid = r#"{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}},
        "results": [{"level": "fatal", "message": {"text": "m"}}]}]}"#;
    assert!(std::panic::catch_unwind(|| common::validate_sarif(invalid)).is_err());
}

pub(crate) fn at(line: usize, column: usize) -> LineCol {
    LineCol { line, column }
}

/// A diagnostic made by hand, for cases no fixture shows.
pub(crate) fn diagnostic(
    severity: Severity,
    message: &str,
    start: LineCol,
    end: LineCol,
) -> Diagnostic {
    Diagnostic {
        rule: RuleId::CaptureSyntax,
        exchange: None,
        fingerprint: "0123456789abcdef".into(),
        member: None,
        severity,
        message: message.into(),
        help: None,
        primary: Location {
            span: Span::new(0, 1),
            start,
            end,
            body: None,
            text: String::new(),
            frame: None,
        },
        related: Vec::new(),
        snippets: Vec::new(),
    }
}

pub(crate) fn report(path: &str, diagnostics: Vec<Diagnostic>) -> FileReport {
    FileReport {
        path: path.into(),
        exchanges: 1,
        diagnostics,
        suppressed: 0,
        ..Default::default()
    }
}

pub(crate) fn parse(text: &str) -> Value {
    serde_json::from_str(text).unwrap()
}

#[test]
fn the_fixture_set_covers_what_the_formats_must_show() {
    let reports = fixture_reports();
    let fired: Vec<&str> = reports.iter().flat_map(common::fired).collect();
    for rule in [
        "capture-syntax",
        "jsonrpc-id-mismatch",
        "rest-error-shape",
        "body-not-json",
    ] {
        assert!(fired.contains(&rule), "{rule} missing from {fired:?}");
    }
    let all: Vec<&Diagnostic> = reports.iter().flat_map(|r| &r.diagnostics).collect();
    assert!(
        all.iter().any(|d| d.primary.body.is_some()),
        "no decoded-body label"
    );
    assert!(
        all.iter().any(|d| !d.related.is_empty()),
        "no related label"
    );
    assert!(all.iter().any(|d| d.severity == Severity::Info), "no info");
    assert!(
        reports.iter().any(|r| r.diagnostics.is_empty()),
        "no clean file"
    );
}

#[test]
fn json_snapshot() {
    let reports = fixture_reports();
    let text = render(Format::Json, &reports, &context(&reports));
    let json = parse(&text);
    assert_eq!(json["version"], 1);
    assert_eq!(json["summary"]["files"], FIXTURES.len());
    insta::assert_snapshot!("json", versionless(&text));
}

#[test]
fn sarif_snapshot() {
    let reports = fixture_reports();
    let text = render(Format::Sarif, &reports, &context(&reports));
    // The rule descriptors are the rule docs: `sarif_describes_every_rule` checks them all
    // and one is snapshotted, so doc edits do not churn this snapshot. Cut as text to keep
    // the field order the document really has.
    let open = text.find("\"rules\": [\n").unwrap();
    let indent = &text[text[..open].rfind('\n').unwrap() + 1..open];
    let close = open + text[open..].find(&format!("\n{indent}]")).unwrap() + indent.len() + 2;
    let elided = format!(
        "{}\"rules\": \"[every rule]\"{}",
        &text[..open],
        &text[close..]
    );
    // Rule indexes move when rules are added; `sarif_results_point_into_the_repository`
    // checks each against its rule id.
    let elided: Vec<String> = elided
        .lines()
        .map(|line| match line.split_once("\"ruleIndex\": ") {
            Some((indent, _)) => format!("{indent}\"ruleIndex\": \"[index]\","),
            None => line.to_string(),
        })
        .collect();
    // `%SRCROOT%` is this checkout's root as a file URI: where the crate sits here.
    let root_uri = &parse(&text)["runs"][0]["originalUriBaseIds"]["%SRCROOT%"]["uri"];
    let root_uri = root_uri.as_str().unwrap();
    assert!(root_uri.starts_with("file:///") && root_uri.ends_with('/'));
    let elided = elided.join("\n").replace(root_uri, "[root]");
    insta::assert_snapshot!("sarif", versionless(&elided));
    let rule = &text[open..close];
    let id = rule.find("\"id\": \"body-not-json\"").unwrap();
    let brace = rule[..id].rfind("{\n").unwrap();
    let start = rule[..brace].rfind('\n').unwrap() + 1;
    let end = id + rule[id..].find(&format!("\n{indent}  }}")).unwrap() + indent.len() + 4;
    let doc = serde_json::to_string(RuleId::BodyNotJson.doc()).unwrap();
    let rule = rule[start..end].replace(&doc, "\"[rules/body-not-json.md]\"");
    insta::assert_snapshot!("sarif_rule", rule);
}

#[test]
fn github_snapshot() {
    let reports = fixture_reports();
    insta::assert_snapshot!(
        "github",
        render(Format::Github, &reports, &context(&reports))
    );
}

#[test]
fn gitlab_snapshot_and_unique_fingerprints() {
    let reports = fixture_reports();
    let text = render(Format::Gitlab, &reports, &context(&reports));
    insta::assert_snapshot!("gitlab", text);

    // Two findings with one logical identity in one file, and the same again in another.
    let twins = || {
        vec![
            diagnostic(Severity::Error, "a", at(1, 1), at(1, 2)),
            diagnostic(Severity::Warning, "b", at(1, 1), at(1, 2)),
        ]
    };
    let mut all = fixture_reports();
    all.push(report("twins.http", twins()));
    all.push(report("other.http", twins()));
    let issues = parse(&render(Format::Gitlab, &all, &Context::default()));
    let issues = issues.as_array().unwrap();
    let fingerprints: HashSet<&str> = issues
        .iter()
        .map(|i| i["fingerprint"].as_str().unwrap())
        .collect();
    assert_eq!(fingerprints.len(), issues.len(), "fingerprints collide");
    let severities: Vec<&str> = issues
        .iter()
        .map(|i| i["severity"].as_str().unwrap())
        .collect();
    assert!(
        severities.contains(&"major")
            && severities.contains(&"minor")
            && severities.contains(&"info")
    );
}

#[test]
fn junit_snapshot_with_a_passing_case_per_clean_file() {
    let reports = fixture_reports();
    let text = render(Format::Junit, &reports, &context(&reports));
    assert!(text.contains(
        r#"<testcase name="a2alint" classname="tests/fixtures/capture-syntax/ok-separators-and-comments.http"/>"#
    ));
    insta::assert_snapshot!("junit", text);
}
