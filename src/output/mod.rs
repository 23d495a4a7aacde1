//! Output: what linting one capture gives ([`FileReport`]), how its findings are placed
//! in the capture (`resolve`: lines, HAR members, frames, context windows), and the
//! reporters that write them in each format (`report`).

pub mod report;
pub mod resolve;

use crate::input::capture::wire::WireCounts;
use crate::output::resolve::Diagnostic;
use crate::output::resolve::spots::Spots;
use crate::rules::binding_divergence::Outcome;
use crate::rules::card_contradicted::CardFacts;
use crate::rules::unsupported_version_accepted::VersionFacts;

/// The result of linting one capture.
#[derive(Debug, Default)]
pub struct FileReport {
    pub path: String,
    /// The path from the repository root, when the linting was told it
    /// ([`crate::lint::Options::repo_path`]): the gate keys the file by it without placing
    /// the file again (for a file outside the root, a question to the file system).
    pub repo_path: Option<String>,
    pub exchanges: usize,
    pub diagnostics: Vec<Diagnostic>,
    /// Findings silenced by suppressions.
    pub suppressed: usize,
    /// How task operations were answered, for the run-level `binding-divergence`.
    pub outcomes: Vec<Outcome>,
    /// Agent cards and versions answered with success that no card of the file judged,
    /// for the run-level part of `unsupported-version-accepted`.
    pub versions: VersionFacts,
    /// Agent cards and what answers claim of them, for the run-level `card-contradicted`.
    pub cards: CardFacts,
    /// What the engine keeps where those facts point.
    pub spots: Spots,
    /// For a pcap or pcapng file: what the wire reader read and skipped.
    pub wire: Option<WireCounts>,
}
