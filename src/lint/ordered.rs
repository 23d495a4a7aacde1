//! The engine over a run: files linted by a pool of workers and handed, one at a time
//! and in input order, to a single consumer as soon as a file and every file before it
//! are done, so that output is the same at any thread count and nothing waits for the
//! whole run.

use std::collections::BTreeMap;
use std::io;
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};

use crate::input::walk::{Input, InputError};
use crate::lint::{Options, lint_input};
use crate::output::FileReport;

/// How far past the file being written workers may go, per worker: enough that a slow
/// file does not idle the others, few enough that the reports waiting stay a handful.
const AHEAD_PER_WORKER: usize = 2;

type Linted = Result<FileReport, InputError>;

/// The reorder buffer: reports done out of order wait here for the ones before them.
struct State {
    done: BTreeMap<usize, Linted>,
    /// The next input nobody has taken yet.
    next: usize,
    /// Every input before this one has been handed over.
    handed: usize,
    /// The consumer failed (a closed pipe, say): workers stop.
    stop: bool,
    /// Workers asleep until the window moves, and whether the consumer sleeps until a
    /// report arrives: wake-ups are system calls, made only for someone waiting.
    workers_waiting: usize,
    consumer_waiting: bool,
}

impl State {
    /// The next input to lint, if one is left and inside the window.
    fn take(&mut self, len: usize, ahead: usize) -> Option<usize> {
        let i = self.next;
        (i < len && i < self.handed + ahead).then(|| {
            self.next += 1;
            i
        })
    }
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

    /// Files a finished report, waking the consumer only if it sleeps.
    fn file(&self, i: usize, linted: Linted) {
        let mut state = self.lock();
        state.done.insert(i, linted);
        if state.consumer_waiting {
            self.arrived.notify_one();
        }
    }
}

/// Lints every input on `pool`, calling `each(index, report)` in input order from the
/// calling thread while the workers go on; stops at the first error `each` returns and
/// gives it back. Workers take inputs in order, and none runs more than a few inputs
/// ahead of the one being handed over, so memory holds a few reports, not the run's.
/// The calling thread lints too whenever the report it needs next is not ready, so a
/// pool of N threads lints on N threads in all (one of them also writing), and a pool of
/// one runs the whole run on the calling thread without a hand-over.
pub fn lint_in_order(
    pool: &rayon::ThreadPool,
    inputs: &[Input],
    options_for: &(dyn Fn(&str) -> Options + Sync),
    on_done: &(dyn Fn() + Sync),
    max_bytes: u64,
    each: &mut dyn FnMut(usize, Linted) -> io::Result<()>,
) -> io::Result<()> {
    let threads = pool.current_num_threads().max(1);
    let ahead = threads * AHEAD_PER_WORKER;
    let len = inputs.len();
    let shared = Shared {
        state: Mutex::new(State {
            done: BTreeMap::new(),
            next: 0,
            handed: 0,
            stop: false,
            workers_waiting: 0,
            consumer_waiting: false,
        }),
        arrived: Condvar::new(),
        moved: Condvar::new(),
    };
    let lint = |i: usize| {
        let linted = lint_input(&inputs[i], options_for, max_bytes);
        on_done();
        linted
    };
    // `in_place_scope` runs the closure on the calling thread, which consumes; the
    // pool's other threads only lint.
    pool.in_place_scope(|scope| {
        for _ in 1..threads {
            scope.spawn(|_| {
                loop {
                    let mut state = shared.lock();
                    let i = loop {
                        if state.stop || state.next >= len {
                            return;
                        }
                        if let Some(i) = state.take(len, ahead) {
                            break i;
                        }
                        state.workers_waiting += 1;
                        state = (shared.moved.wait(state)).unwrap_or_else(PoisonError::into_inner);
                        state.workers_waiting -= 1;
                    };
                    drop(state);
                    shared.file(i, lint(i));
                }
            });
        }
        let mut outcome = Ok(());
        for i in 0..len {
            let linted = {
                let mut state = shared.lock();
                loop {
                    if let Some(linted) = state.done.remove(&i) {
                        state.handed = i + 1;
                        if state.workers_waiting > 0 {
                            shared.moved.notify_all();
                        }
                        break linted;
                    }
                    // Not ready: lint the next input here rather than sleep (it is `i`
                    // itself when no worker has taken it yet).
                    if let Some(j) = state.take(len, ahead) {
                        drop(state);
                        let linted = lint(j);
                        if j == i {
                            state = shared.lock();
                            state.handed = i + 1;
                            if state.workers_waiting > 0 {
                                shared.moved.notify_all();
                            }
                            break linted;
                        }
                        shared.file(j, linted);
                        state = shared.lock();
                        continue;
                    }
                    state.consumer_waiting = true;
                    state = (shared.arrived.wait(state)).unwrap_or_else(PoisonError::into_inner);
                    state.consumer_waiting = false;
                }
            };
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
