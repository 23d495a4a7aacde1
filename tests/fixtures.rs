//! Every rule's fixtures: `bad-*` files must make the rule fire, `ok-*` files must not;
//! the rendered output of each fixture is a reviewed snapshot.

mod common;

use std::path::{Path, PathBuf};

use a2alint::output::report::Format;
use a2alint::rules::RuleId;
use common::{fired, lint_file, render};

fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

fn files_of(rule: RuleId) -> Vec<PathBuf> {
    let dir = fixtures_dir().join(rule.slug());
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .collect();
    files.sort();
    files
}

#[test]
fn bad_fixtures_fire_and_ok_fixtures_stay_quiet() {
    let mut failures = Vec::new();
    for &rule in RuleId::ALL {
        let files = files_of(rule);
        let name = |f: &PathBuf| f.file_name().unwrap().to_string_lossy().into_owned();
        assert!(
            files.iter().any(|f| name(f).starts_with("bad-")),
            "{rule} has no bad-* fixture"
        );
        assert!(
            files.iter().any(|f| name(f).starts_with("ok-")),
            "{rule} has no ok-* fixture"
        );
        for file in &files {
            let report = lint_file(file);
            let fires = fired(&report).contains(&rule.slug());
            let should_fire = name(file).starts_with("bad-");
            if fires != should_fire {
                failures.push(format!(
                    "{}: {rule} fired={fires}, got {:?}",
                    file.display(),
                    fired(&report)
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn fixture_output_snapshots() {
    insta::glob!("fixtures/*/*.{http,pcap}", |path| {
        let report = lint_file(path);
        let reports = [report];
        let output = format!(
            "{}\n----- human -----\n{}",
            render(Format::Concise, &reports),
            render(Format::Human, &reports)
        );
        insta::assert_snapshot!(output);
    });
}
