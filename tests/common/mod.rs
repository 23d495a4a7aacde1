//! Helpers shared by the integration tests.

// Each test binary compiles this module and uses a part of it.
#![allow(dead_code)]

use std::path::Path;

use a2alint::cli::Format;
use a2alint::{FileReport, Options, Profile, lint_source};

/// Lints a file, showing it under its path relative to the crate root. A first line
/// `# test-profile: NAME` lints it under that profile.
pub fn lint_file(path: &Path) -> FileReport {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let shown = path.strip_prefix(root).unwrap_or(path);
    let bytes = std::fs::read(path).unwrap();
    let name = shown.to_string_lossy().replace('\\', "/");
    let mut report = lint_source(&name, &bytes, &options_for(&bytes));
    // As a run of one file: run-level rules see it too.
    a2alint::rules::binding_divergence::check_run(std::slice::from_mut(&mut report));
    report
}

/// The options a fixture asks for in its first line.
pub fn options_for(bytes: &[u8]) -> Options {
    let first_line = bytes.split(|&b| b == b'\n').next().unwrap_or_default();
    let profile = std::str::from_utf8(first_line)
        .ok()
        .and_then(|line| line.trim().strip_prefix("# test-profile:"))
        .map(|name| {
            <Profile as clap::ValueEnum>::from_str(name.trim(), false)
                .unwrap_or_else(|e| panic!("unknown test profile {name}: {e}"))
        })
        .unwrap_or_default();
    Options {
        profile,
        ..Options::default()
    }
}

/// Renders reports as a user would see them, without colour.
pub fn render(format: Format, reports: &[FileReport]) -> String {
    let mut out = Vec::new();
    let context = a2alint::report::Context {
        summary: a2alint::report::Summary::of(reports),
        ..Default::default()
    };
    a2alint::report::write(format, reports, &context, &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

/// The slugs of the rules that fired, with repeats, in report order.
pub fn fired(report: &FileReport) -> Vec<&'static str> {
    report.diagnostics.iter().map(|d| d.rule.slug()).collect()
}
