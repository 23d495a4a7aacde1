//! `binding-divergence` (run-level): the same operation on the same task answered with
//! different A2A errors over JSON-RPC and HTTP+JSON in one run (A2A §5.1: the bindings
//! must handle errors the same way).

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
    pub at: Option<Box<Diagnostic>>,
    /// The 1-based line of the answer in its file (only JSON-RPC answers are named by
    /// their `path:line`, so only theirs is set).
    pub line: usize,
    /// For an HTTP+JSON answer not resolved yet: the finding to resolve if it is
    /// reported (see `lint::resolve_pending`).
    pub pending: Option<Box<Finding>>,
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
        line: 0,
        pending: None,
    };
    Some((outcome, finding))
}

/// Compares outcomes across every file of the run; adds a finding to the HTTP+JSON side of
/// each divergence.
pub fn check_run(reports: &mut [FileReport]) {
    check_run_with(reports, &|_, _| None);
}

/// [`check_run`], where `resolve(file, finding)` resolves the pending finding of an
/// answer in `reports[file]` (by reading the file again).
pub fn check_run_with(
    reports: &mut [FileReport],
    resolve: &dyn Fn(usize, &Finding) -> Option<Diagnostic>,
) {
    // Every outcome by (operation, task): sorted, rather than a map of cloned keys, so
    // that a large run needs no second copy of its task ids.
    let mut by_key: Vec<(&'static str, &str, usize, usize)> = Vec::new();
    for (file, report) in reports.iter().enumerate() {
        for (i, outcome) in report.outcomes.iter().enumerate() {
            by_key.push((outcome.operation.method_name(), &outcome.task_id, file, i));
        }
    }
    // Stable: within a key, outcomes stay in file order.
    by_key.sort_by(|a, b| (a.0, a.1).cmp(&(b.0, b.1)));
    let mut additions: Vec<(usize, Diagnostic)> = Vec::new();
    for group in by_key.chunk_by(|a, b| (a.0, a.1) == (b.0, b.1)) {
        let (operation, task_id) = (group[0].0, group[0].1);
        let places: Vec<(usize, usize)> = group.iter().map(|&(_, _, f, i)| (f, i)).collect();
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
        let file_of = |outcome: &Outcome| {
            places
                .iter()
                .find(|&&(f, i)| std::ptr::eq(&reports[f].outcomes[i], outcome))
                .map_or(0, |&(f, _)| f)
        };
        let file = file_of(first_rest);
        let place = format!("{}:{}", reports[file_of(first_rpc)].path, first_rpc.line);
        let resolved =
            first_rest.at.as_deref().cloned().or_else(|| {
                (first_rest.pending.as_ref()).and_then(|finding| resolve(file, finding))
            });
        let Some(mut diagnostic) = resolved else {
            continue;
        };
        diagnostic.message = format!(
            "{operation} on task \"{task_id}\" is answered with {} over HTTP+JSON but {} over JSON-RPC ({})",
            name(first_rest),
            name(first_rpc),
            place
        );
        diagnostic.help = Some(
            "both bindings must report the same A2A error for the same situation (A2A §5.1, §5.4); a client \
             switching bindings would otherwise see different behaviour"
                .into(),
        );
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
