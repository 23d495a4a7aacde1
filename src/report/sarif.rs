//! `--format sarif`: SARIF 2.1.0 as GitHub code scanning reads it.
//!
//! Hand-written serde structs holding only the fields we promise, in a fixed order (as ruff
//! and zizmor do; linter-conventions §3.5). What GitHub reads and why each field is here:
//! linter-conventions §3.2; the document validates against the OASIS schema in the tests.

use std::collections::BTreeMap;
use std::io::{self, Write};

use serde::Serialize;

use crate::finding::Severity;
use crate::lint::FileReport;
use crate::repo_root::{self, Located, encode_uri, file_uri};
use crate::report::Context;
use crate::report::gitlab::{identity, occurrences};
use crate::report::sarif_location::{ArtifactLocation, SarifLocation, location};
use crate::resolve::Diagnostic;
use crate::rules::{Group, RuleId};

const SCHEMA: &str =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";
/// GitHub shows at most 1024 characters of a rule's full description (§3.2).
const MAX_DESCRIPTION: usize = 1024;
const REPOSITORY: &str = env!("CARGO_PKG_REPOSITORY");
/// The base id of repository-relative artifact URIs, as GitHub's docs name it.
const SRCROOT: &str = "%SRCROOT%";

pub fn write(reports: &[FileReport], context: &Context, out: &mut dyn Write) -> io::Result<()> {
    let mut results = Vec::new();
    for report in reports {
        let artifact = artifact_location(&report.path, context);
        let occurrences = occurrences(&report.diagnostics);
        for (d, n) in report.diagnostics.iter().zip(occurrences) {
            results.push(result(d, n, &artifact));
        }
    }
    let log = Log {
        schema: SCHEMA,
        version: "2.1.0",
        // Exactly one run: GitHub rejects several runs with one category (§2 item 7).
        runs: [Run {
            tool: Tool {
                driver: Driver {
                    name: "a2alint",
                    version: env!("CARGO_PKG_VERSION"),
                    semantic_version: env!("CARGO_PKG_VERSION"),
                    information_uri: (!REPOSITORY.is_empty()).then_some(REPOSITORY),
                    rules: RuleId::ALL.iter().map(|&rule| descriptor(rule)).collect(),
                },
            },
            // GitHub takes the text before the last `/` as the category; like upload-sarif's
            // `category` input, the trailing slash is added when missing.
            automation_details: context.sarif_category.as_ref().map(|c| AutomationDetails {
                id: if c.ends_with('/') {
                    c.clone()
                } else {
                    format!("{c}/")
                },
            }),
            original_uri_base_ids: original_uri_base_ids(context),
            // Required by SARIF §3.14.27 for text results; our columns count scalar values.
            column_kind: "unicodeCodePoints",
            results,
        }],
    };
    serde_json::to_writer_pretty(&mut *out, &log)?;
    writeln!(out)
}

/// A repository-relative URI with `%SRCROOT%` (GitHub relativises against the checkout;
/// absolute paths break relocation, §2 item 6); a `file://` URI for files outside the
/// repository (absolute then, whatever directory a2alint ran in).
fn artifact_location(path: &str, context: &Context) -> ArtifactLocation {
    let located = match &context.repo_root {
        Some(root) => repo_root::locate(path, &context.base_dir, root),
        None => Located {
            path: repo_root::slashed(path),
            inside: false,
        },
    };
    let (uri, uri_base_id) = if located.inside {
        (encode_uri(&located.path), Some(SRCROOT))
    } else if is_absolute(&located.path) {
        (file_uri(&located.path, false), None)
    } else {
        // Relative, with nothing to place it against: as given, from the root.
        (encode_uri(&located.path), Some(SRCROOT))
    };
    ArtifactLocation { uri, uri_base_id }
}

/// `/...`, or `C:/...` (absolute on Windows, though not to `Path` elsewhere).
fn is_absolute(slashed: &str) -> bool {
    let bytes = slashed.as_bytes();
    bytes.first() == Some(&b'/')
        || (bytes.len() >= 3
            && bytes[0].is_ascii_alphabetic()
            && bytes[1] == b':'
            && bytes[2] == b'/')
}

/// `%SRCROOT%` as the repository root's `file://` URI (SARIF §3.14.14), for viewers that
/// open results locally; GitHub's upload ignores it (github/codeql-action#2215), which is
/// why the artifact URIs themselves are already repository-relative.
fn original_uri_base_ids(context: &Context) -> Option<BTreeMap<&'static str, BaseUri>> {
    let root = context.repo_root.as_ref().filter(|r| r.is_absolute())?;
    let uri = file_uri(&root.to_string_lossy(), true);
    Some(BTreeMap::from([(SRCROOT, BaseUri { uri })]))
}

fn result(d: &Diagnostic, occurrence: usize, artifact: &ArtifactLocation) -> SarifResult {
    let index = RuleId::ALL
        .iter()
        .position(|&r| r == d.rule)
        .unwrap_or_default();
    SarifResult {
        rule_id: d.rule.slug(),
        rule_index: index,
        level: level(d.severity),
        message: Text {
            text: match &d.help {
                Some(help) => format!("{}\nhelp: {help}", d.message),
                None => d.message.clone(),
            },
        },
        // GitHub uses only the first location (§3.2).
        locations: [location(&d.primary, None, artifact)],
        related_locations: d
            .related
            .iter()
            .enumerate()
            .map(|(i, l)| location(l, Some(i + 1), artifact))
            .collect(),
        // Our own logical-identity hash, not GitHub's line-text hash, so same-rule findings
        // on one line of a one-line HAR file stay apart (§3.2, takeaway 6).
        partial_fingerprints: PartialFingerprints {
            primary_location_line_hash: identity(d, occurrence),
        },
        // SARIF's three levels lose nothing today, but keep ours as zizmor does (§2 item 14).
        properties: ResultProperties {
            severity: d.severity.as_str(),
            exchange: d.exchange,
        },
    }
}

fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

fn descriptor(rule: RuleId) -> Descriptor {
    let slug = rule.slug();
    let group = rule.group();
    // A security group's name is itself the `security` tag GitHub filters on.
    let tags = vec![group.as_str(), "a2a"];
    let doc = rule.doc();
    Descriptor {
        id: slug,
        name: pascal_case(slug),
        short_description: Text {
            text: rule.summary().to_string(),
        },
        full_description: Text {
            text: what_it_checks(doc),
        },
        help: Help {
            text: doc,
            markdown: doc,
        },
        help_uri: (!REPOSITORY.is_empty())
            .then(|| format!("{REPOSITORY}/blob/main/rules/{slug}.md")),
        default_configuration: Configuration {
            level: level(rule.default_severity()),
        },
        properties: RuleProperties {
            tags,
            // Capture rules check framing bytes and cannot misfire; the others interpret
            // A2A semantics, where a capture can be legitimately unusual.
            precision: if group == Group::Capture {
                "very-high"
            } else {
                "high"
            },
            problem_severity: match rule.default_severity() {
                Severity::Error => "error",
                Severity::Warning => "warning",
                Severity::Info => "recommendation",
            },
            security_severity: security_severity(rule),
        },
    }
}

/// GitHub's scale (§3.2): ≥9 critical, 7–8.9 high, 4–6.9 medium, <4 low. Security rules
/// are recognised by their group's name, so a future `Group::Security` becomes a GitHub
/// security rule without touching this file.
fn security_severity(rule: RuleId) -> Option<&'static str> {
    (rule.group().as_str() == "security").then_some(match rule.default_severity() {
        Severity::Error => "8.0",
        Severity::Warning => "5.0",
        Severity::Info => "2.0",
    })
}

/// `body-not-json` → `BodyNotJson` (slugs are ASCII kebab-case).
fn pascal_case(slug: &str) -> String {
    slug.split('-')
        .filter(|word| !word.is_empty())
        .map(|word| word[..1].to_ascii_uppercase() + &word[1..])
        .collect()
}

/// The paragraphs of the doc's "What it checks" section, each unwrapped to one line, as
/// many as fit GitHub's 1024-character limit (at least the first, cut if it must be).
fn what_it_checks(doc: &str) -> String {
    let section = doc
        .split_once("## What it checks")
        .map_or(doc, |(_, rest)| rest);
    let section = section.split("\n## ").next().unwrap_or_default();
    let mut text = String::new();
    for paragraph in section.split("\n\n") {
        let paragraph = paragraph.split_whitespace().collect::<Vec<_>>().join(" ");
        if paragraph.is_empty() {
            continue;
        }
        let longer = if text.is_empty() {
            paragraph
        } else {
            format!("{text}\n\n{paragraph}")
        };
        if longer.chars().count() > MAX_DESCRIPTION {
            if text.is_empty() {
                text = longer
                    .chars()
                    .take(MAX_DESCRIPTION - 1)
                    .chain(['…'])
                    .collect();
            }
            break;
        }
        text = longer;
    }
    text
}

#[derive(Serialize)]
struct Log {
    #[serde(rename = "$schema")]
    schema: &'static str,
    version: &'static str,
    runs: [Run; 1],
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Run {
    tool: Tool,
    #[serde(skip_serializing_if = "Option::is_none")]
    automation_details: Option<AutomationDetails>,
    #[serde(skip_serializing_if = "Option::is_none")]
    original_uri_base_ids: Option<BTreeMap<&'static str, BaseUri>>,
    column_kind: &'static str,
    results: Vec<SarifResult>,
}

#[derive(Serialize)]
struct Tool {
    driver: Driver,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Driver {
    name: &'static str,
    version: &'static str,
    semantic_version: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    information_uri: Option<&'static str>,
    rules: Vec<Descriptor>,
}

#[derive(Serialize)]
struct AutomationDetails {
    id: String,
}

/// An `artifactLocation` for a base id (§3.4): an absolute URI, ending in `/`.
#[derive(Serialize)]
struct BaseUri {
    uri: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Descriptor {
    id: &'static str,
    name: String,
    short_description: Text,
    full_description: Text,
    help: Help,
    #[serde(skip_serializing_if = "Option::is_none")]
    help_uri: Option<String>,
    default_configuration: Configuration,
    properties: RuleProperties,
}

#[derive(Serialize)]
pub(super) struct Text {
    pub(super) text: String,
}

#[derive(Serialize)]
struct Help {
    text: &'static str,
    markdown: &'static str,
}

#[derive(Serialize)]
struct Configuration {
    level: &'static str,
}

#[derive(Serialize)]
struct RuleProperties {
    tags: Vec<&'static str>,
    precision: &'static str,
    #[serde(rename = "problem.severity")]
    problem_severity: &'static str,
    #[serde(rename = "security-severity", skip_serializing_if = "Option::is_none")]
    security_severity: Option<&'static str>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifResult {
    rule_id: &'static str,
    rule_index: usize,
    level: &'static str,
    message: Text,
    locations: [SarifLocation; 1],
    #[serde(skip_serializing_if = "Vec::is_empty")]
    related_locations: Vec<SarifLocation>,
    partial_fingerprints: PartialFingerprints,
    properties: ResultProperties,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PartialFingerprints {
    primary_location_line_hash: String,
}

#[derive(Serialize)]
struct ResultProperties {
    #[serde(rename = "a2alint/severity")]
    severity: &'static str,
    #[serde(rename = "a2alint/exchange", skip_serializing_if = "Option::is_none")]
    exchange: Option<usize>,
}
