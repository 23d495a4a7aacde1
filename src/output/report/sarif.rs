//! `--format sarif`: SARIF 2.1.0 as GitHub code scanning reads it.
//!
//! Hand-written serde structs holding only the fields we promise, in a fixed order (as ruff
//! and zizmor do; linter-conventions §3.5). What GitHub reads and why each field is here:
//! linter-conventions §3.2; the document validates against the OASIS schema in the tests.
//!
//! Results are in file order, then by position, written as files complete; the results
//! of the run-level rules (`binding-divergence`, `card-contradicted`, and
//! `unsupported-version-accepted` against a card read in another file) follow every
//! file's, again in file order.

use std::collections::BTreeMap;
use std::io::{self, Write};

use serde::Serialize;

use crate::finding::Severity;
use crate::input::repo_root::{self, Located, encode_uri, file_uri};
use crate::input::walk::Input;
use crate::output::FileReport;
use crate::output::report::gitlab::{Occurrences, identity};
use crate::output::report::sarif_location::{ArtifactLocation, SarifLocation, location};
use crate::output::report::sarif_rules::{Descriptor, descriptor};
use crate::output::report::stream::{Elements, cut};
use crate::output::report::{Context, Reporter, Summary};
use crate::output::resolve::Diagnostic;
use crate::rules::RuleId;

const SCHEMA: &str =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";
pub(super) const REPOSITORY: &str = env!("CARGO_PKG_REPOSITORY");
/// The base id of repository-relative artifact URIs, as GitHub's docs name it.
const SRCROOT: &str = "%SRCROOT%";

/// Results are written as they come between the opening (the tool and its rules) and
/// the closing of the one run; the findings of the run-level rules come after every
/// file's.
pub struct Sarif<'w> {
    context: &'w Context,
    out: &'w mut dyn Write,
    results: Elements,
    tail: String,
    occurrences: Occurrences,
}

impl<'w> Sarif<'w> {
    pub fn new(context: &'w Context, out: &'w mut dyn Write) -> io::Result<Self> {
        let cut = cut(&opening(context), Some("results"));
        out.write_all(cut.head.as_bytes())?;
        Ok(Sarif {
            context,
            out,
            results: Elements::new(&cut),
            tail: cut.tail,
            occurrences: Occurrences::default(),
        })
    }
}

impl Reporter for Sarif<'_> {
    fn file(&mut self, report: &FileReport, _source: Option<&Input>) -> io::Result<()> {
        let artifact = artifact_location(&report.path, self.context);
        let occurrences = self.occurrences.of(report);
        for (d, n) in report.diagnostics.iter().zip(occurrences) {
            self.results.push(&result(d, n, &artifact), self.out)?;
        }
        Ok(())
    }

    fn finish(self: Box<Self>, _summary: &Summary) -> io::Result<()> {
        self.results.close(self.out)?;
        self.out.write_all(self.tail.as_bytes())?;
        writeln!(self.out)
    }
}

/// The log with no result, pretty-printed, to be cut where the results go.
fn opening(context: &Context) -> String {
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
            results: Vec::new(),
        }],
    };
    serde_json::to_string_pretty(&log).expect("a log of plain values")
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

pub(super) fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
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
pub(super) struct Text {
    pub(super) text: String,
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
