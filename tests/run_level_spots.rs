//! Run-level findings of a checked file (kept as numbered spots, the file linted again
//! after the run for the ones reported) are exactly those of the same capture read from
//! standard input (every spot resolved at once): the second pass numbers spots as the
//! first did, for `.http`, HAR and pcap fixtures of every run-level rule.

use std::path::Path;

use assert_cmd::Command;
use serde_json::Value;

#[path = "../benches/corpus/mod.rs"]
mod corpus;

const RUN_LEVEL: [&str; 3] = [
    "binding-divergence",
    "card-contradicted",
    "unsupported-version-accepted",
];

/// The diagnostics of a JSON report, without what differs by how the file was read.
fn diagnostics(output: &[u8]) -> Vec<Value> {
    let report: Value = serde_json::from_slice(output).unwrap();
    report["diagnostics"].as_array().unwrap().clone()
}

/// `a2alint check --format json` of `path` as a file, or read from standard input under
/// the same name, from the directory it is in.
fn check(path: &Path, stdin: bool) -> Vec<Value> {
    let (dir, name) = (path.parent().unwrap(), path.file_name().unwrap());
    let mut cmd = Command::cargo_bin("a2alint").unwrap();
    cmd.current_dir(dir)
        .args(["check", "--no-config", "--format", "json"]);
    if stdin {
        cmd.arg("--stdin-filename").arg(name).arg("-");
        cmd.write_stdin(std::fs::read(path).unwrap());
    } else {
        cmd.arg(name);
    }
    diagnostics(&cmd.output().unwrap().stdout)
}

#[test]
fn a_second_pass_finds_the_spots_the_first_numbered() {
    let mut compared = 0;
    let mut run_level_found = 0;
    for rule in RUN_LEVEL {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures")
            .join(rule);
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        for file in files {
            let (checked, read_once) = (check(&file, false), check(&file, true));
            assert_eq!(checked, read_once, "{}", file.display());
            run_level_found += (checked.iter())
                .filter(|d| RUN_LEVEL.contains(&d["rule"].as_str().unwrap()))
                .count();
            compared += 1;
        }
    }
    assert!(compared > 20, "only {compared} fixtures compared");
    // The comparison means something only if the run-level rules fired.
    assert!(
        run_level_found > 10,
        "only {run_level_found} run-level findings"
    );
}

#[test]
fn generated_traffic_is_placed_the_same_either_way() {
    // The generator's agent cards contradict much of the traffic beside them, in `.http`
    // files and HAR logs alike: the second pass has real work here.
    let dir = tempfile::tempdir().unwrap();
    let mut run_level_found = 0;
    let mut files = corpus::plan(5, 2 << 20, 12, false);
    files.push(corpus::FilePlan {
        name: "log.har".into(),
        size: 1 << 20,
        har: true,
        seed: 3,
    });
    for file in files {
        let path = dir.path().join(&file.name);
        std::fs::write(&path, corpus::file_bytes(5, &file, corpus::Mix::Realistic)).unwrap();
        let (checked, read_once) = (check(&path, false), check(&path, true));
        assert_eq!(checked, read_once, "{}", file.name);
        run_level_found += (checked.iter())
            .filter(|d| RUN_LEVEL.contains(&d["rule"].as_str().unwrap()))
            .count();
    }
    assert!(
        run_level_found > 5,
        "only {run_level_found} run-level findings"
    );
}
