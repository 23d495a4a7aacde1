//! GitHub annotations: escaping, multi-line spans, hidden annotations and the step summary.

use a2alint::finding::Severity;
use a2alint::output::report::Format;
use a2alint::output::report::{Context, Summary};
use a2alint::output::resolve::Diagnostic;

use super::*;

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
