//! `binding-divergence` (run-level): the same operation on the same task answered with
//! different A2A errors over two of JSON-RPC, HTTP+JSON and gRPC in one run (A2A §5.1:
//! the bindings must handle errors the same way).

use crate::classify::{Binding, ErrorView, ExchangeView, Operation};
use crate::finding::Finding;
use crate::lint::FileReport;
use crate::resolve::Diagnostic;
use crate::rules::RuleId;
use crate::table::{A2aError, table};

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
    /// The 1-based line of the answer in its file: set only for a JSON-RPC answer (the
    /// one others are compared with, named by its `path:line`) that is not pending; 0
    /// otherwise.
    pub line: usize,
    /// For an answer not resolved yet: the finding to resolve if it is reported or named
    /// (see `lint::resolve_pending`). HTTP+JSON and gRPC answers wait; so do JSON-RPC
    /// answers in a HAR file, where even the line of one means finding its entry.
    pub pending: Option<Box<Finding>>,
}

/// The outcome of an exchange, when it is a task operation over one of the bindings, and
/// the finding at its answer, which the engine resolves or leaves pending.
pub fn outcome_of(view: &ExchangeView<'_, '_>) -> Option<(Outcome, Finding)> {
    if !matches!(
        view.binding,
        Binding::JsonRpc | Binding::HttpJson | Binding::Grpc
    ) {
        return None;
    }
    let (operation, task_id, response) =
        (view.operation?, view.task_id()?, view.response.as_ref()?);
    let errors = view.errors();
    let reason = (errors.iter().find_map(|e| e.a2a_error()))
        .or_else(|| by_status(view, errors.first()))
        .map(|e| e.reason.clone());
    let finding = Finding::new(
        RuleId::BindingDivergence,
        response.outcome_label("this answer"),
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

/// The A2A error an answer without a readable reason stands for by its status alone,
/// when only one error has that status in the profile's table: HTTP 404 or gRPC
/// NOT_FOUND is TaskNotFound whatever the body says (A2A §5.4), so a body that names
/// the error its own way is not a divergence from a binding that says it with a reason.
fn by_status(
    view: &ExchangeView<'_, '_>,
    error: Option<&ErrorView<'_>>,
) -> Option<&'static A2aError> {
    let profile = view.profile;
    let only = |matches: &dyn Fn(&A2aError) -> bool| {
        let mut found = table().a2a.iter().filter(|e| matches(e));
        match (found.next(), found.next()) {
            (Some(one), None) => Some(one),
            _ => None,
        }
    };
    match view.binding {
        Binding::HttpJson => {
            let status = view.error_status()?;
            only(&|e| e.http(profile) == status)
        }
        Binding::Grpc => {
            let name = error?.status()?;
            only(&|e| e.grpc(profile) == name)
        }
        _ => None,
    }
}

/// Compares outcomes across every file of the run; adds a finding to each answer that
/// differs from the first answer over the reference binding (JSON-RPC, else HTTP+JSON).
pub fn check_run(reports: &mut [FileReport]) {
    check_run_with(reports, &|_, _| Vec::new());
}

/// A divergence found: the answer reported and the one it differs from, as (file,
/// outcome) pairs.
struct Divergence<'k> {
    operation: &'static str,
    task_id: &'k str,
    reported: (usize, usize),
    reference: (usize, usize),
}

/// [`check_run`], where `resolve(file, findings)` resolves pending findings of answers in
/// `reports[file]` (by reading the file again, once for all of them).
pub fn check_run_with(
    reports: &mut [FileReport],
    resolve: &dyn Fn(usize, &[&Finding]) -> Vec<Diagnostic>,
) {
    let divergences = divergences(reports);
    // Every pending finding a divergence needs, read again file by file.
    let mut wanted: Vec<(usize, usize)> = divergences
        .iter()
        .flat_map(|d| [d.reported, d.reference])
        .filter(|&(f, i)| reports[f].outcomes[i].pending.is_some())
        .collect();
    wanted.sort_unstable();
    wanted.dedup();
    // In (file, outcome) order, as `wanted` is.
    let mut resolved: Vec<((usize, usize), Diagnostic)> = Vec::new();
    for group in wanted.chunk_by(|a, b| a.0 == b.0) {
        let file = group[0].0;
        let findings: Vec<&Finding> = (group.iter())
            .filter_map(|&(f, i)| reports[f].outcomes[i].pending.as_deref())
            .collect();
        resolved.extend(group.iter().copied().zip(resolve(file, &findings)));
    }
    let diagnostic_of = |(f, i): (usize, usize)| -> Option<&Diagnostic> {
        reports[f].outcomes[i].at.as_deref().or_else(|| {
            let found = resolved.binary_search_by_key(&(f, i), |(at, _)| *at);
            found.ok().map(|k| &resolved[k].1)
        })
    };
    let mut additions: Vec<(usize, Diagnostic)> = Vec::new();
    for divergence in &divergences {
        let (reported, reference) = (
            &reports[divergence.reported.0].outcomes[divergence.reported.1],
            &reports[divergence.reference.0].outcomes[divergence.reference.1],
        );
        // Named by `path:line` (by frame in a pcap); by its path alone if its file could
        // not be read again.
        let mut place = reports[divergence.reference.0].path.clone();
        let resolved = diagnostic_of(divergence.reference);
        match (
            reference.line,
            resolved.and_then(|d| d.primary.frame.as_ref()),
        ) {
            (0, Some(frame)) => Some(format!(" frame {}", frame.frame)),
            (0, None) => resolved.map(|d| format!(":{}", d.primary.start.line)),
            (line, _) => Some(format!(":{line}")),
        }
        .inspect(|at| place.push_str(at));
        let Some(mut diagnostic) = diagnostic_of(divergence.reported).cloned() else {
            continue;
        };
        let name = |o: &Outcome| {
            o.reason
                .clone()
                .unwrap_or_else(|| "no A2A error".to_string())
        };
        diagnostic.message = format!(
            "{} on task \"{}\" is answered with {} over {} but {} over {} ({place})",
            divergence.operation,
            divergence.task_id,
            name(reported),
            crate::inspect::binding_name(reported.binding),
            name(reference),
            crate::inspect::binding_name(reference.binding),
        );
        diagnostic.help = Some(
            "every binding must report the same A2A error for the same situation (A2A §5.1, §5.4); a client \
             switching bindings would otherwise see different behaviour"
                .into(),
        );
        additions.push((divergence.reported.0, diagnostic));
    }
    drop(divergences);
    for (file, diagnostic) in additions {
        let report = &mut reports[file];
        report.diagnostics.push(diagnostic);
        report
            .diagnostics
            .sort_by_key(|d| (d.primary.span.start, d.rule));
    }
}

/// Every (operation, task) whose first answer over HTTP+JSON or gRPC differs from the
/// first over JSON-RPC, or, with no JSON-RPC answer, whose first gRPC answer differs
/// from the first HTTP+JSON one.
fn divergences(reports: &[FileReport]) -> Vec<Divergence<'_>> {
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
    let mut found = Vec::new();
    for group in by_key.chunk_by(|a, b| (a.0, a.1) == (b.0, b.1)) {
        let first = |binding: Binding| {
            (group.iter())
                .map(|&(_, _, f, i)| (f, i))
                .find(|&(f, i)| reports[f].outcomes[i].binding == binding)
        };
        let [rpc, rest, grpc] = [Binding::JsonRpc, Binding::HttpJson, Binding::Grpc].map(first);
        let Some(reference) = rpc.or(rest) else {
            continue;
        };
        let reason = |(f, i): (usize, usize)| &reports[f].outcomes[i].reason;
        for reported in [rest, grpc].into_iter().flatten() {
            if reported != reference && reason(reported) != reason(reference) {
                found.push(Divergence {
                    operation: group[0].0,
                    task_id: group[0].1,
                    reported,
                    reference,
                });
            }
        }
    }
    found
}
