//! `a2alint merge`: the reports of a sharded run (`--shard K/N`) made into the report of
//! the whole run. A report stage of its own, after the shards' runs: it reads what they
//! wrote (json, sarif, junit or gitlab, told apart by their content), never the captures.

mod json;
mod junit;
mod sarif;

use std::cmp::Ordering;
use std::path::Path;

/// What went wrong while merging, naming the report at fault.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    #[error("{0}: not an a2alint json, sarif, junit or gitlab report")]
    Unknown(String),
    #[error(
        "{path}: a {found} report, but {first} was a {expected} report: merge reports of one format"
    )]
    Mixed {
        path: String,
        found: &'static str,
        first: String,
        expected: &'static str,
    },
    #[error("{path}: {reason}")]
    Malformed { path: String, reason: String },
}

/// A report as read, with the name it was given by.
pub struct Report {
    pub path: String,
    pub text: String,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Json,
    Sarif,
    Junit,
    Gitlab,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Json => "json",
            Kind::Sarif => "sarif",
            Kind::Junit => "junit",
            Kind::Gitlab => "gitlab",
        }
    }

    /// Tells the formats apart by their first bytes and top-level shape.
    fn of(text: &str) -> Option<Kind> {
        let start = text.trim_start();
        if start.starts_with("<?xml") || start.starts_with("<testsuites") {
            return Some(Kind::Junit);
        }
        if start.starts_with('[') {
            return Some(Kind::Gitlab);
        }
        let value: serde_json::Value = serde_json::from_str(start).ok()?;
        if value.get("runs").is_some() {
            Some(Kind::Sarif)
        } else if value.get("diagnostics").is_some() {
            Some(Kind::Json)
        } else {
            None
        }
    }
}

/// Merges the reports, all of one format, into one document of that format.
pub fn merge(reports: &[Report]) -> Result<String, MergeError> {
    let mut kind: Option<(Kind, &str)> = None;
    for report in reports {
        let found =
            Kind::of(&report.text).ok_or_else(|| MergeError::Unknown(report.path.clone()))?;
        match kind {
            None => kind = Some((found, &report.path)),
            Some((expected, first)) if expected != found => {
                return Err(MergeError::Mixed {
                    path: report.path.clone(),
                    found: found.name(),
                    first: first.to_string(),
                    expected: expected.name(),
                });
            }
            Some(_) => {}
        }
    }
    let Some((kind, _)) = kind else {
        return Ok(String::new());
    };
    match kind {
        Kind::Json => json::merge_json(reports),
        Kind::Gitlab => json::merge_gitlab(reports),
        Kind::Sarif => sarif::merge(reports),
        Kind::Junit => junit::merge(reports),
    }
}

/// The order a run reports files in: the walk's, directory by directory and by name
/// within one, which is comparing paths component by component.
fn file_order(a: &str, b: &str) -> Ordering {
    Path::new(a).components().cmp(Path::new(b).components())
}

fn malformed(report: &Report, reason: impl std::fmt::Display) -> MergeError {
    MergeError::Malformed {
        path: report.path.clone(),
        reason: reason.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_come_in_walk_order() {
        let mut paths = vec!["b.http", "a/z.http", "a.http", "a/b/c.http", "A.http"];
        paths.sort_by(|a, b| file_order(a, b));
        assert_eq!(
            paths,
            ["A.http", "a/b/c.http", "a/z.http", "a.http", "b.http"]
        );
    }

    #[test]
    fn formats_are_told_apart() {
        assert_eq!(
            Kind::of("<?xml version=\"1.0\"?>\n<testsuites>"),
            Some(Kind::Junit)
        );
        assert_eq!(Kind::of("[\n]"), Some(Kind::Gitlab));
        assert_eq!(Kind::of(r#"{"runs": []}"#), Some(Kind::Sarif));
        assert_eq!(Kind::of(r#"{"diagnostics": []}"#), Some(Kind::Json));
        assert_eq!(Kind::of("hello"), None);
    }
}
