//! One set of output flags on every subcommand: `-o/--output`, `--color`, `-q/--quiet`
//! and `--no-progress` are accepted everywhere, `-o FILE` writes the file and nothing to
//! standard output, and `--color never` writes no ANSI escape.

mod common;

use std::fs;

use common::a2alint;

/// Fires `body-not-json` (so `check` and `inspect` have something to colour), and holds
/// a credential (so `redact --diff` has something to show).
const CAPTURE: &str = "GET /tasks/t HTTP/1.1\nA2A-Version: 1.0\nAuthorization: Bearer sk-live-1\n\nHTTP/1.1 404 Not Found\nContent-Type: application/json\n\n{oops}\n";

const ESC: &str = "\u{1b}[";

/// Every subcommand, with the arguments it needs, and the exit status it gives on
/// [`CAPTURE`] (findings, or a credential `--check` would redact, exit 1).
fn subcommands() -> Vec<(Vec<&'static str>, i32)> {
    vec![
        (vec!["check", "--format", "concise", "capture.http"], 1),
        (vec!["check", "capture.http"], 1),
        (vec!["inspect", "capture.http"], 0),
        (vec!["inspect", "--format", "json", "capture.http"], 0),
        (vec!["rules"], 0),
        (vec!["explain", "body-not-json"], 0),
        (vec!["redact", "--diff", "capture.http"], 0),
        (vec!["redact", "--check", "capture.http"], 1),
        (vec!["completions", "bash"], 0),
    ]
}

fn capture_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("capture.http"), CAPTURE).unwrap();
    dir
}

#[test]
fn every_subcommand_accepts_the_shared_output_flags() {
    for (args, code) in subcommands() {
        for flags in [
            &["--color", "never"][..],
            &["--color", "always"],
            &["--color", "auto"],
            &["-q"],
            &["--quiet"],
            &["--no-progress"],
            &["-q", "--no-progress", "--color", "never"],
        ] {
            let dir = capture_dir();
            a2alint()
                .current_dir(dir.path())
                .args(&args)
                .args(flags)
                .assert()
                .code(code);
        }
    }
}

#[test]
fn output_to_a_file_prints_nothing_on_standard_output() {
    for (args, code) in subcommands() {
        for flag in ["-o", "--output"] {
            let dir = capture_dir();
            let file = dir.path().join("out.txt");
            a2alint()
                .current_dir(dir.path())
                .args(&args)
                .arg(flag)
                .arg(&file)
                .assert()
                .code(code)
                .stdout("");
            let written = fs::read_to_string(&file).unwrap();
            assert!(!written.is_empty(), "{args:?} {flag}: empty file");
            assert!(!written.contains(ESC), "{args:?}: colour in a file");
            // What the file holds is what standard output would have shown.
            let shown = a2alint()
                .current_dir(dir.path())
                .args(&args)
                .output()
                .unwrap();
            assert_eq!(
                written,
                String::from_utf8(shown.stdout).unwrap(),
                "{args:?} {flag}"
            );
        }
    }
}

#[test]
fn color_never_writes_no_ansi_escape_even_when_forced() {
    for (args, code) in subcommands() {
        let dir = capture_dir();
        let output = a2alint()
            .current_dir(dir.path())
            .env("FORCE_COLOR", "1")
            .args(&args)
            .args(["--color", "never"])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(code), "{args:?}");
        for stream in [&output.stdout, &output.stderr] {
            let text = String::from_utf8_lossy(stream);
            assert!(!text.contains(ESC), "{args:?}: {text}");
        }
    }
}

#[test]
fn inspect_colours_its_table_only_when_asked() {
    let dir = capture_dir();
    let run = |color: &str| {
        let output = a2alint()
            .current_dir(dir.path())
            .args(["inspect", "--color", color, "capture.http"])
            .output()
            .unwrap();
        String::from_utf8(output.stdout).unwrap()
    };
    let plain = run("never");
    let coloured = run("always");
    assert!(coloured.contains(ESC), "{coloured}");
    // The same table once the escapes are taken out: colour changes no alignment.
    let stripped = strip_ansi(&coloured);
    assert_eq!(stripped, plain);
    // Restrained: headings bold, the error red, the advice dimmed, nothing else.
    assert!(
        coloured.contains("\u{1b}[31mHTTP 404\u{1b}[39m"),
        "{coloured}"
    );
    assert!(
        coloured.contains("\u{1b}[1mcapture.http\u{1b}[0m"),
        "{coloured}"
    );
    // JSON is never coloured.
    let json = a2alint()
        .current_dir(dir.path())
        .args([
            "inspect",
            "--format",
            "json",
            "--color",
            "always",
            "capture.http",
        ])
        .output()
        .unwrap();
    assert!(!String::from_utf8_lossy(&json.stdout).contains(ESC));
}

#[test]
fn quiet_leaves_out_the_summary_and_redact_status_lines() {
    let dir = capture_dir();
    a2alint()
        .current_dir(dir.path())
        .args(["check", "-q", "capture.http"])
        .assert()
        .code(1)
        .stderr("");
    a2alint()
        .current_dir(dir.path())
        .args(["redact", "--check", "-q", "capture.http"])
        .assert()
        .code(1)
        .stdout("");
    a2alint()
        .current_dir(dir.path())
        .args(["redact", "-q", "capture.http"])
        .assert()
        .code(0)
        .stdout("");
    let redacted = fs::read_to_string(dir.path().join("capture.http")).unwrap();
    assert!(!redacted.contains("sk-live-1"), "{redacted}");
}

/// `text` without its SGR escapes.
fn strip_ansi(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find(ESC) {
        out.push_str(&rest[..at]);
        rest = &rest[at + ESC.len()..];
        let end = rest.find('m').map_or(rest.len(), |m| m + 1);
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}
