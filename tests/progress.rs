//! `check`'s progress bar: drawn on standard error when that is a terminal and the run is
//! long enough, never written into the report, and not drawn with `--no-progress`. The
//! terminal is a pseudo-terminal that util-linux `script` gives the run, recording what
//! is drawn on it.

use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};

/// More files than the bar waits for before it shows (it shows from 200).
const FILES: usize = 600;

/// A directory of `FILES` copies of one capture with findings.
fn corpus() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let capture = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/broken-capture.http");
    let bytes = fs::read(capture).unwrap();
    for i in 0..FILES {
        fs::write(dir.path().join(format!("{i:04}.http")), &bytes).unwrap();
    }
    dir
}

/// A word for `sh -c`: the text in single quotes.
fn quoted(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// What a run of `a2alint check --format concise ARGS -o REPORT DIR` drew on its
/// terminal, the report it wrote and its exit status.
struct Run {
    drawn: String,
    report: Vec<u8>,
    status: Option<i32>,
}

/// The run with a pseudo-terminal for its standard input, output and error.
fn on_terminal(dir: &Path, args: &[&str]) -> Run {
    let scratch = tempfile::tempdir().unwrap();
    let report = scratch.path().join("report.txt");
    let typescript = scratch.path().join("typescript");
    let mut words = vec![env!("CARGO_BIN_EXE_a2alint").to_string()];
    words.extend(["check", "--no-config", "--format", "concise"].map(String::from));
    words.extend(args.iter().map(|a| a.to_string()));
    words.extend(["-o".to_string(), report.display().to_string()]);
    words.push(dir.display().to_string());
    let command = words
        .iter()
        .map(|w| quoted(w))
        .collect::<Vec<_>>()
        .join(" ");
    let status = Command::new("script")
        .args(["--quiet", "--return", "--command", &command])
        .arg(&typescript)
        .env("TERM", "xterm")
        .env_remove("NO_COLOR")
        .env_remove("CI")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .status()
        .expect("util-linux `script` runs (Debian's bsdutils)");
    Run {
        drawn: String::from_utf8_lossy(&fs::read(&typescript).unwrap()).into_owned(),
        report: fs::read(&report).unwrap(),
        status: status.code(),
    }
}

/// The same run with no terminal anywhere.
fn off_terminal(dir: &Path) -> Vec<u8> {
    let output = Command::new(env!("CARGO_BIN_EXE_a2alint"))
        .args(["check", "--no-config", "--format", "concise"])
        .arg(dir)
        .env_remove("CI")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    output.stdout
}

/// The bar's counters as it draws them: `N/M files`, M the files counted so far.
fn counters(drawn: &str) -> Vec<(usize, usize)> {
    let number_before = |at: usize| {
        let digits = (drawn[..at].bytes().rev())
            .take_while(u8::is_ascii_digit)
            .count();
        drawn[at - digits..at].parse::<usize>().ok()
    };
    (drawn.match_indices(" files"))
        .filter_map(|(at, _)| {
            let of = number_before(at)?;
            let slash = at.checked_sub(of.to_string().len() + 1)?;
            (drawn.as_bytes().get(slash) == Some(&b'/')).then_some(())?;
            Some((number_before(slash)?, of))
        })
        .collect()
}

#[test]
fn a_long_run_on_a_terminal_draws_the_bar_beside_the_report() {
    let dir = corpus();
    let run = on_terminal(dir.path(), &[]);
    assert_eq!(run.status, Some(1), "{}", run.drawn);
    let counted = counters(&run.drawn);
    assert!(!counted.is_empty(), "no bar was drawn: {:?}", run.drawn);
    // Drawn once the walk beside the run had counted the 200 files it waits for; never
    // more done than counted, nor more counted than there are.
    assert!(
        (counted.iter()).all(|&(done, of)| done <= of && (200..=FILES).contains(&of)),
        "{counted:?}"
    );
    // The report is the one written with no terminal at all: the bar is not in it.
    assert_eq!(run.report, off_terminal(dir.path()));
    assert!(counters(&String::from_utf8_lossy(&run.report)).is_empty());
}

#[test]
fn no_progress_draws_no_bar() {
    let dir = corpus();
    let run = on_terminal(dir.path(), &["--no-progress"]);
    assert_eq!(run.status, Some(1), "{}", run.drawn);
    assert!(counters(&run.drawn).is_empty(), "{:?}", run.drawn);
    assert_eq!(run.report, off_terminal(dir.path()));
}
