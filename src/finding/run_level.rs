//! What run-level rules share with the engine: a rule never holds a placed finding, only
//! a [`Spot`] the engine placed (or will place) for it, and it answers with
//! [`RunFinding`]s that the engine turns into diagnostics after the run.

use crate::finding::rule_id::RuleId;

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
