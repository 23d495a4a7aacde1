//! The engine: runs read, classify, rules, suppressions and resolve on one source, and
//! fans a list of inputs out over a thread pool while keeping their order.

mod file;
mod har;
mod http;
mod live;
mod ordered;
mod pcap;
mod run;
mod run_inputs;
mod run_places;

#[cfg(test)]
mod claims_now_tests;

pub use live::lint_live;
pub use ordered::lint_in_order;
pub use run::{Relint, Run, check_linted_run};

use crate::input::capture::Kind;
use crate::input::walk::{Input, InputError};
use crate::output::FileReport;
use crate::protocol::classify::Payloads;
use crate::protocol::profile::Profile;
use crate::settings::rule_set::RuleSet;

/// What a file is checked against.
#[derive(Clone, Debug, Default)]
pub struct Options {
    pub profile: Profile,
    pub rules: RuleSet,
    /// `--no-ignores` sets this: inline suppressions are not honoured.
    pub no_ignores: bool,
    /// How success responses' payloads are decoded (hollow unless a test asks otherwise).
    pub payloads: Payloads,
    /// The file's path from the repository root, which fingerprints hash
    /// ([`crate::input::repo_root::repo_path`]); `None`: the path it is shown under.
    pub repo_path: Option<String>,
    /// Diagnostics come without context windows (empty `snippets`): the format never
    /// shows them, and cutting them costs a tenth of a run with dense findings.
    pub no_windows: bool,
    /// Claims about agent cards are placed while the file is at hand, not left to a
    /// second pass: the run asks for it once many files' claims look contradicted
    /// ([`run::Run::claims_now`]).
    pub claims_now: bool,
    /// A large HAR log is read on a thread of its own while its entries are linted: the
    /// run has more threads than one.
    pub read_ahead: bool,
}

impl Options {
    /// What fingerprints hash as the file shown as `path`.
    pub(crate) fn identity<'a>(&'a self, path: &'a str) -> &'a str {
        self.repo_path.as_deref().unwrap_or(path)
    }
}

/// Lints the capture `bytes`, shown as `path`. Exchanges are read, checked and resolved
/// one at a time; only diagnostics outlive them. A HAR file (named `*.har`, or JSON) is
/// linted as the HTTP text its entries describe, and findings are placed in the HAR file.
pub fn lint_source(path: &str, bytes: &[u8], options: &Options) -> FileReport {
    lint_source_deferring(path, bytes, options, false)
}

/// [`lint_source`]; with `defer`, what the run-level rules keep that they may report or
/// name (task answers, claims about agent cards, card members) is kept as a number only
/// (see `spots`): the run lints the few files whose spots it needs again, without
/// `defer` ([`lint_source`] numbers them the same way). Resolving them up front cost a
/// fifth of the run time on realistic traffic, and kept a few KiB per file to the end.
/// When most files' claims will be reported (a card the traffic contradicts), linting
/// them again costs more: then the run asks for claims at once (`Options::claims_now`).
fn lint_source_deferring(path: &str, bytes: &[u8], options: &Options, defer: bool) -> FileReport {
    let defer = match defer {
        false => Defer::Nothing,
        true if bytes.len() > CLAIMS_NOW_ABOVE || options.claims_now => Defer::Answers,
        true => Defer::All,
    };
    match Kind::of(path, bytes) {
        Kind::Http => http::lint_http(path, bytes, options, defer),
        Kind::Har => har::lint_har(path, bytes, options, defer),
        Kind::Pcap => pcap::lint_pcap(path, bytes, options, defer),
    }
}

/// A file larger than this resolves its card claims at once rather than leave them to a
/// second pass over it: a handful of diagnostics is less than linting it again, and
/// large files are few (see `file::Defer`).
const CLAIMS_NOW_ABOVE: usize = 256 << 10;

/// Reads and lints one input of a run; a file's run-level spots are left to a second
/// pass (`Run`), standard input's resolved at once.
fn lint_input(
    input: &Input,
    options_for: &(dyn Fn(&str) -> Options + Sync),
    max_bytes: u64,
) -> Result<FileReport, InputError> {
    let name = input.display_name();
    // A bug in a2alint on one file must not cost the findings of the others: the file is
    // reported as a tool failure (exit 2) and the run goes on. Reading is inside too, so
    // that a worker of `lint_in_order` never dies with its input unanswered.
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let options = options_for(name);
        // A run of more threads than one reads a large file with two.
        let bytes = input.read_using(max_bytes, options.read_ahead)?;
        // Standard input cannot be read again: its answers are resolved at once.
        let defer = matches!(input, Input::File { .. });
        Ok(lint_source_deferring(name, &bytes, &options, defer))
    }))
    .unwrap_or_else(|_| {
        Err(InputError {
            path: name.to_string(),
            message:
                "a2alint failed on this file (an internal error; please report it with the file)"
                    .into(),
        })
    })
}

/// What a file keeps as a number only ([`crate::output::resolve::spots`]), for the run
/// to lint it again if a run-level finding needs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Defer {
    /// Nothing: the input cannot be read again (standard input, a live capture), or the
    /// caller wants every report complete.
    Nothing,
    /// Task answers only, which can be many; a card's members and the claims made of it,
    /// a handful per file, are resolved now. For large files, where linting again costs
    /// more than the few diagnostics kept.
    Answers,
    /// Everything.
    All,
}
