//! The engine's side of run-level rules: what it keeps at each [`Spot`] a rule holds.
//! A file linted for `check` keeps nothing there once it is done (the spots are numbers
//! only): the few a rule reports or names are found by linting the file again, which
//! numbers them the same way. So a run's facts stay small however many files it has.
//! The exceptions are claims the run is likely to report, once it has asked for them
//! to be placed at once (`Run::claims_now`): those findings are kept, as a report of
//! them would be.

use crate::finding::run_level::{Place, Spot};
use crate::output::resolve::{Diagnostic, Location};

/// What the engine keeps at one spot.
#[derive(Clone, Debug)]
pub enum Placed {
    /// A finding resolved: the diagnostic a run-level rule may report.
    Diagnostic(Box<Diagnostic>),
    /// A label placed: a card member, named in messages and shown as related.
    Label(Box<Location>),
    /// Only its line: an answer that is named by its place but never reported.
    Line(usize),
}

impl Placed {
    /// Where it is, as messages name it.
    pub fn place(&self) -> Place {
        match self {
            Placed::Diagnostic(diagnostic) => place_of(&diagnostic.primary),
            Placed::Label(at) => place_of(at),
            Placed::Line(line) => Place {
                line: *line,
                frame: None,
            },
        }
    }
}

fn place_of(at: &Location) -> Place {
    Place {
        line: at.start.line,
        frame: at.frame.as_ref().map(|f| f.frame),
    }
}

/// The spots of one file, numbered in the order they were kept.
#[derive(Debug, Default)]
pub struct Spots {
    /// `None` for a spot left to a second pass over the file.
    placed: Vec<Option<Placed>>,
}

impl Spots {
    pub fn keep(&mut self, placed: Option<Placed>) -> Spot {
        let spot = Spot(u32::try_from(self.placed.len()).unwrap_or(u32::MAX));
        self.placed.push(placed);
        spot
    }

    pub fn get(&self, spot: Spot) -> Option<&Placed> {
        self.placed.get(spot.0 as usize)?.as_ref()
    }

    /// A copy of what the spots hold where `keep` says yes, numbered the same (a second
    /// pass over the file gives the rest if it is asked for after all); `None` if it
    /// would hold nothing.
    pub fn copied(&self, mut keep: impl FnMut(Spot, &Placed) -> bool) -> Option<Spots> {
        let mut copy = Spots::default();
        let mut holds = false;
        for (n, placed) in self.placed.iter().enumerate() {
            let spot = Spot(u32::try_from(n).unwrap_or(u32::MAX));
            let kept = placed.as_ref().filter(|p| keep(spot, p)).cloned();
            holds |= kept.is_some();
            copy.placed.push(kept);
        }
        holds.then_some(copy)
    }

    /// Drops what the spots hold: a second pass over the file gives it again.
    pub fn forget(&mut self) {
        self.placed = Vec::new();
    }
}
