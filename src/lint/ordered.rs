//! The engine over a run: files linted by a pool of workers and handed, one at a time
//! and in input order, to a single consumer as soon as a file and every file before it
//! are done, so that output is the same at any thread count and nothing waits for the
//! whole run.

use std::collections::BTreeMap;
use std::io;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};

use crate::lint::{FileReport, Options, lint_input};
use crate::walk::{Input, InputError};

/// How far past the file being written workers may go, per worker: enough that a slow
/// file does not idle the others, few enough that the reports waiting stay a handful.
const AHEAD_PER_WORKER: usize = 2;

type Linted = Result<FileReport, InputError>;

/// The reorder buffer: reports done out of order wait here for the ones before them.
struct State {
    done: BTreeMap<usize, Linted>,
    /// Every input before this one has been handed over.
    handed: usize,
    /// The consumer failed (a closed pipe, say): workers stop.
    stop: bool,
}

struct Shared {
    state: Mutex<State>,
    /// A report arrived.
    arrived: Condvar,
    /// The consumer took a report, or stopped.
    moved: Condvar,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic while the lock is held leaves nothing half-done: the map stays valid.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Lints every input on `pool`, calling `each(index, report)` in input order from the
/// calling thread while the workers go on; stops at the first error `each` returns and
/// gives it back. Workers take inputs in order, and none runs more than a few inputs
/// ahead of the one being handed over, so memory holds a few reports, not the run's.
pub fn lint_in_order(
    pool: &rayon::ThreadPool,
    inputs: &[Input],
    options_for: &(dyn Fn(&str) -> Options + Sync),
    on_done: &(dyn Fn() + Sync),
    max_bytes: u64,
    each: &mut dyn FnMut(usize, Linted) -> io::Result<()>,
) -> io::Result<()> {
    let workers = pool.current_num_threads().max(1);
    let ahead = workers * AHEAD_PER_WORKER;
    let next = AtomicUsize::new(0);
    let shared = Shared {
        state: Mutex::new(State {
            done: BTreeMap::new(),
            handed: 0,
            stop: false,
        }),
        arrived: Condvar::new(),
        moved: Condvar::new(),
    };
    // The calling thread consumes; the pool's threads only lint (`in_place_scope` runs
    // this closure here, so even a pool of one thread has a worker free).
    pool.in_place_scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|_| {
                loop {
                    // Taken in order: the input every other waits for is always in hand.
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= inputs.len() {
                        return;
                    }
                    let mut state = shared.lock();
                    while !state.stop && i >= state.handed + ahead {
                        state = (shared.moved.wait(state)).unwrap_or_else(PoisonError::into_inner);
                    }
                    if state.stop {
                        return;
                    }
                    drop(state);
                    let linted = lint_input(&inputs[i], options_for, max_bytes);
                    on_done();
                    shared.lock().done.insert(i, linted);
                    shared.arrived.notify_one();
                }
            });
        }
        let mut outcome = Ok(());
        for i in 0..inputs.len() {
            let linted = {
                let mut state = shared.lock();
                loop {
                    if let Some(linted) = state.done.remove(&i) {
                        state.handed = i + 1;
                        break linted;
                    }
                    state = (shared.arrived.wait(state)).unwrap_or_else(PoisonError::into_inner);
                }
            };
            shared.moved.notify_all();
            if let Err(error) = each(i, linted) {
                outcome = Err(error);
                break;
            }
        }
        shared.lock().stop = true;
        shared.moved.notify_all();
        outcome
    })
}
