//! A HAR log's entries handed on with the exchanges their text reads as; when asked, the
//! log is read on a thread of its own while the caller lints the entries before. Reading
//! a log's JSON, writing its entries and reading their text back as exchanges is half of
//! linting it, and a single large log would otherwise keep one core busy and the other
//! idle. Entries are handed over in order, the same either way.

use std::sync::mpsc;

use super::{EntrySpans, EntryText, HarLog, Layout, for_each_laid_out_entry};
use crate::input::capture::{Capture, Side, read_http};
use crate::input::source::Span;

/// Entries are handed over this many at a time: one hand-over per entry woke the other
/// thread (a system call) once per entry.
const BATCH: usize = 16;

/// Batches read but not yet linted, at most: enough to ride out an entry slow to lint,
/// few enough that they hold a few hundred KiB.
const BATCHES_AHEAD: usize = 4;

self_cell::self_cell!(
    /// An entry's text and the exchanges read from it, which borrow from it: handed to
    /// the linting thread together.
    struct ReadText {
        owner: Vec<u8>,
        #[covariant]
        dependent: Capture,
    }
);

/// An entry as the reading thread hands it over: its own copy of what the reader's
/// buffers held. Copies go back to the reader once linted and are filled again.
struct Held {
    index: usize,
    read: ReadText,
    bad_base64: Vec<Side>,
    failure: Option<String>,
    layout: Layout,
    span: Option<Span>,
}

impl Held {
    /// `entry` held, found at `span` in the file, in the buffers of `spare` (a copy linted
    /// before) if there is one.
    fn new(entry: &EntryText<'_>, span: Option<Span>, spare: Option<Held>) -> Held {
        let Held {
            read,
            mut bad_base64,
            mut layout,
            ..
        } = spare.unwrap_or_else(Held::empty);
        let mut text = read.into_owner();
        text.clear();
        text.extend_from_slice(entry.text);
        bad_base64.clear();
        bad_base64.extend_from_slice(entry.bad_base64);
        let given = entry
            .layout
            .expect("entries read to be linted are laid out");
        // Field by field, so the buffers of a copy used before are filled again.
        layout.messages.clone_from(&given.messages);
        layout.pieces.clone_from(&given.pieces);
        layout.len = given.len;
        layout.secrets.clone_from(&given.secrets);
        Held {
            index: entry.index,
            read: ReadText::new(text, |text| read_http(text)),
            bad_base64,
            failure: entry.failure.map(str::to_owned),
            layout,
            span,
        }
    }

    fn empty() -> Held {
        Held {
            index: 0,
            read: ReadText::new(Vec::new(), |text| read_http(text)),
            bad_base64: Vec::new(),
            failure: None,
            layout: Layout::default(),
            span: None,
        }
    }

    fn hand_to(&mut self, each: &mut dyn FnMut(&EntryText<'_>, &mut Capture<'_>)) {
        let Held {
            index,
            read,
            bad_base64,
            failure,
            layout,
            span,
        } = self;
        read.with_dependent_mut(|text, capture| {
            let entry = EntryText {
                index: *index,
                text,
                bad_base64,
                failure: failure.as_deref(),
                layout: Some(layout),
                span: *span,
            };
            each(&entry, capture);
        });
    }
}

/// [`for_each_laid_out_entry`], each entry handed on with the exchanges and problems its
/// text reads as; with `ahead`, the log is read (and the text too) on another thread while
/// `each` runs on this one.
pub fn for_each_read_entry(
    bytes: &[u8],
    ahead: bool,
    each: &mut dyn FnMut(&EntryText<'_>, &mut Capture<'_>),
) -> HarLog {
    if !ahead {
        return for_each_laid_out_entry(bytes, &mut |entry| {
            each(&entry, &mut read_http(entry.text));
        });
    }
    let (read, to_lint) = mpsc::sync_channel::<Vec<Held>>(BATCHES_AHEAD);
    let (linted, to_refill) = mpsc::channel::<Vec<Held>>();
    std::thread::scope(|scope| {
        let reader = scope.spawn(move || {
            // Once the linting side is gone (it panicked), the rest is read for nothing.
            let mut wanted = true;
            let (mut batch, mut spare) = (Vec::with_capacity(BATCH), Vec::new());
            // Each entry's span, found here rather than by the resolver on the linting
            // thread, which sets the wall time (5 % of it on a log of real traffic).
            let mut spans = EntrySpans::default();
            let log = for_each_laid_out_entry(bytes, &mut |entry| {
                if !wanted {
                    return;
                }
                if spare.is_empty() {
                    spare = to_refill.try_recv().unwrap_or_default();
                }
                let span = spans.next(bytes, true);
                batch.push(Held::new(&entry, span, spare.pop()));
                if batch.len() == BATCH {
                    wanted = read
                        .send(std::mem::replace(&mut batch, Vec::with_capacity(BATCH)))
                        .is_ok();
                }
            });
            if wanted && !batch.is_empty() {
                let _ = read.send(batch);
            }
            log
        });
        for mut batch in to_lint {
            batch.iter_mut().for_each(|held| held.hand_to(each));
            // The reader may be done and gone: then nothing is refilled.
            let _ = linted.send(batch);
        }
        reader
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `each` saw of every entry (and its exchanges), and the log.
    fn seen(ahead: bool, har: &[u8]) -> (Vec<String>, String) {
        let mut entries = Vec::new();
        let log = for_each_read_entry(har, ahead, &mut |entry, capture| {
            entries.push(format!(
                "{} {:?} {:?} {:?} {:?} {capture:?}",
                entry.index,
                String::from_utf8_lossy(entry.text),
                entry.bad_base64,
                entry.failure,
                entry.layout
            ))
        });
        (entries, format!("{log:?}"))
    }

    #[test]
    fn hands_over_what_reading_on_this_thread_does() {
        let entry = |i: usize| {
            format!(
                r#"{{"request": {{"method": "POST", "url": "http://a.example/{i}", "headers": [{{"name": "Authorization", "value": "Bearer t{i}"}}], "postData": {{"text": "e30=", "encoding": "base64"}}}},
                   "response": {{"status": {status}, "_error": "net::ERR_{i}", "content": {{"text": "not base64!", "encoding": "base64"}}}}}}"#,
                status = if i % 3 == 0 { 0 } else { 200 }
            )
        };
        let entries: Vec<String> = (0..BATCH * (BATCHES_AHEAD + 3) + 5).map(entry).collect();
        let whole = format!(r#"{{"log": {{"entries": [{}]}}}}"#, entries.join(","));
        // Cut inside an entry: the entries before, then the problem.
        let cut = &whole[..whole.len() * 2 / 3];
        for har in [whole.as_bytes(), cut.as_bytes(), b"[1, 2", b""] {
            let here = seen(false, har);
            let ahead = seen(true, har);
            assert_eq!(here, ahead);
        }
        let (all, _) = seen(true, whole.as_bytes());
        assert_eq!(all.len(), BATCH * (BATCHES_AHEAD + 3) + 5);
    }
}
