//! SARIF output, what it says of each rule (`tool.driver.rules`): written in the
//! document's opening, before any result, from the rule registry and the rule docs.

use serde::Serialize;

use crate::finding::Severity;
use crate::output::report::sarif::{REPOSITORY, Text, level};
use crate::rules::{Group, RuleId};

/// GitHub shows at most 1024 characters of a rule's full description (§3.2).
const MAX_DESCRIPTION: usize = 1024;

pub(super) fn descriptor(rule: RuleId) -> Descriptor {
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
#[serde(rename_all = "camelCase")]
pub(super) struct Descriptor {
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
