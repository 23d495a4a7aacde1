//! What run-level rules share with the engine: a rule never holds a placed finding, only
//! a [`Spot`] the engine placed (or will place) for it, and it answers with
//! [`RunFinding`]s that the engine turns into diagnostics after the run.

use std::collections::HashMap;
use std::hash::Hash;

use crate::finding::rule_id::RuleId;
use crate::finding::spill::{Spill, numbers_of, record_of};

/// The rules that judge a whole run, the only ones that keep spots.
pub const RUN_LEVEL_RULES: [RuleId; 3] = [
    RuleId::BindingDivergence,
    RuleId::UnsupportedVersionAccepted,
    RuleId::CardContradicted,
];

/// A place the engine keeps for a run-level rule in one file (an answer, a card member),
/// numbered in that file. What it costs to keep is the engine's business: a few bytes
/// for most, so the facts of a run stay small however many files it has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Spot(pub u32);

/// Where a spot is, as messages name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Place {
    /// 1-based line in the capture file.
    pub line: usize,
    /// For a pcap or pcapng capture: the frame number, which names it instead.
    pub frame: Option<u32>,
}

/// A finding of a run-level rule: the one kept at `spot` in file `file`, with its message.
#[derive(Clone, Debug)]
pub struct RunFinding {
    pub file: usize,
    pub spot: Spot,
    pub message: String,
    /// Replaces the kept finding's help, when given.
    pub help: Option<String>,
    /// Other spots of the same file to show with it.
    pub related: Vec<Spot>,
}

/// What the engine answers a run-level rule about the run's files.
pub trait Places {
    /// The path file `file` is shown under.
    fn path(&self, file: usize) -> String;

    /// Where each of `wanted` (file, spot) is; `None` when it cannot be told (its file
    /// could not be read again). Asked all at once: a spot may need its file read again.
    fn places(&mut self, wanted: &[(usize, Spot)]) -> Vec<Option<Place>>;
}

/// Every file's claims of one run-level rule, as the run gathers them: each distinct key
/// (what the judgement depends on) once, and each claim as a 16-byte record (file, key,
/// repeats, spot), spilled to disk past a few thousand, since a run holds a few per
/// file.
#[derive(Debug)]
pub struct RunClaims<K> {
    keys: Vec<K>,
    key_of: HashMap<K, u32, foldhash::fast::FixedState>,
    claims: Spill,
}

/// One file's claim: its key by number, how many later exchanges of the file repeated
/// it, and where its finding would go.
#[derive(Debug, Clone, Copy)]
pub struct RunClaim {
    pub file: usize,
    pub key: usize,
    pub more: usize,
    pub at: Spot,
}

impl<K> Default for RunClaims<K> {
    fn default() -> Self {
        RunClaims {
            keys: Vec::new(),
            key_of: HashMap::default(),
            claims: Spill::default(),
        }
    }
}

impl<K: Clone + Eq + Hash> RunClaims<K> {
    /// Takes in a claim; gives its key's number.
    pub fn push(&mut self, file: usize, key: K, more: usize, at: Spot) -> usize {
        let next = u32::try_from(self.keys.len()).unwrap_or(u32::MAX);
        let id = *self.key_of.entry(key.clone()).or_insert(next);
        if id == next {
            self.keys.push(key);
        }
        let number = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        (self.claims).push(record_of([number(file), id, number(more), at.0]));
        id as usize
    }
}

impl<K> RunClaims<K> {
    /// How many distinct keys the claims have (numbered from 0).
    pub fn keys(&self) -> usize {
        self.keys.len()
    }

    pub fn key(&self, key: usize) -> &K {
        &self.keys[key]
    }

    /// The claims in the order they were taken in.
    pub fn iter(&self) -> impl Iterator<Item = RunClaim> + '_ {
        self.claims.iter().map(|record| {
            let [file, key, more, at] = numbers_of(record);
            RunClaim {
                file: file as usize,
                key: key as usize,
                more: more as usize,
                at: Spot(at),
            }
        })
    }
}
