//! `binding-divergence` (run-level): the same operation on the same task answered with
//! different A2A errors over JSON-RPC and HTTP+JSON in one run (A2A §5.1: the bindings
//! must handle errors the same way).

use std::collections::BTreeMap;

use crate::classify::{Binding, ExchangeView, Operation};
use crate::finding::Finding;
use crate::lint::FileReport;
use crate::resolve::Diagnostic;
use crate::rules::RuleId;

/// How one task operation was answered, with a finding ready to report at its answer.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub binding: Binding,
    pub operation: Operation,
    pub task_id: String,
    /// The A2A error reason, or `None` for success or a non-A2A error.
    pub reason: Option<String>,
    /// A resolved finding at the answer, whose message the run-level check fills in.
    pub at: Option<Diagnostic>,
    /// The `path:line` of the answer.
    pub place: String,
}

/// The outcome of an exchange, when it is a task operation over one of the bindings. The
/// finding is resolved by the engine while the exchange is in memory.
pub fn outcome_of(view: &ExchangeView<'_, '_>) -> Option<(Outcome, Finding)> {
    if !matches!(view.binding, Binding::JsonRpc | Binding::HttpJson) {
        return None;
    }
    let (operation, task_id, response) =
        (view.operation?, view.task_id()?, view.response.as_ref()?);
    let reason = view
        .errors()
        .iter()
        .find_map(|e| e.a2a_error())
        .map(|e| e.reason.clone());
    let finding = Finding::new(
        RuleId::BindingDivergence,
        response.start_line_label("this answer"),
        String::new(),
    );
    let outcome = Outcome {
        binding: view.binding,
        operation,
        task_id,
        reason,
        at: None,
        place: String::new(),
    };
    Some((outcome, finding))
}

/// Compares outcomes across every file of the run; adds a finding to the HTTP+JSON side of
/// each divergence.
pub fn check_run(reports: &mut [FileReport]) {
    let mut by_key: BTreeMap<(&'static str, String), Vec<(usize, usize)>> = BTreeMap::new();
    for (file, report) in reports.iter().enumerate() {
        for (i, outcome) in report.outcomes.iter().enumerate() {
            by_key
                .entry((outcome.operation.method_name(), outcome.task_id.clone()))
                .or_default()
                .push((file, i));
        }
    }
    let mut additions: Vec<(usize, Diagnostic)> = Vec::new();
    for ((operation, task_id), places) in by_key {
        let of = |binding: Binding| -> Vec<&Outcome> {
            places
                .iter()
                .map(|&(f, i)| &reports[f].outcomes[i])
                .filter(|o| o.binding == binding)
                .collect()
        };
        let (rpc, rest) = (of(Binding::JsonRpc), of(Binding::HttpJson));
        let (Some(first_rpc), Some(first_rest)) = (rpc.first(), rest.first()) else {
            continue;
        };
        if first_rpc.reason == first_rest.reason
            || (first_rpc.reason.is_none() && first_rest.reason.is_none())
        {
            continue;
        }
        let name = |o: &Outcome| {
            o.reason
                .clone()
                .unwrap_or_else(|| "no A2A error".to_string())
        };
        let Some(mut diagnostic) = first_rest.at.clone() else {
            continue;
        };
        diagnostic.message = format!(
            "{operation} on task \"{task_id}\" is answered with {} over HTTP+JSON but {} over JSON-RPC ({})",
            name(first_rest),
            name(first_rpc),
            first_rpc.place
        );
        diagnostic.help = Some(
            "both bindings must report the same A2A error for the same situation (A2A §5.1, §5.4); a client \
             switching bindings would otherwise see different behaviour"
                .into(),
        );
        let file = places
            .iter()
            .find(|&&(f, i)| std::ptr::eq(&reports[f].outcomes[i], *first_rest))
            .map_or(0, |&(f, _)| f);
        additions.push((file, diagnostic));
    }
    for (file, diagnostic) in additions {
        let report = &mut reports[file];
        report.diagnostics.push(diagnostic);
        report
            .diagnostics
            .sort_by_key(|d| (d.primary.span.start, d.rule));
    }
}
