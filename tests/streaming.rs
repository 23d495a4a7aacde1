//! The streamed `check`: every format writes the same bytes at any thread count, run-level
//! and baselined findings included, and peak memory does not grow with the number of
//! files, text or pcap (findings are written and dropped file by file).

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const FORMATS: [&str; 8] = [
    "human", "concise", "json", "sarif", "github", "gitlab", "junit", "html",
];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn a2alint() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_a2alint"));
    cmd.env_remove("NO_COLOR")
        .env_remove("FORCE_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("GITHUB_STEP_SUMMARY")
        .env_remove("RAYON_NUM_THREADS");
    cmd
}

/// What a run wrote: standard output, and the GitHub step summary when it wrote one.
#[derive(Debug, PartialEq, Eq)]
struct Written {
    stdout: Vec<u8>,
    step_summary: Option<Vec<u8>>,
    status: Option<i32>,
}

/// `a2alint check --format FORMAT [threads] ARGS...` in `dir`.
fn run(dir: &Path, format: &str, threads: Option<usize>, args: &[&str]) -> Written {
    // Outside `dir`, which may be the checkout (`samples`).
    let scratch = tempfile::tempdir().unwrap();
    let summary = scratch.path().join("step-summary.md");
    let mut cmd = a2alint();
    cmd.current_dir(dir)
        .args(["check", "--no-config", "--format", format])
        .args(args);
    if let Some(threads) = threads {
        cmd.args(["--threads", &threads.to_string()]);
    }
    if format == "github" {
        cmd.env("GITHUB_STEP_SUMMARY", &summary);
    }
    let output = cmd.stderr(Stdio::null()).output().unwrap();
    Written {
        stdout: output.stdout,
        step_summary: fs::read(&summary).ok(),
        status: output.status.code(),
    }
}

/// Every format gives the same bytes with the default threads, one thread and more
/// threads than there are CPUs.
fn assert_same_at_any_thread_count(dir: &Path, args: &[&str]) {
    for format in FORMATS {
        let default = run(dir, format, None, args);
        assert!(!default.stdout.is_empty(), "{format}: no output");
        for threads in [1, 7] {
            let other = run(dir, format, Some(threads), args);
            assert!(
                default == other,
                "{format}: output with --threads {threads} differs from the default's"
            );
        }
    }
}

#[test]
fn samples_give_the_same_bytes_at_any_thread_count() {
    assert_same_at_any_thread_count(root(), &["samples"]);
}

/// `copies` directories, each holding every `bad-*` fixture (text, HAR and pcap).
fn corpus(copies: usize) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let mut fixtures: Vec<PathBuf> = Vec::new();
    for rule in fs::read_dir(root().join("tests/fixtures")).unwrap() {
        let rule = rule.unwrap().path();
        if !rule.is_dir() {
            continue;
        }
        for file in fs::read_dir(&rule).unwrap() {
            let file = file.unwrap().path();
            let name = file.file_name().unwrap().to_string_lossy().to_string();
            if name.starts_with("bad-") && file.is_file() {
                fixtures.push(file);
            }
        }
    }
    fixtures.sort();
    for copy in 0..copies {
        for fixture in &fixtures {
            let rule = fixture.parent().unwrap().file_name().unwrap();
            let target = dir
                .path()
                .join(format!("c{copy}"))
                .join(rule)
                .join(fixture.file_name().unwrap());
            fs::create_dir_all(target.parent().unwrap()).unwrap();
            fs::copy(fixture, target).unwrap();
        }
    }
    dir
}

#[test]
fn a_corpus_with_run_level_and_baselined_findings_gives_the_same_bytes_at_any_thread_count() {
    let corpus = corpus(3);
    let dir = corpus.path();
    // The second copy's findings, run-level ones included, are accepted. (The first
    // copy's answers are the ones `binding-divergence` reports in the whole run, so they
    // stay reported; the second copy's entries for them go stale.)
    let status = a2alint()
        .current_dir(dir)
        .args([
            "check",
            "--no-config",
            "--write-baseline",
            "baseline.json",
            "c1",
        ])
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success(), "writing the baseline failed: {status}");
    let args = ["--baseline", "baseline.json", "c0", "c1", "c2"];

    // The run holds what it should: findings of the run-level rules, written after
    // every file's, and findings the baseline holds back.
    let json = run(dir, "json", None, &args);
    let document: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let summary = &document["summary"];
    assert!(summary["baselined"].as_u64().unwrap() > 100, "{summary}");
    assert!(summary["stale_baseline"].as_u64().unwrap() > 0, "{summary}");
    let rules: Vec<&str> = (document["diagnostics"].as_array().unwrap().iter())
        .map(|d| d["rule"].as_str().unwrap())
        .collect();
    for rule in ["binding-divergence", "card-contradicted"] {
        let last_per_file = rules.iter().rposition(|r| !is_run_level(r)).unwrap();
        let first = rules.iter().position(|r| r == &rule);
        assert!(
            first.is_some_and(|at| at > last_per_file),
            "{rule}: expected after every per-file finding"
        );
    }

    assert_same_at_any_thread_count(dir, &args);
}

/// The rules that report once the whole run is read (`unsupported-version-accepted`
/// reports per file too).
fn is_run_level(rule: &str) -> bool {
    [
        "binding-divergence",
        "card-contradicted",
        "unsupported-version-accepted",
    ]
    .contains(&rule)
}

/// The peak resident memory of `cmd`, in KiB, by polling the child's `VmHWM` (the
/// kernel's high-water mark, so a poll misses only growth in its last milliseconds);
/// `None` where `/proc` does not give it.
fn peak_rss_kib(mut cmd: Command) -> Option<u64> {
    let mut child = cmd
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let status = PathBuf::from(format!("/proc/{}/status", child.id()));
    let mut peak = None;
    loop {
        // Read before asking whether it exited: the last read is of the finished run.
        if let Some(kib) = fs::read_to_string(&status).ok().and_then(|s| vm_hwm(&s)) {
            peak = Some(peak.unwrap_or(0).max(kib));
        }
        if child.try_wait().unwrap().is_some() {
            return peak;
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
}

fn vm_hwm(status: &str) -> Option<u64> {
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Whether this system gives a process's peak memory in `/proc` (it says so when not).
fn peak_memory_readable() -> bool {
    let readable = fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| vm_hwm(&s))
        .is_some();
    if !readable {
        println!("skipped: no /proc/self/status with VmHWM on this system");
    }
    readable
}

#[test]
fn peak_memory_does_not_grow_with_the_number_of_files() {
    if !peak_memory_readable() {
        return;
    }
    // A real recording with findings on every exchange, 250 times back to back: 1,000
    // findings a file. The engine that kept every file's findings to the end held about
    // 1.3 MiB more per file (release build, measured), so 24 more files added 30 MiB.
    let recording = root().join("samples/real/a2a-java/jsonrpc/list-tasks-bad-page-size.http");
    let mut one = fs::read(recording).unwrap();
    if !one.ends_with(b"\n") {
        one.extend_from_slice(b"\r\n");
    }
    let capture = one.repeat(250);
    let dir = tempfile::tempdir().unwrap();
    let few = 8;
    let many = 4 * few;
    for i in 0..many {
        fs::write(dir.path().join(format!("{i:03}.http")), &capture).unwrap();
    }
    let peak = |files: usize| {
        let mut cmd = a2alint();
        cmd.current_dir(dir.path())
            .args(["check", "--no-config", "--format", "sarif"])
            .args((0..files).map(|i| format!("{i:03}.http")));
        peak_rss_kib(cmd).expect("the child's VmHWM")
    };
    let (small, large) = (peak(few), peak(many));
    println!("peak RSS: {few} files {small} KiB, {many} files {large} KiB");
    assert!(
        large < small + small / 4 + 8 * 1024,
        "peak RSS grew with the number of files: {small} KiB for {few}, {large} KiB for {many}"
    );
}

#[test]
fn peak_memory_does_not_grow_with_the_number_of_pcap_captures() {
    if !peak_memory_readable() {
        return;
    }
    // The Go SDK's gRPC calls, whose answers and claims the run-level rules keep: when a
    // capture's were resolved at once, each copy held about 3 KiB to the end of the run,
    // so 950 more copies added about 3 MiB (measured with the debug build).
    let capture = fs::read(root().join("samples/real/a2a-go/grpc/grpc.pcap")).unwrap();
    let peak = |copies: usize| {
        let dir = tempfile::tempdir().unwrap();
        for i in 0..copies {
            fs::write(dir.path().join(format!("{i:04}.pcap")), &capture).unwrap();
        }
        let mut cmd = a2alint();
        cmd.current_dir(dir.path())
            .args(["check", "--no-config", "--format", "sarif", "."]);
        peak_rss_kib(cmd).expect("the child's VmHWM")
    };
    let (few, many) = (50, 1000);
    let (small, large) = (peak(few), peak(many));
    println!("peak RSS: {few} captures {small} KiB, {many} captures {large} KiB");
    assert!(
        large < small + 1536,
        "peak RSS grew with the number of captures: {small} KiB for {few}, {large} KiB for {many}"
    );
}
