//! The generator, and the tables of which exchange it makes how often in each mix.

use super::errors::A2A_ERRORS;
use super::message::Exchange;
use super::rng::Rng;

/// Which traffic a file holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mix {
    /// Mostly successes, some errors answered right, some wrong (about one exchange in
    /// ten has a finding).
    Realistic,
    /// Only exchanges a2alint has nothing to say about.
    Clean,
    /// Only errors answered wrong: many findings.
    Findings,
    /// Only clean JSON-RPC, for tools that read JSON-RPC bodies alone.
    JsonRpc,
}

impl Mix {
    pub fn parse(text: &str) -> Option<Mix> {
        Some(match text {
            "realistic" => Mix::Realistic,
            "clean" => Mix::Clean,
            "findings" => Mix::Findings,
            "jsonrpc" => Mix::JsonRpc,
            _ => return None,
        })
    }
}

/// Generates exchanges. Each generator owns its random stream and counters.
pub struct Generator {
    pub rng: Rng,
    mix: Mix,
    /// Sequence number for ids and timestamps.
    pub(super) seq: u64,
    pub(super) rpc_id: u64,
    /// Bytes the file being written still has room for: long artifacts are cut to it, so
    /// files end near their planned size.
    pub budget: usize,
}

/// Entries and their weights: a roll below the weights' total picks one.
pub(super) type Weighted<T> = &'static [(usize, T)];

/// The sum of a table's weights, the range its roll is drawn from.
pub(super) const fn total<T>(table: Weighted<T>) -> usize {
    let (mut sum, mut i) = (0, 0);
    while i < table.len() {
        sum += table[i].0;
        i += 1;
    }
    sum
}

/// The entry a roll in `0..total(table)` lands on.
pub(super) fn pick<T: Copy>(table: Weighted<T>, mut roll: usize) -> T {
    for &(weight, entry) in table {
        if roll < weight {
            return entry;
        }
        roll -= weight;
    }
    unreachable!("the roll is below the table's total")
}

type Scenario = fn(&mut Generator) -> Exchange;

/// About one exchange in ten has a finding.
const REALISTIC: Weighted<Scenario> = &[
    (800, |g| g.draw(SUCCESSES)),
    (100, |g| g.draw(RIGHT_ERRORS)),
    (20, Generator::legacy_0_3),
    (80, Generator::wrong_error),
];

const SUCCESSES: Weighted<Scenario> = &[
    (22, Generator::rpc_send),
    (10, Generator::rpc_get_task),
    (3, Generator::rpc_list_tasks),
    (2, Generator::rpc_cancel),
    (8, |g| g.rpc_stream(false)),
    (17, Generator::rest_send),
    (12, Generator::rest_get_task),
    (9, |g| g.rest_stream(false)),
    (3, Generator::rest_list_tasks),
    (3, Generator::agent_card),
    (2, Generator::rest_push_config),
    (5, |g| {
        let fails = g.rng.chance(0.3);
        g.rpc_stream(fails)
    }),
    (4, |g| {
        let fails = g.rng.chance(0.3);
        g.rest_stream(fails)
    }),
];

const JSONRPC_CLEAN: Weighted<Scenario> = &[
    (5, Generator::rpc_send),
    (2, Generator::rpc_get_task),
    (1, Generator::rpc_list_tasks),
    (1, Generator::rpc_cancel),
    (1, Generator::rpc_a2a_error),
];

const RIGHT_ERRORS: Weighted<Scenario> = &[
    (4, Generator::rpc_a2a_error),
    (4, Generator::rest_a2a_error),
    (1, Generator::rpc_invalid_params),
    (1, Generator::rest_unavailable),
];

/// How many ways an error is answered wrong; both bindings' tables add up to it, so one
/// roll picks a way of either (`wrong_rpc.rs`, `wrong_rest.rs`).
pub(super) const WRONG_KINDS: usize = 22;

impl Generator {
    pub fn new(rng: Rng, mix: Mix) -> Self {
        Generator {
            rng,
            mix,
            seq: 0,
            rpc_id: 0,
            budget: usize::MAX,
        }
    }

    /// The next exchange of the mix.
    pub fn exchange(&mut self) -> Exchange {
        self.seq += 1;
        match self.mix {
            Mix::Clean => self.draw(SUCCESSES),
            Mix::JsonRpc => self.draw(JSONRPC_CLEAN),
            Mix::Findings => self.wrong_error(),
            Mix::Realistic => self.draw(REALISTIC),
        }
    }

    fn draw(&mut self, table: Weighted<Scenario>) -> Exchange {
        let roll = self.rng.below(total(table));
        pick(table, roll)(self)
    }

    fn wrong_error(&mut self) -> Exchange {
        let error = self.rng.pick(A2A_ERRORS);
        let rpc = self.rng.chance(0.5);
        let kind = self.rng.below(WRONG_KINDS);
        if rpc {
            self.wrong_rpc(error, kind)
        } else {
            self.wrong_rest(error, kind)
        }
    }
}
