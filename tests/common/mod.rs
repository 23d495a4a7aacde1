//! Helpers shared by the integration tests.

// Each test binary compiles this module and uses a part of it.
#![allow(dead_code)]

use std::path::Path;

use a2alint::output::report::Format;
use a2alint::{FileReport, Options, Profile, lint_source};

/// Lints a file, showing it under its path relative to the crate root. A first line
/// `# test-profile: NAME` lints it under that profile.
pub fn lint_file(path: &Path) -> FileReport {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let shown = path.strip_prefix(root).unwrap_or(path);
    let bytes = std::fs::read(path).unwrap();
    let name = shown.to_string_lossy().replace('\\', "/");
    let mut options = options_for(&bytes);
    if let Some(profile) = profile_in_name(path) {
        options.profile = profile;
    }
    let mut report = lint_source(&name, &bytes, &options);
    // As a run of one file: run-level rules see it too.
    a2alint::lint::check_linted_run(std::slice::from_mut(&mut report));
    report
}

/// The profile a binary fixture (a pcap, which has no first line to say it) names at the
/// end of its file name: `ok-unimplemented-under-spec-1.0.0.pcap`.
pub fn profile_in_name(path: &Path) -> Option<Profile> {
    let name = path.file_name()?.to_str()?;
    let stem = name
        .strip_suffix(".pcap")
        .or_else(|| name.strip_suffix(".pcapng"))?;
    let (_, profile) = stem.rsplit_once("-under-")?;
    Some(
        <Profile as clap::ValueEnum>::from_str(profile, false)
            .unwrap_or_else(|e| panic!("unknown test profile {profile} in {name}: {e}")),
    )
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

/// The formats written as text from reports alone (`html` reads the captures again).
pub fn text_formats() -> impl Iterator<Item = Format> {
    use clap::ValueEnum;
    (Format::value_variants().iter().copied()).filter(|&format| format != Format::Html)
}

/// Renders reports as a user would see them, without colour.
pub fn render(format: Format, reports: &[FileReport]) -> String {
    let mut out = Vec::new();
    let context = a2alint::output::report::Context {
        summary: a2alint::output::report::Summary::of(reports),
        ..Default::default()
    };
    a2alint::output::report::write(format, reports, &context, &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

/// The slugs of the rules that fired, with repeats, in report order.
pub fn fired(report: &FileReport) -> Vec<&'static str> {
    report.diagnostics.iter().map(|d| d.rule.slug()).collect()
}

/// Validates a SARIF document against the vendored OASIS schema (draft-04). A missing
/// schema fails under CI and is only noted elsewhere, so CI can never pass by skipping.
pub fn validate_sarif(text: &str) {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/schemas/sarif-schema-2.1.0.json");
    let schema = match std::fs::read_to_string(&path) {
        Ok(schema) => schema,
        Err(e) if std::env::var_os("CI").is_some() => {
            panic!(
                "CI is set and the SARIF schema {} cannot be read: {e}",
                path.display()
            )
        }
        Err(e) => {
            eprintln!(
                "note: skipping SARIF schema validation, {}: {e}",
                path.display()
            );
            return;
        }
    };
    let schema: serde_json::Value = serde_json::from_str(&schema).unwrap();
    let validator = jsonschema::options()
        .should_validate_formats(true)
        .build(&schema)
        .unwrap();
    let instance: serde_json::Value = serde_json::from_str(text).unwrap();
    let errors: Vec<String> = validator
        .iter_errors(&instance)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "invalid SARIF:\n{}", errors.join("\n"));
}

/// The a2alint binary, with the environment that shapes its output cleared (colour
/// switches, GitHub's step summary, rayon's thread count), so tests see what they ask for.
pub fn a2alint() -> assert_cmd::Command {
    let mut cmd = assert_cmd::Command::cargo_bin("a2alint").unwrap();
    for name in [
        "NO_COLOR",
        "FORCE_COLOR",
        "CLICOLOR_FORCE",
        "GITHUB_STEP_SUMMARY",
        "RAYON_NUM_THREADS",
    ] {
        cmd.env_remove(name);
    }
    cmd
}
