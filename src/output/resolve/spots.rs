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
#[derive(Debug)]
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

    /// Does any spot hold something? A file whose spots are all numbers needs none kept.
    pub fn holds_any(&self) -> bool {
        self.placed.iter().any(Option::is_some)
    }

    /// Drops what the spots hold where `keep` says no: a second pass over the file gives
    /// it again if it is asked for after all.
    pub fn retain(&mut self, mut keep: impl FnMut(Spot, &Placed) -> bool) {
        for (n, placed) in self.placed.iter_mut().enumerate() {
            let spot = Spot(u32::try_from(n).unwrap_or(u32::MAX));
            if placed.as_ref().is_some_and(|p| !keep(spot, p)) {
                *placed = None;
            }
        }
    }

    /// Drops what the spots hold: a second pass over the file gives it again.
    pub fn forget(&mut self) {
        self.placed = Vec::new();
    }
}
