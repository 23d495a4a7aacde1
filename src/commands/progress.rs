//! `check`'s progress bar on standard error: its length grows as a walk of its own
//! counts the files (no list of the run's files is made), and it shows itself once the
//! run is large enough to be worth one.

use std::io::{self, IsTerminal};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::commands::cli::CheckArgs;

/// Runs of at least this many files show a progress bar (on a terminal).
const SHOWN_FROM: usize = 200;

pub(super) struct Progress {
    bar: ProgressBar,
    /// A terminal, and neither `--no-progress` nor `--quiet`.
    may_show: bool,
    found: AtomicUsize,
    shown: AtomicBool,
    /// The run is over: counting on is of no use.
    stop: AtomicBool,
}

impl Progress {
    pub fn new(args: &CheckArgs) -> Progress {
        let may_show = !args.out.no_progress && !args.out.quiet && io::stderr().is_terminal();
        let bar = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::hidden());
        if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} files {elapsed}") {
            bar.set_style(style);
        }
        Progress {
            bar,
            may_show,
            found: AtomicUsize::new(0),
            shown: AtomicBool::new(false),
            stop: AtomicBool::new(false),
        }
    }

    /// Whether the bar may be shown, and so whether the run's files are worth counting.
    pub fn may_show(&self) -> bool {
        self.may_show
    }

    /// Counts `inputs` (a walk of the run's files, on a thread of its own) into the
    /// bar's length, until they end or the run does.
    pub fn count(&self, inputs: impl Iterator) {
        for _ in inputs {
            if self.stop.load(Ordering::Relaxed) {
                return;
            }
            self.found();
        }
    }

    pub fn stop_counting(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// One more file was counted.
    fn found(&self) {
        self.bar.inc_length(1);
        let found = self.found.fetch_add(1, Ordering::Relaxed) + 1;
        if self.may_show && found == SHOWN_FROM {
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
            self.shown.store(true, Ordering::Release);
        }
    }

    /// One more file was linted. Counted only for a bar that may show: every thread
    /// counts, and a count nobody reads is a cache line they pass back and forth.
    pub fn done(&self) {
        if self.may_show {
            self.bar.inc(1);
        }
    }

    /// Runs `write` with the bar out of the way, if it is there (stepping aside takes
    /// its lock, file by file: only when it is shown).
    pub fn aside<R>(&self, write: impl FnOnce() -> R) -> R {
        match self.shown.load(Ordering::Acquire) {
            true => self.bar.suspend(write),
            false => write(),
        }
    }

    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
