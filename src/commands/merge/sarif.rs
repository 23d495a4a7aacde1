//! `a2alint merge` of SARIF logs: one run per tool and category (GitHub code scanning
//! rejects two runs with one category), results of every shard in the run's file order,
//! rules deduplicated and each result's `ruleIndex` pointed at the merged list.

use serde_json::{Map, Value};

use super::{MergeError, Report, file_order, malformed};

/// One merged run and the rule ids its `rules` array lists, in order.
struct MergedRun {
    key: (String, String),
    run: Map<String, Value>,
    rules: Vec<Value>,
    results: Vec<Value>,
}

pub fn merge(reports: &[Report]) -> Result<String, MergeError> {
    let mut head: Option<Map<String, Value>> = None;
    let mut runs: Vec<MergedRun> = Vec::new();
    for report in reports {
        let log: Value = serde_json::from_str(&report.text).map_err(|e| malformed(report, e))?;
        let Value::Object(mut log) = log else {
            return Err(malformed(report, "not a JSON object"));
        };
        let Some(Value::Array(shard_runs)) = log.remove("runs") else {
            return Err(malformed(report, "no `runs` array"));
        };
        head.get_or_insert(log);
        for run in shard_runs {
            let Value::Object(mut run) = run else {
                return Err(malformed(report, "a run that is not an object"));
            };
            let key = run_key(&run);
            let rules = match run
                .get_mut("tool")
                .and_then(|t| t.pointer_mut("/driver/rules"))
            {
                Some(Value::Array(rules)) => std::mem::take(rules),
                _ => Vec::new(),
            };
            let results = match run.remove("results") {
                Some(Value::Array(results)) => results,
                _ => Vec::new(),
            };
            let merged = match runs.iter_mut().position(|r| r.key == key) {
                Some(i) => &mut runs[i],
                None => {
                    runs.push(MergedRun {
                        key,
                        run,
                        rules: Vec::new(),
                        results: Vec::new(),
                    });
                    runs.last_mut().unwrap_or_else(|| unreachable!())
                }
            };
            // The shard's rules first, in its order: a first shard's indexes stay as they are.
            for rule in &rules {
                add_rule(rule.clone(), &mut merged.rules);
            }
            for mut result in results {
                reindex(&mut result, &rules, &mut merged.rules);
                merged.results.push(result);
            }
        }
    }
    let mut log = head.unwrap_or_default();
    let runs: Vec<Value> = runs.into_iter().map(finish).collect();
    log.insert("runs".into(), Value::Array(runs));
    let mut text = serde_json::to_string_pretty(&Value::Object(log)).unwrap_or_default();
    text.push('\n');
    Ok(text)
}

/// A run is one tool's, under one category (`automationDetails.id`).
fn run_key(run: &Map<String, Value>) -> (String, String) {
    let text = |value: Option<&Value>| value.and_then(Value::as_str).unwrap_or("").to_string();
    let name = run.get("tool").and_then(|t| t.pointer("/driver/name"));
    let category = run.get("automationDetails").and_then(|a| a.get("id"));
    (text(name), text(category))
}

/// Points `ruleIndex` at the rule's place in the merged list (adding the rule if new).
fn reindex(result: &mut Value, shard_rules: &[Value], merged: &mut Vec<Value>) {
    let Some(index) = result.get("ruleIndex").and_then(Value::as_u64) else {
        return;
    };
    let Some(rule) = shard_rules.get(index as usize) else {
        return;
    };
    let at = add_rule(rule.clone(), merged);
    result["ruleIndex"] = Value::from(at);
}

/// The index of `rule` (by `id`) in `merged`, appending it when it is not there yet.
fn add_rule(rule: Value, merged: &mut Vec<Value>) -> usize {
    let id = rule.get("id").cloned();
    match merged.iter().position(|r| r.get("id") == id.as_ref()) {
        Some(i) => i,
        None => {
            merged.push(rule);
            merged.len() - 1
        }
    }
}

/// The merged run with its rules and results in the run's file order.
fn finish(merged: MergedRun) -> Value {
    let MergedRun {
        mut run,
        rules,
        mut results,
        ..
    } = merged;
    results.sort_by(|a, b| file_order(uri_of(a), uri_of(b)));
    if let Some(driver) = run.get_mut("tool").and_then(|t| t.get_mut("driver")) {
        driver["rules"] = Value::Array(rules);
    }
    run.insert("results".into(), Value::Array(results));
    Value::Object(run)
}

fn uri_of(result: &Value) -> &str {
    (result.pointer("/locations/0/physicalLocation/artifactLocation/uri"))
        .and_then(Value::as_str)
        .unwrap_or("")
}
