//! The machine formats (json, sarif, github, gitlab, junit): snapshots over one fixture set,
//! SARIF validated against the OASIS schema, and each format's CI pitfalls pinned.

mod common;

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use a2alint::FileReport;
use a2alint::finding::Severity;
use a2alint::input::source::{LineCol, Span};
use a2alint::output::report::Format;
use a2alint::output::report::{Context, Summary};
use a2alint::output::resolve::{Diagnostic, Location};
use a2alint::rules::RuleId;
use assert_cmd::Command;
use serde_json::Value;

/// Capture errors, a JSON-RPC error, HTTP+JSON errors, a decoded gzip body with a related
/// label, a stream event, an info, and a clean file.
const FIXTURES: &[&str] = &[
    "capture-syntax/bad-unterminated-head.http",
    "jsonrpc-id-mismatch/bad-other-request-id.http",
    "content-type-error-misuse/bad-text-plain-body-http-json.http",
    "rest-error-shape/bad-missing-code.http",
    "body-not-json/bad-in-gzip-body.http",
    "rest-error-shape/bad-error-is-a-string-in-stream.http",
    "capture-syntax/ok-separators-and-comments.http",
];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn fixture_reports() -> Vec<FileReport> {
    FIXTURES
        .iter()
        .map(|f| common::lint_file(&root().join("tests/fixtures").join(f)))
        .collect()
}

/// A context as `check` builds it when run from the crate root inside its repository.
fn context(reports: &[FileReport]) -> Context {
    Context {
        summary: Summary::of(reports),
        sarif_category: Some("a2alint".into()),
        base_dir: root().to_path_buf(),
        repo_root: Some(root().to_path_buf()),
        ..Context::default()
    }
}

fn render(format: Format, reports: &[FileReport], context: &Context) -> String {
    let mut out = Vec::new();
    a2alint::output::report::write(format, reports, context, &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    if format == Format::Sarif {
        common::validate_sarif(&text);
    }
    text
}

/// Snapshots do not change with the crate version.
fn versionless(text: &str) -> String {
    text.replace(
        &format!("\"{}\"", env!("CARGO_PKG_VERSION")),
        "\"[version]\"",
    )
}

#[test]
fn the_schema_check_rejects_invalid_sarif() {
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

fn at(line: usize, column: usize) -> LineCol {
    LineCol { line, column }
}

/// A diagnostic made by hand, for cases no fixture shows.
fn diagnostic(severity: Severity, message: &str, start: LineCol, end: LineCol) -> Diagnostic {
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

fn report(path: &str, diagnostics: Vec<Diagnostic>) -> FileReport {
    FileReport {
        path: path.into(),
        exchanges: 1,
        diagnostics,
        suppressed: 0,
        ..Default::default()
    }
}

fn parse(text: &str) -> Value {
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
fn sarif_describes_every_rule() {
    let text = render(Format::Sarif, &[], &Context::default());
    let sarif = parse(&text);
    assert_eq!(
        sarif["runs"].as_array().unwrap().len(),
        1,
        "exactly one run"
    );
    let driver = &sarif["runs"][0]["tool"]["driver"];
    assert_eq!(driver["name"], "a2alint");
    assert_eq!(driver["semanticVersion"], env!("CARGO_PKG_VERSION"));
    let rules = driver["rules"].as_array().unwrap();
    assert_eq!(rules.len(), RuleId::ALL.len());
    for (descriptor, &rule) in rules.iter().zip(RuleId::ALL) {
        assert_eq!(descriptor["id"], rule.slug());
        assert_eq!(descriptor["shortDescription"]["text"], rule.summary());
        assert_eq!(descriptor["help"]["markdown"], rule.doc());
        let full = descriptor["fullDescription"]["text"].as_str().unwrap();
        assert!(
            !full.is_empty() && full.chars().count() <= 1024,
            "{rule}: {full}"
        );
        let tags = descriptor["properties"]["tags"].as_array().unwrap();
        assert!(tags.contains(&Value::from(rule.group().as_str())));
        assert!(
            descriptor["helpUri"]
                .as_str()
                .unwrap()
                .ends_with(&format!("/rules/{rule}.md"))
        );
        assert!(
            descriptor["name"]
                .as_str()
                .unwrap()
                .chars()
                .all(|c| c.is_ascii_alphanumeric())
        );
    }
}

#[test]
fn sarif_results_point_into_the_repository() {
    let reports = fixture_reports();
    let sarif = parse(&render(Format::Sarif, &reports, &context(&reports)));
    let run = &sarif["runs"][0];
    assert_eq!(run["automationDetails"]["id"], "a2alint/");
    assert_eq!(run["columnKind"], "unicodeCodePoints");
    let results = run["results"].as_array().unwrap();
    assert_eq!(
        results.len(),
        reports.iter().map(|r| r.diagnostics.len()).sum::<usize>()
    );
    for result in results {
        let index = result["ruleIndex"].as_u64().unwrap() as usize;
        assert_eq!(result["ruleId"], RuleId::ALL[index].slug());
        let artifact = &result["locations"][0]["physicalLocation"]["artifactLocation"];
        assert!(
            artifact["uri"]
                .as_str()
                .unwrap()
                .starts_with("tests/fixtures/")
        );
        assert_eq!(artifact["uriBaseId"], "%SRCROOT%");
    }

    // Run from a subdirectory: the URI is still relative to the repository root.
    let sub = Context {
        base_dir: root().join("tests"),
        ..context(&[])
    };
    let moved = [report(
        "fixtures/a b#c.http",
        vec![diagnostic(Severity::Error, "m", at(1, 1), at(1, 2))],
    )];
    let sarif = parse(&render(Format::Sarif, &moved, &sub));
    let location = &sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"];
    assert_eq!(
        location["artifactLocation"]["uri"],
        "tests/fixtures/a%20b%23c.http"
    );

    // Outside the repository, an absolute path becomes a file URI with no base.
    let outside = [report(
        "/elsewhere/x.http",
        vec![diagnostic(Severity::Error, "m", at(1, 1), at(1, 2))],
    )];
    let sarif = parse(&render(Format::Sarif, &outside, &context(&[])));
    let artifact =
        &sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"];
    assert_eq!(artifact["uri"], "file:///elsewhere/x.http");
    assert!(artifact.get("uriBaseId").is_none());

    // A relative path that leads out of the repository is absolute too.
    let above = [report(
        "../../elsewhere/y z.http",
        vec![diagnostic(Severity::Error, "m", at(1, 1), at(1, 2))],
    )];
    let sarif = parse(&render(Format::Sarif, &above, &sub));
    let artifact =
        &sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"];
    let expected = root().join("../elsewhere/y z.http");
    let expected = a2alint::input::repo_root::file_uri(
        &a2alint::input::repo_root::repo_path(&expected.to_string_lossy(), root(), root()),
        false,
    );
    assert_eq!(artifact["uri"], expected.as_str());
    assert!(!expected.contains(".."), "{expected}");
    assert!(artifact.get("uriBaseId").is_none());
    // The base id says where the root is, as an absolute directory URI (§3.14.14).
    assert_eq!(
        sarif["runs"][0]["originalUriBaseIds"]["%SRCROOT%"]["uri"],
        a2alint::input::repo_root::file_uri(&root().to_string_lossy(), true).as_str()
    );
}

#[test]
fn sarif_fingerprints_keep_repeated_findings_apart() {
    let same = vec![
        diagnostic(Severity::Error, "first", at(1, 1), at(1, 2)),
        diagnostic(Severity::Error, "second", at(1, 5), at(1, 6)),
    ];
    let sarif = parse(&render(
        Format::Sarif,
        &[report("one-line.http", same)],
        &Context::default(),
    ));
    let hashes: Vec<&str> = sarif["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            r["partialFingerprints"]["primaryLocationLineHash"]
                .as_str()
                .unwrap()
        })
        .collect();
    assert_eq!(hashes, ["0123456789abcdef", "0123456789abcdef:2"]);
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
fn github_escapes_data_and_properties() {
    let mut d = diagnostic(
        Severity::Warning,
        "100% broken\r\nnext: a, b",
        at(2, 3),
        at(2, 7),
    );
    d.help = Some("fix it".into());
    let text = render(
        Format::Github,
        &[report("odd:dir,x%.http", vec![d])],
        &Context::default(),
    );
    assert_eq!(
        text,
        "::warning file=odd%3Adir%2Cx%25.http,line=2,endLine=2,col=3,endColumn=7,\
         title=capture-syntax::100%25 broken%0D%0Anext: a, b%0Ahelp: fix it\n"
    );
}

#[test]
fn github_multi_line_spans_have_no_columns() {
    let d = diagnostic(Severity::Info, "spans lines", at(3, 5), at(6, 2));
    let text = render(
        Format::Github,
        &[report("x.http", vec![d])],
        &Context::default(),
    );
    assert_eq!(
        text,
        "::notice file=x.http,line=3,endLine=6,title=capture-syntax::spans lines\n"
    );
}

#[test]
fn github_says_when_annotations_will_be_hidden() {
    let many = |severity, n| -> Vec<Diagnostic> {
        (1..=n)
            .map(|line| diagnostic(severity, "m", at(line, 1), at(line, 2)))
            .collect()
    };
    let ten_each = [report(
        "x.http",
        [many(Severity::Error, 10), many(Severity::Warning, 10)].concat(),
    )];
    assert!(!render(Format::Github, &ten_each, &Context::default()).contains("::notice"));
    for severity in [Severity::Error, Severity::Warning] {
        let eleven = [report("x.http", many(severity, 11))];
        let text = render(Format::Github, &eleven, &Context::default());
        let first = text.lines().next().unwrap();
        assert!(first.starts_with("::notice title=a2alint::"), "{first}");
        assert!(
            first.contains("only 10 error and 10 warning annotations per step"),
            "{first}"
        );
        assert!(first.contains("this log lists every finding"), "{first}");
    }
    let dir = tempfile::tempdir().unwrap();
    let context = Context {
        github_step_summary: Some(dir.path().join("summary.md")),
        ..Context::default()
    };
    let text = render(
        Format::Github,
        &[report("x.http", many(Severity::Error, 11))],
        &context,
    );
    assert!(
        text.lines()
            .next()
            .unwrap()
            .contains("the step summary lists every finding")
    );
}

#[test]
fn github_appends_a_table_to_the_step_summary() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("step-summary.md");
    std::fs::write(&file, "earlier step output\n").unwrap();
    let reports = [
        report(
            "a|b.http",
            vec![diagnostic(
                Severity::Error,
                "pipe | in\nmessage",
                at(4, 1),
                at(4, 2),
            )],
        ),
        report("clean.http", Vec::new()),
    ];
    let context = Context {
        summary: Summary::of(&reports),
        github_step_summary: Some(file.clone()),
        ..Context::default()
    };
    let annotations = render(Format::Github, &reports, &context);
    assert!(annotations.starts_with("::error file=a|b.http,line=4"));
    render(Format::Github, &reports, &context);
    let written = std::fs::read_to_string(&file).unwrap();
    let table = "## a2alint\n\nChecked 2 files (2 exchanges): 1 error, 0 warnings, 0 infos.\n\n\
                 | Location | Severity | Rule | Message |\n| --- | --- | --- | --- |\n\
                 | a\\|b.http:4 | error | capture-syntax | pipe \\| in message |\n\n";
    // Appended, twice, after what was there.
    assert_eq!(written, format!("earlier step output\n{table}{table}"));
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

#[test]
fn junit_names_are_unique_and_text_is_escaped() {
    let d = || {
        diagnostic(
            Severity::Error,
            "<a href=\"x\">&'\u{1}'</a>\tand\nmore",
            at(2, 4),
            at(2, 5),
        )
    };
    let text = render(
        Format::Junit,
        &[report("q\"<&>.http", vec![d(), d()])],
        &Context::default(),
    );
    assert!(
        text.contains(r#"<testsuite name="q&quot;&lt;&amp;&gt;.http" tests="2" failures="2">"#),
        "{text}"
    );
    assert!(
        text.contains(r#"<testcase name="a2alint.capture-syntax line 2 col 4" "#),
        "{text}"
    );
    assert!(
        text.contains(r#"<testcase name="a2alint.capture-syntax line 2 col 4 (2)" "#),
        "{text}"
    );
    assert!(text.contains(
        r#"message="&lt;a href=&quot;x&quot;&gt;&amp;'�'&lt;/a&gt;&#9;and&#10;more" type="error">"#
    ), "{text}");
    assert!(!text.contains('\u{1}'));
}

#[test]
fn every_format_is_byte_identical_across_runs() {
    for format in [
        Format::Json,
        Format::Sarif,
        Format::Github,
        Format::Gitlab,
        Format::Junit,
    ] {
        let first = render(format, &fixture_reports(), &context(&fixture_reports()));
        let second = render(format, &fixture_reports(), &context(&fixture_reports()));
        assert_eq!(first, second, "{format:?}");
        // The shared helper (default context) is deterministic too.
        assert_eq!(
            common::render(format, &fixture_reports()),
            common::render(format, &fixture_reports())
        );
    }
}

fn a2alint() -> Command {
    let mut cmd = Command::cargo_bin("a2alint").unwrap();
    // Never append to a real step summary when the tests run in GitHub Actions.
    cmd.env_remove("GITHUB_STEP_SUMMARY");
    cmd
}

fn fixture_paths() -> Vec<PathBuf> {
    FIXTURES
        .iter()
        .map(|f| root().join("tests/fixtures").join(f))
        .collect()
}

#[test]
fn cli_sarif_output_file_keeps_the_exit_code() {
    let dir = tempfile::tempdir().unwrap();
    let human = a2alint()
        .args(["check", "-q"])
        .args(fixture_paths())
        .output()
        .unwrap();
    let out = dir.path().join("a2alint.sarif");
    let sarif = a2alint()
        .args(["check", "-q", "--format", "sarif", "--output"])
        .arg(&out)
        .args(fixture_paths())
        .output()
        .unwrap();
    assert_eq!(human.status.code(), Some(1));
    assert_eq!(sarif.status.code(), human.status.code());
    assert!(
        sarif.stdout.is_empty(),
        "the report went to --output, not stdout"
    );
    let text = std::fs::read_to_string(&out).unwrap();
    common::validate_sarif(&text);
    assert!(parse(&text)["runs"][0]["results"].as_array().unwrap().len() > 1);
}

#[test]
fn cli_output_is_the_same_whatever_the_thread_count() {
    for format in ["json", "sarif", "github", "gitlab", "junit"] {
        let run = |threads: &str| {
            a2alint()
                .args(["check", "-q", "--format", format, "--threads", threads])
                .args(fixture_paths())
                .output()
                .unwrap()
                .stdout
        };
        assert_eq!(run("1"), run("4"), "{format}");
    }
}
