//! Claims about agent cards placed while their files are at hand once the run asks for
//! it ([`Run::claims_now`]) give the run-level diagnostics that claims left to a second
//! pass give, and spare the files linted after the switch that second pass.

use std::cell::Cell;

use super::{Options, Run, lint_source, lint_source_deferring};
use crate::input::walk::Input;
use crate::output::resolve::Diagnostic;

/// A card that lists JSON-RPC at `/a2a`, and a request that speaks HTTP+JSON there.
const CAPTURE: &str = include_str!(
    "../../tests/fixtures/card-contradicted/bad-rest-spoken-at-the-jsonrpc-interface.http"
);

fn card() -> &'static str {
    &CAPTURE[..CAPTURE.find("POST ").unwrap()]
}

fn request() -> &'static str {
    &CAPTURE[CAPTURE.find("POST ").unwrap()..]
}

/// What a run over `files` reports at its end, how many files it linted again, and the
/// first file after which it asked for claims at once.
struct Ended {
    diagnostics: Vec<(usize, Vec<Diagnostic>)>,
    relinted: usize,
    asked_after: Option<usize>,
}

/// When a file's claims are placed at once: never, from a file on, or as the run asks.
enum Now {
    Never,
    From(usize),
    Asked(Box<Run>),
}

fn run(files: &[&str], now: Now) -> Ended {
    let options = |claims_now| Options {
        claims_now,
        ..Options::default()
    };
    let name = |i: usize| format!("{i:03}.http");
    let (mut run, from, follow) = match now {
        Now::Never => (Run::relinting(), usize::MAX, false),
        Now::From(from) => (Run::relinting(), from, false),
        Now::Asked(run) => (*run, usize::MAX, true),
    };
    let mut asked_after = None;
    for (i, text) in files.iter().enumerate() {
        let now = i >= from || (follow && run.claims_now());
        let report = lint_source_deferring(&name(i), text.as_bytes(), &options(now), true);
        let input = Input::File {
            name: name(i).into(),
            path: None,
        };
        run.absorb(i, &input, &report);
        if asked_after.is_none() && run.claims_now() {
            asked_after = Some(i);
        }
    }
    let relinted = Cell::new(0);
    let relint = |inputs: &[&Input]| {
        relinted.set(relinted.get() + inputs.len());
        (inputs.iter())
            .map(|input| {
                let i: usize = input.display_name()[..3].parse().unwrap();
                Some(lint_source(&name(i), files[i].as_bytes(), &options(false)).spots)
            })
            .collect()
    };
    let diagnostics = (run.finish(&relint).into_iter())
        .map(|(input, report)| (input, report.diagnostics))
        .collect();
    Ended {
        diagnostics,
        relinted: relinted.get(),
        asked_after,
    }
}

#[test]
fn claims_placed_at_once_after_the_switch_are_the_claims_a_second_pass_places() {
    let files = vec![CAPTURE; 80];
    let deferred = run(&files, Now::Never);
    assert_eq!(deferred.relinted, 80, "every file's claim is contradicted");
    assert_eq!(deferred.diagnostics.len(), 80);
    // Asked for once 32 files were left to a second pass (a quarter of the files).
    assert_eq!(deferred.asked_after, Some(31));
    let switched = run(&files, Now::Asked(Box::new(Run::relinting())));
    assert_eq!(switched.diagnostics, deferred.diagnostics);
    assert_eq!(switched.relinted, 32, "only the files before the switch");
}

/// Past the placed claims a run holds at most, claims are left to the second pass again.
#[test]
fn a_run_stops_placing_claims_at_once_past_what_it_holds() {
    let files = vec![CAPTURE; 80];
    let bounded = run(&files, Now::Asked(Box::new(Run::holding_at_most(10))));
    assert_eq!(bounded.diagnostics, run(&files, Now::Never).diagnostics);
    assert_eq!(bounded.relinted, 80 - 10);
}

#[test]
fn a_run_whose_claims_the_cards_bear_out_does_not_ask() {
    let agreeing =
        include_str!("../../tests/fixtures/card-contradicted/ok-rest-spoken-at-its-interface.http");
    let ended = run(&vec![agreeing; 200], Now::Asked(Box::new(Run::relinting())));
    assert_eq!(ended.asked_after, None);
    assert!(ended.diagnostics.is_empty());
    assert_eq!(ended.relinted, 0);
}

/// A claim the cards taken in so far do not contradict is let go of even when placed
/// at once, and found by the second pass when a later card contradicts it after all.
#[test]
fn a_claim_let_go_of_is_placed_by_the_second_pass() {
    let mut files = vec![request(); 40];
    files.push(card());
    let deferred = run(&files, Now::Never);
    let placed_at_once = run(&files, Now::From(0));
    assert_eq!(deferred.diagnostics.len(), 40);
    assert_eq!(placed_at_once.diagnostics, deferred.diagnostics);
    assert_eq!(placed_at_once.relinted, 40);
}
