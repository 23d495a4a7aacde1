//! `a2alint merge` of json and gitlab reports: files and findings of every shard in the
//! run's file order, summary counts added up.

use serde_json::{Map, Value};

use super::{MergeError, Report, file_order, malformed};

/// Merges `--format json` documents (schema in `report/json.rs`).
pub fn merge_json(reports: &[Report]) -> Result<String, MergeError> {
    let mut head: Option<Map<String, Value>> = None;
    let mut files: Vec<Value> = Vec::new();
    let mut diagnostics: Vec<Value> = Vec::new();
    let mut summary: Map<String, Value> = Map::new();
    for report in reports {
        let document: Value =
            serde_json::from_str(&report.text).map_err(|e| malformed(report, e))?;
        let Value::Object(mut document) = document else {
            return Err(malformed(report, "not a JSON object"));
        };
        let mut take_array = |name: &str| match document.remove(name) {
            Some(Value::Array(items)) => Ok(items),
            _ => Err(malformed(report, format!("no `{name}` array"))),
        };
        files.extend(take_array("files")?);
        diagnostics.extend(take_array("diagnostics")?);
        if let Some(Value::Object(counts)) = document.remove("summary") {
            for (name, count) in counts {
                let sum = summary.get(&name).and_then(Value::as_u64).unwrap_or(0)
                    + count.as_u64().unwrap_or(0);
                summary.insert(name, Value::from(sum));
            }
        }
        head.get_or_insert(document);
    }
    // Stable sorts: each shard's findings keep their order within a file.
    files.sort_by(|a, b| file_order(path_of(a), path_of(b)));
    diagnostics.sort_by(|a, b| file_order(path_of(a), path_of(b)));
    let mut document = head.unwrap_or_default();
    document.insert("files".into(), Value::Array(files));
    document.insert("diagnostics".into(), Value::Array(diagnostics));
    document.insert("summary".into(), Value::Object(summary));
    pretty(&Value::Object(document))
}

/// Merges GitLab code quality reports: arrays of issues, each with `location.path`.
pub fn merge_gitlab(reports: &[Report]) -> Result<String, MergeError> {
    let mut issues: Vec<Value> = Vec::new();
    for report in reports {
        match serde_json::from_str(&report.text).map_err(|e| malformed(report, e))? {
            Value::Array(items) => issues.extend(items),
            _ => return Err(malformed(report, "not a JSON array")),
        }
    }
    issues.sort_by(|a, b| {
        let path = |v: &Value| {
            v.pointer("/location/path")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string()
        };
        file_order(&path(a), &path(b))
    });
    pretty(&Value::Array(issues))
}

fn path_of(value: &Value) -> &str {
    value.get("path").and_then(Value::as_str).unwrap_or("")
}

fn pretty(value: &Value) -> Result<String, MergeError> {
    let mut text = serde_json::to_string_pretty(value).unwrap_or_default();
    text.push('\n');
    Ok(text)
}
