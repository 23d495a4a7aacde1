//! `binding-divergence` (run-level): the same operation on the same task answered with
//! different A2A errors over two of JSON-RPC, HTTP+JSON and gRPC in one run (A2A §5.1:
//! the bindings must handle errors the same way).

use std::collections::BTreeMap;

use crate::finding::Finding;
use crate::finding::run_level::{Places, RunFinding, Spot};
use crate::protocol::classify::{Binding, ErrorView, ExchangeView, Operation};
use crate::protocol::table::{A2aError, table};
use crate::rules::RuleId;

/// How one task operation was answered, and where the engine keeps its answer.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub binding: Binding,
    pub operation: Operation,
    pub task_id: String,
    /// The A2A error reason, or `None` for success or a non-A2A error.
    pub reason: Option<String>,
    /// The finding at the answer, whose message the run-level check fills in.
    pub answer: Spot,
}

/// The outcome of an exchange (whose response carries `errors`), when it is a task operation over one of the bindings;
/// `keep` gets the finding at its answer (and the binding, since only HTTP+JSON and gRPC
/// answers are ever reported: a JSON-RPC one is only named by its place) and gives the
/// spot the engine keeps it at.
pub fn outcome_of(
    view: &ExchangeView<'_, '_>,
    errors: &[ErrorView<'_>],
    keep: &mut dyn FnMut(Finding, Binding) -> Spot,
) -> Option<Outcome> {
    if !matches!(
        view.binding,
        Binding::JsonRpc | Binding::HttpJson | Binding::Grpc
    ) {
        return None;
    }
    let (operation, task_id, response) =
        (view.operation?, view.task_id()?, view.response.as_ref()?);
    let reason = (errors.iter().find_map(|e| e.a2a_error()))
        .or_else(|| by_status(view, errors.first()))
        .map(|e| e.reason.clone());
    let finding = Finding::new(
        RuleId::BindingDivergence,
        response.outcome_label("this answer"),
        String::new(),
    );
    Some(Outcome {
        binding: view.binding,
        operation,
        task_id,
        reason,
        answer: keep(finding, view.binding),
    })
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

/// The run's outcomes, gathered file by file as each file is done: of each operation on
/// each task, only the first answer over each binding, which is all the comparison
/// reads (the first over JSON-RPC, else HTTP+JSON, is the reference; the first over
/// each other binding is compared with it).
#[derive(Debug, Default)]
pub struct RunOutcomes {
    /// By (operation, task): the first (file, outcome) over JSON-RPC, HTTP+JSON and gRPC.
    first: BTreeMap<(&'static str, String), [Option<FileOutcome>; 3]>,
}

/// An outcome and the file (its number in the run) it was answered in.
type FileOutcome = (usize, Outcome);

impl RunOutcomes {
    /// Takes in the outcomes of file `file`, in the order of its exchanges; says whether
    /// it kept any (a first answer), and so may name the file at the end.
    pub fn add(&mut self, file: usize, outcomes: &[Outcome]) -> bool {
        let mut kept = false;
        for outcome in outcomes {
            let slot = match outcome.binding {
                Binding::JsonRpc => 0,
                Binding::HttpJson => 1,
                _ => 2,
            };
            let key = (outcome.operation.method_name(), outcome.task_id.clone());
            let firsts = self.first.entry(key).or_default();
            if firsts[slot].is_none() {
                firsts[slot] = Some((file, outcome.clone()));
                kept = true;
            }
        }
        kept
    }

    /// A finding at each answer that differs from the first answer over the reference
    /// binding, naming where that one is.
    pub fn check(&self, places: &mut dyn Places) -> Vec<RunFinding> {
        let mut divergences = Vec::new();
        for ((operation, task_id), [rpc, rest, grpc]) in &self.first {
            let Some(reference) = rpc.as_ref().or(rest.as_ref()) else {
                continue;
            };
            for reported in [rest, grpc].into_iter().flatten() {
                if !std::ptr::eq(reported, reference) && reported.1.reason != reference.1.reason {
                    divergences.push((*operation, task_id.as_str(), reported, reference));
                }
            }
        }
        let wanted: Vec<(usize, Spot)> = (divergences.iter())
            .map(|(_, _, _, (file, outcome))| (*file, outcome.answer))
            .collect();
        let named = places.places(&wanted);
        let mut found = Vec::with_capacity(divergences.len());
        for ((operation, task_id, (file, reported), (ref_file, reference)), at) in
            divergences.into_iter().zip(named)
        {
            // Named by `path:line` (by frame in a pcap); by its path alone if its file
            // could not be read again.
            let mut place = places.path(*ref_file);
            if let Some(at) = at {
                match at.frame {
                    Some(frame) => place.push_str(&format!(" frame {frame}")),
                    None => place.push_str(&format!(":{}", at.line)),
                }
            }
            let name = |o: &Outcome| {
                o.reason
                    .clone()
                    .unwrap_or_else(|| "no A2A error".to_string())
            };
            let message = format!(
                "{operation} on task \"{task_id}\" is answered with {} over {} but {} over {} \
                 ({place})",
                name(reported),
                reported.binding.name(),
                name(reference),
                reference.binding.name(),
            );
            found.push(RunFinding {
                file: *file,
                spot: reported.answer,
                message,
                help: Some(
                    "every binding must report the same A2A error for the same situation (A2A \
                     §5.1, §5.4); a client switching bindings would otherwise see different \
                     behaviour"
                        .into(),
                ),
                related: Vec::new(),
            });
        }
        found
    }
}
