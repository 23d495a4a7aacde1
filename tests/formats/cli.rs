//! Names and bytes every run gives alike, and the command line's output files and threads.

use a2alint::finding::Severity;
use a2alint::output::report::Context;
use a2alint::output::report::Format;
use assert_cmd::Command;
use std::path::PathBuf;

use super::*;

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
