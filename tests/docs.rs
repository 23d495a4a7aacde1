//! Rule docs stay true: every rule has one, with the fixed headings, whose Example fires
//! the rule and whose "Use instead" does not; no doc belongs to no rule.

use std::path::Path;

use a2alint::rules::RuleId;
use a2alint::{Options, lint_source};

const HEADINGS: &[&str] = &[
    "## What it checks",
    "## Why it matters",
    "## Example",
    "## Use instead",
    "## References",
];

/// The capture a section shows: its first ```http block, or a ```pcap block, whose
/// fence line names the capture file it shows the view of (`pcap tests/fixtures/...`):
/// gRPC comes only off the wire, so a gRPC rule's examples are pcap fixtures.
enum Shown<'a> {
    Text(&'a str),
    File(&'a str),
}

fn block_after<'a>(doc: &'a str, heading: &str) -> Shown<'a> {
    let section = doc
        .split_once(heading)
        .map(|(_, rest)| rest)
        .unwrap_or_else(|| panic!("no {heading}"));
    let http = section.find("```http\n");
    let pcap = section.find("```pcap ");
    if let Some(at) = pcap.filter(|&p| http.is_none_or(|h| p < h)) {
        let line = &section[at + "```pcap ".len()..];
        return Shown::File(line.split('\n').next().unwrap().trim());
    }
    let start = http.expect("an ```http or ```pcap block") + "```http\n".len();
    let len = section[start..].find("\n```").expect("a closing fence");
    Shown::Text(&section[start..start + len + 1])
}

fn fires(rule: RuleId, shown: Shown<'_>) -> bool {
    let (name, bytes) = match shown {
        Shown::Text(capture) => ("doc.http", capture.as_bytes().to_vec()),
        Shown::File(path) => {
            let file = Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
            let bytes = std::fs::read(&file).unwrap_or_else(|e| panic!("{path}: {e}"));
            (path, bytes)
        }
    };
    let mut report = lint_source(name, &bytes, &Options::default());
    a2alint::lint::check_linted_run(std::slice::from_mut(&mut report));
    report.diagnostics.iter().any(|d| d.rule == rule)
}

#[test]
fn every_doc_has_the_headings_and_honest_examples() {
    for &rule in RuleId::ALL {
        let doc = rule.doc();
        assert!(
            doc.starts_with(&format!("# {}\n", rule.slug())),
            "{rule}: title"
        );
        for heading in HEADINGS {
            assert!(doc.contains(heading), "{rule}: missing {heading}");
        }
        assert!(!rule.summary().is_empty(), "{rule}: empty summary");
        // The line under the title says what the registry says: group, then the default
        // severity first (prose after it may say where it differs).
        let header = doc.lines().nth(2).unwrap_or("");
        let expected = format!(
            "Group: {} · Default severity: {}",
            rule.group().as_str(),
            rule.default_severity().as_str()
        );
        assert!(
            header == expected
                || header.starts_with(&format!("{expected} "))
                || header.starts_with(&format!("{expected},")),
            "{rule}: the doc says `{header}`, the registry `{expected}`"
        );
        assert!(
            fires(rule, block_after(doc, "## Example")),
            "{rule}: Example does not fire"
        );
        assert!(
            !fires(rule, block_after(doc, "## Use instead")),
            "{rule}: Use instead fires"
        );
    }
}

#[test]
fn every_doc_belongs_to_a_rule() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules");
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if let Some(slug) = name.strip_suffix(".md").filter(|_| name != "README.md") {
            assert!(
                RuleId::from_slug(slug).is_some(),
                "rules/{name} documents no rule"
            );
        }
    }
}

#[test]
fn readme_rule_table_lists_every_rule() {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    for &rule in RuleId::ALL {
        // The row says what the doc's summary says, so the two cannot drift apart.
        let row = format!(
            "| [`{0}`](rules/{0}.md) | {1} | {2} | {3} |",
            rule.slug(),
            rule.group().as_str(),
            rule.default_severity().as_str(),
            rule.summary()
        );
        assert!(readme.contains(&row), "README rule table lacks {row}");
    }
}
