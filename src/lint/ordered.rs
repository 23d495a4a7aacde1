//! The engine over a run: inputs taken from the walk as they are found, linted by a
//! pool of workers and handed, one at a time and in input order, to a single consumer as
//! soon as a file and every file before it are done, so that output is the same at any
//! thread count, nothing waits for the whole run and no list of the run's files is kept.

use std::collections::BTreeMap;
use std::io;
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};

use crate::input::walk::{Input, InputError};
use crate::lint::{Options, lint_input};
use crate::output::FileReport;

/// How far past the file being written workers may go, per worker: enough that a slow
/// file does not idle the others, few enough that the reports waiting stay a few dozen.
/// With two, a large capture (a HAR log of a few MB) held the writer while the other
/// worker idled: two threads ran 1.4 CPUs busy on the generated corpus, 1.8 with eight.
const AHEAD_PER_WORKER: usize = 8;

type Linted = Result<FileReport, InputError>;

/// Who linted an input: the calling thread, or the worker of that number (from 1).
type Linter = usize;
const CONSUMER: Linter = 0;

/// The inputs of a run, in order, as the walk finds them.
pub type Inputs<'a> = dyn Iterator<Item = Input> + Send + 'a;

/// The reorder buffer: reports done out of order wait here for the ones before them.
struct State<'a> {
    done: BTreeMap<usize, (Input, Linted, Linter)>,
    /// Reports written, waiting for the worker that linted them to drop them (by worker
    /// number less one): memory freed on a thread that did not allocate it is reused
    /// there while the other core still writes beside it in the same cache lines. With
    /// `Run::absorb` copying what it keeps, this took two threads' CPU time on the real
    /// corpus from 683 to 595 ms (BENCHMARKS.md, "The tenth round").
    spent: Vec<Vec<(Input, Linted)>>,
    /// Where inputs come from; taken under the lock, so the walk runs a step at a time
    /// on whichever thread needs the next input, beside the others' linting.
    source: &'a mut Inputs<'a>,
    /// The source has no input left: `next` is the number of inputs.
    exhausted: bool,
    /// The number of the next input, the first nobody has taken yet.
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

impl State<'_> {
    /// The next input to lint and its number, if one is left and inside the window.
    fn take(&mut self, ahead: usize) -> Option<(usize, Input)> {
        if self.exhausted || self.next >= self.handed + ahead {
            return None;
        }
        let Some(input) = self.source.next() else {
            self.exhausted = true;
            return None;
        };
        self.next += 1;
        Some((self.next - 1, input))
    }

    /// Every input has been taken, and `i` is past the last.
    fn all_taken_before(&self, i: usize) -> bool {
        self.exhausted && i >= self.next
    }
}

struct Shared<'a> {
    state: Mutex<State<'a>>,
    /// A report arrived.
    arrived: Condvar,
    /// The consumer took a report, or stopped.
    moved: Condvar,
}

impl<'a> Shared<'a> {
    fn lock(&self) -> MutexGuard<'_, State<'a>> {
        // A panic while the lock is held leaves nothing half-done: the map stays valid.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Files a finished report, waking the consumer only if it sleeps.
    fn file(&self, i: usize, input: Input, linted: Linted, by: Linter) {
        let mut state = self.lock();
        state.done.insert(i, (input, linted, by));
        if state.consumer_waiting {
            self.arrived.notify_one();
        }
    }
}

/// Lints every input of `inputs` on `pool`, calling `each(number, input, report)` in
/// input order from the calling thread while the workers go on; stops at the first
/// error `each` returns and gives it back. What `each` leaves of a report is dropped
/// by the thread that linted it. Workers take inputs in order, and none runs
/// more than a few inputs ahead of the one being handed over, so memory holds a few
/// reports, not the run's. The calling thread lints too whenever the report it needs
/// next is not ready, so a pool of N threads lints on N threads in all (one of them also
/// writing), and a pool of one runs the whole run on the calling thread without a
/// hand-over.
pub fn lint_in_order<'a>(
    pool: &rayon::ThreadPool,
    inputs: &'a mut Inputs<'a>,
    options_for: &(dyn Fn(&str) -> Options + Sync),
    on_done: &(dyn Fn() + Sync),
    max_bytes: u64,
    each: &mut dyn FnMut(usize, &Input, &mut Linted) -> io::Result<()>,
) -> io::Result<()> {
    let threads = pool.current_num_threads().max(1);
    let ahead = threads * AHEAD_PER_WORKER;
    let shared = Shared {
        state: Mutex::new(State {
            done: BTreeMap::new(),
            source: inputs,
            exhausted: false,
            next: 0,
            handed: 0,
            spent: (1..threads).map(|_| Vec::new()).collect(),
            stop: false,
            workers_waiting: 0,
            consumer_waiting: false,
        }),
        arrived: Condvar::new(),
        moved: Condvar::new(),
    };
    let lint = |input: &Input| {
        let linted = lint_input(input, options_for, max_bytes);
        on_done();
        linted
    };
    // `in_place_scope` runs the closure on the calling thread, which consumes; the
    // pool's other threads only lint.
    pool.in_place_scope(|scope| {
        for worker in 1..threads {
            let shared = &shared;
            scope.spawn(move |_| {
                loop {
                    let mut state = shared.lock();
                    let spent = std::mem::take(&mut state.spent[worker - 1]);
                    let (i, input) = loop {
                        if state.stop || state.exhausted {
                            return;
                        }
                        if let Some(taken) = state.take(ahead) {
                            break taken;
                        }
                        if state.exhausted {
                            return;
                        }
                        state.workers_waiting += 1;
                        state = (shared.moved.wait(state)).unwrap_or_else(PoisonError::into_inner);
                        state.workers_waiting -= 1;
                    };
                    drop(state);
                    drop(spent);
                    let linted = lint(&input);
                    shared.file(i, input, linted, worker);
                }
            });
        }
        let mut outcome = Ok(());
        let mut i = 0;
        // A worker's report once written, handed back to it the next time the lock is
        // taken.
        let mut written: Option<(Linter, Input, Linted)> = None;
        'run: loop {
            let done = {
                let mut state = shared.lock();
                if let Some((by, input, linted)) = written.take() {
                    state.spent[by - 1].push((input, linted));
                }
                loop {
                    if let Some(done) = state.done.remove(&i) {
                        state.handed = i + 1;
                        if state.workers_waiting > 0 {
                            shared.moved.notify_all();
                        }
                        break done;
                    }
                    // Not ready: lint the next input here rather than sleep (it is `i`
                    // itself when no worker has taken it yet).
                    if let Some((j, input)) = state.take(ahead) {
                        drop(state);
                        let linted = lint(&input);
                        if j == i {
                            state = shared.lock();
                            state.handed = i + 1;
                            if state.workers_waiting > 0 {
                                shared.moved.notify_all();
                            }
                            break (input, linted, CONSUMER);
                        }
                        shared.file(j, input, linted, CONSUMER);
                        state = shared.lock();
                        continue;
                    }
                    if state.all_taken_before(i) {
                        break 'run;
                    }
                    state.consumer_waiting = true;
                    state = (shared.arrived.wait(state)).unwrap_or_else(PoisonError::into_inner);
                    state.consumer_waiting = false;
                }
            };
            let (input, mut linted, by) = done;
            if let Err(error) = each(i, &input, &mut linted) {
                outcome = Err(error);
                break;
            }
            if by != CONSUMER {
                written = Some((by, input, linted));
            }
            i += 1;
        }
        shared.lock().stop = true;
        shared.moved.notify_all();
        outcome
    })
}
