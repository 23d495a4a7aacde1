//! `--format html`: a snapshot of the page for a small fixture, and a hostile capture
//! (markup, quotes and `</pre>` in headers, bodies, error messages, ErrorInfo and file
//! names) whose report must hold no markup of its own and no credential.

mod common;

use std::path::Path;

use a2alint::output::report::Context;
use a2alint::output::report::Format;
use assert_cmd::Command;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The HTML report of `paths` (relative to the crate root), written with `-o`.
fn report(paths: &[&str]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("report.html");
    Command::cargo_bin("a2alint")
        .unwrap()
        .current_dir(root())
        .args(["check", "--no-config", "--format", "html", "-o"])
        .arg(&file)
        .args(paths)
        .assert()
        .code(1);
    std::fs::read_to_string(&file).unwrap()
}

/// The elements and attributes a2alint writes; anything else came from a capture.
const TAGS: &[&str] = &[
    "!DOCTYPE",
    "html",
    "head",
    "meta",
    "title",
    "style",
    "body",
    "header",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "nav",
    "label",
    "select",
    "option",
    "input",
    "span",
    "main",
    "section",
    "details",
    "summary",
    "article",
    "a",
    "p",
    "code",
    "br",
    "figure",
    "figcaption",
    "pre",
    "mark",
    "div",
    "ul",
    "li",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
    "b",
    "i",
    "footer",
    "script",
];

/// Every tag of `html` with its attribute names, read as a browser's tokenizer would
/// (outside `<style>` and `<script>`, whose content is a2alint's own).
fn tags(html: &str) -> Vec<(String, Vec<String>)> {
    let mut found = Vec::new();
    let mut rest = html;
    while let Some(open) = rest.find('<') {
        rest = &rest[open + 1..];
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '!' || *c == '/')
            .collect();
        let end = tag_end(rest);
        let inside = &rest[name.len()..end];
        found.push((name.trim_start_matches('/').to_string(), attributes(inside)));
        rest = &rest[end..];
        for raw in ["style", "script"] {
            if name == raw {
                let close = rest.find(&format!("</{raw}>")).unwrap();
                rest = &rest[close..];
            }
        }
    }
    found
}

/// Where a tag ends: the first `>` outside a quoted attribute value.
fn tag_end(s: &str) -> usize {
    let mut quote = None;
    for (i, c) in s.char_indices() {
        match (quote, c) {
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, '>') => return i,
            _ => {}
        }
    }
    s.len()
}

fn attributes(inside: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut quote = None;
    let mut word = String::new();
    for c in inside.chars() {
        match (quote, c) {
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '=') => names.push(std::mem::take(&mut word)),
            (None, c) if c.is_whitespace() || c == '/' => {
                if !word.is_empty() {
                    names.push(std::mem::take(&mut word));
                }
            }
            (None, c) => word.push(c.to_ascii_lowercase()),
        }
    }
    if !word.is_empty() {
        names.push(word);
    }
    names
}

fn assert_no_foreign_markup(html: &str) {
    let tags = tags(html);
    for (name, attributes) in &tags {
        assert!(
            TAGS.contains(&name.as_str()),
            "a tag that a2alint does not write: <{name} {attributes:?}>"
        );
        for attribute in attributes {
            assert!(
                !attribute.starts_with("on"),
                "an event handler attribute on <{name}>: {attribute}"
            );
        }
    }
    let scripts = tags.iter().filter(|(n, _)| n == "script").count();
    assert_eq!(scripts, 2, "one <script> and its </script>");
}

#[test]
fn hostile_capture_renders_as_text() {
    let html = report(&["tests/fixtures-html/hostile.http"]);
    assert_no_foreign_markup(&html);
    // The payloads are there, as text.
    assert!(html.contains("&lt;script&gt;document.title=&#39;pwned&#39;&lt;/script&gt;"));
    assert!(html.contains("&quot;&gt;&lt;img src=x onerror="));
    assert!(html.contains("&lt;/pre&gt;"));
    // The credential is masked, as in every other format.
    assert!(!html.contains("hostile-secret-value"), "credential shown");
    let header = &html[html.find("Authorization: ").unwrap()..];
    let header = &header[..header.find('\n').unwrap()];
    assert!(header.contains(&"*".repeat(30)), "not masked: {header}");
    // The finding quoting the hostile ErrorInfo domain is escaped too.
    assert!(html.contains("ErrorInfo.domain is &quot;&lt;/pre&gt;&lt;script&gt;"));
}

#[test]
fn hostile_file_names_render_as_text() {
    let dir = tempfile::tempdir().unwrap();
    let name = "\"><img src=x onerror=alert(1)>.http";
    std::fs::copy(
        root().join("tests/fixtures-html/small.http"),
        dir.path().join(name),
    )
    .unwrap();
    let file = dir.path().join("report.html");
    Command::cargo_bin("a2alint")
        .unwrap()
        .current_dir(dir.path())
        .args(["check", "--no-config", "--format", "html", "-o"])
        .arg(&file)
        .arg(name)
        .assert()
        .code(1);
    let html = std::fs::read_to_string(&file).unwrap();
    assert_no_foreign_markup(&html);
    assert!(html.contains("&quot;&gt;&lt;img src=x onerror=alert(1)&gt;.http"));
}

#[test]
fn report_is_self_contained() {
    let html = report(&["tests/fixtures-html/small.http"]);
    for external in ["src=", "href=\"http", "href=\"//", "@import", "url("] {
        assert!(!html.contains(external), "loads something: {external}");
    }
    assert!(html.contains("Content-Security-Policy"));
    assert!(html.contains("script-src &#39;sha256-"));
}

#[test]
fn the_same_error_is_shown_side_by_side() {
    let html = report(&["tests/fixtures-html/small.http"]);
    let compare = &html[html.find("id=\"compare\"").unwrap()..];
    let compare = &compare[..compare.find("</section>").unwrap()];
    assert!(
        compare.contains("GetTask · TaskNotFoundError <span class=\"same\">(JSON-RPC, HTTP+JSON)"),
        "{compare}"
    );
    for cell in [
        "HTTP 200",
        "HTTP 404",
        "-32001",
        "NOT_FOUND",
        "TASK_NOT_FOUND",
    ] {
        assert!(compare.contains(cell), "{cell} missing: {compare}");
    }
}

#[test]
fn findings_collapse_past_the_threshold() {
    let linted = common::lint_file(&root().join("tests/fixtures-html/small.http"));
    let render = |count: usize| {
        let mut report = common::lint_file(&root().join("tests/fixtures-html/small.http"));
        report.diagnostics = (0..count)
            .map(|i| linted.diagnostics[i % linted.diagnostics.len()].clone())
            .collect();
        let mut out = Vec::new();
        a2alint::output::report::write(Format::Html, &[report], &Context::default(), &mut out)
            .unwrap();
        String::from_utf8(out).unwrap()
    };
    let few = render(3);
    assert!(few.contains("<details class=\"findings\" open><summary>3 findings</summary>"));
    let many = render(25);
    assert!(
        many.contains("<details class=\"findings\"><summary>25 findings (collapsed)</summary>")
    );
    assert_eq!(many.matches("<article class=\"finding ").count(), 25);
    // Without the captures (as from standard input), the page says so instead of exchanges.
    assert!(many.contains("could not be read again"));
}

#[test]
fn snapshot_of_a_small_report() {
    let html = report(&["tests/fixtures-html/small.http"]);
    // Up to the rule reference, which is the rules' own documentation.
    let main = &html[html.find("<main>").unwrap()..html.find("<section id=\"rules\">").unwrap()];
    insta::assert_snapshot!(main);
}

#[test]
fn credentials_are_masked_in_findings_and_explorer() {
    let html = report(&["tests/data/redact"]);
    for secret in [
        "sk-test-fake-key-0001",
        "fake-session-cookie",
        "push-token-fake-123",
        "eyJhbGciOiJub25lIn0",
        "fake-set-cookie-value",
    ] {
        assert!(!html.contains(secret), "{secret} shown");
    }
    // The HAR file's exchanges are in the explorer, its credential headers masked.
    assert!(html.contains("secrets.har"));
    assert!(html.contains("<h5>Request</h5>"));
}
