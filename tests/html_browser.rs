//! `--format html` in a real browser: headless Chromium opens the report of `samples/`
//! and of a hostile capture, and the DOM it renders (after the page's script ran) is
//! checked: the findings are all there, rule links and the matrix are, the page's own
//! script ran, and nothing from the capture did. Without Chromium the test says why and
//! passes (`.ci/run` installs it where apt can).

use std::path::{Path, PathBuf};
use std::process::Command as Process;

use assert_cmd::Command;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A Chromium to drive: `$A2ALINT_CHROMIUM`, or the first on the usual paths.
fn chromium() -> Result<PathBuf, String> {
    if let Some(path) = std::env::var_os("A2ALINT_CHROMIUM") {
        return Ok(path.into());
    }
    let names = [
        "chromium",
        "chromium-headless-shell",
        "chromium-browser",
        "google-chrome",
    ];
    let dirs = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .unwrap_or_default();
    for name in names {
        for dir in dirs.iter().chain([&PathBuf::from("/usr/bin")]) {
            let candidate = dir.join(name);
            if candidate.is_file() {
                return Ok(candidate);
            }
        }
    }
    Err(format!(
        "no Chromium found (tried {} on PATH and /usr/bin; set A2ALINT_CHROMIUM, or \
         `apt-get install chromium`)",
        names.join(", ")
    ))
}

/// The report of `paths` written into `dir`, and how many findings the JSON format has.
fn report(dir: &Path, name: &str, paths: &[&str]) -> (PathBuf, usize) {
    let file = dir.join(name);
    Command::cargo_bin("a2alint")
        .unwrap()
        .current_dir(root())
        .args(["check", "--no-config", "--format", "html", "-q", "-o"])
        .arg(&file)
        .args(paths)
        .assert()
        .code(1);
    let json = Command::cargo_bin("a2alint")
        .unwrap()
        .current_dir(root())
        .args(["check", "--no-config", "--format", "json", "-q"])
        .args(paths)
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    (file, json["diagnostics"].as_array().unwrap().len())
}

/// The DOM Chromium renders for `file`, once its scripts have run.
fn rendered_dom(chromium: &Path, file: &Path, profile: &Path) -> Result<String, String> {
    let output = Process::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--no-first-run",
            "--virtual-time-budget=5000",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg("--dump-dom")
        .arg(format!("file://{}", file.display()))
        .output()
        .map_err(|e| format!("cannot run {}: {e}", chromium.display()))?;
    let dom = String::from_utf8_lossy(&output.stdout).into_owned();
    if !output.status.success() || !dom.contains("</html>") {
        return Err(format!(
            "{} failed ({}): {}",
            chromium.display(),
            output.status,
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    Ok(dom)
}

/// The content of the document's `<title>`.
fn title(dom: &str) -> &str {
    let start = dom.find("<title>").unwrap() + "<title>".len();
    &dom[start..start + dom[start..].find("</title>").unwrap()]
}

#[test]
fn chromium_renders_the_reports_and_runs_no_capture_script() {
    let chromium = match chromium() {
        Ok(path) => path,
        Err(reason) => {
            eprintln!("skipping the browser test: {reason}");
            return;
        }
    };
    let dir = tempfile::tempdir().unwrap();
    let profile = dir.path().join("profile");

    // The samples: every finding rendered, rule links, the matrix, the script ran.
    let (samples, count) = report(dir.path(), "samples.html", &["samples"]);
    let dom = match rendered_dom(&chromium, &samples, &profile) {
        Ok(dom) => dom,
        Err(reason) => {
            eprintln!("skipping the browser test: {reason}");
            return;
        }
    };
    assert_eq!(dom.matches("<article class=\"finding ").count(), count);
    assert!(count > 100, "the samples have their findings: {count}");
    assert!(
        dom.contains(
            "<a class=\"rule\" href=\"#rule-content-length-mismatch\">content-length-mismatch</a>"
        ),
        "a finding's rule link"
    );
    assert!(
        dom.contains("id=\"rule-content-length-mismatch\""),
        "its target"
    );
    let matrix = &dom[dom.find("<section id=\"matrix\">").expect("the matrix")..];
    assert!(matrix.contains("<th>JSON-RPC</th><th>HTTP+JSON</th><th>gRPC</th>"));
    assert!(matrix.contains("<td>TaskNotFoundError</td>"));
    assert!(
        dom.contains("<details class=\"compare\""),
        "a side-by-side view"
    );
    // The page's own script ran under its policy: it shows the filters and fills the
    // rule list from the findings.
    assert!(
        dom.contains("<nav id=\"filters\">"),
        "the filters are still hidden"
    );
    assert!(dom.contains("<option value=\"content-length-mismatch\">"));

    // The hostile capture: its markup is text, none of its scripts or handlers ran.
    let (hostile, count) = report(dir.path(), "hostile.html", &["tests/fixtures-html"]);
    let dom = rendered_dom(&chromium, &hostile, &profile).unwrap();
    assert_eq!(
        title(&dom),
        "a2alint report",
        "a capture script changed the title"
    );
    // The payloads would set `data-pwned` on the body: it still has no attribute.
    let body = &dom[dom.find("<body").unwrap()..];
    assert!(
        body.starts_with("<body>"),
        "a capture handler ran: {}",
        &body[..80]
    );
    assert!(
        !dom.contains("<img"),
        "an element from the capture was created"
    );
    assert_eq!(dom.matches("<script").count(), 1, "only the page's script");
    assert_eq!(dom.matches("<article class=\"finding ").count(), count);
    assert!(dom.contains("&lt;script&gt;document.title='pwned'&lt;/script&gt;"));
    assert!(dom.contains("&lt;/pre&gt;"));
    assert!(!dom.contains("hostile-secret-value"), "a credential shown");
}
