//! A large HAR log read on a thread of its own while the caller lints the entries before:
//! reading a log's JSON and writing its entries is a third of linting it, and a single
//! large log would otherwise keep one core busy and the other idle. Entries are handed
//! over in order, the same as [`for_each_laid_out_entry`] hands them.

use std::sync::mpsc;

use super::{EntryText, HarLog, Layout, for_each_laid_out_entry};
use crate::input::capture::Side;

/// Entries are handed over this many at a time: one hand-over per entry woke the other
/// thread (a system call) once per entry.
const BATCH: usize = 16;

/// Batches read but not yet linted, at most: enough to ride out an entry slow to lint,
/// few enough that they hold a few hundred KiB.
const BATCHES_AHEAD: usize = 4;

/// An entry as the reading thread hands it over: its own copy of what the reader's
/// buffers held. Copies go back to the reader once linted and are filled again.
#[derive(Default)]
struct Held {
    index: usize,
    text: Vec<u8>,
    bad_base64: Vec<Side>,
    failure: Option<String>,
    layout: Layout,
}

impl Held {
    fn fill(&mut self, entry: &EntryText<'_>) {
        self.index = entry.index;
        self.text.clear();
        self.text.extend_from_slice(entry.text);
        self.bad_base64.clear();
        self.bad_base64.extend_from_slice(entry.bad_base64);
        self.failure = entry.failure.map(str::to_owned);
        let layout = entry
            .layout
            .expect("entries read to be linted are laid out");
        // Field by field, so the buffers of a copy used before are filled again.
        self.layout.messages.clone_from(&layout.messages);
        self.layout.pieces.clone_from(&layout.pieces);
        self.layout.len = layout.len;
        self.layout.secrets.clone_from(&layout.secrets);
    }

    fn entry(&self) -> EntryText<'_> {
        EntryText {
            index: self.index,
            text: &self.text,
            bad_base64: &self.bad_base64,
            failure: self.failure.as_deref(),
            layout: Some(&self.layout),
        }
    }
}

/// [`for_each_laid_out_entry`], the log read on another thread while `each` runs on this
/// one.
pub fn for_each_laid_out_entry_ahead(bytes: &[u8], each: &mut dyn FnMut(EntryText<'_>)) -> HarLog {
    let (read, to_lint) = mpsc::sync_channel::<Vec<Held>>(BATCHES_AHEAD);
    let (linted, to_refill) = mpsc::channel::<Vec<Held>>();
    std::thread::scope(|scope| {
        let reader = scope.spawn(move || {
            // Once the linting side is gone (it panicked), the rest is read for nothing.
            let mut wanted = true;
            let (mut batch, mut spare) = (Vec::with_capacity(BATCH), Vec::new());
            let log = for_each_laid_out_entry(bytes, &mut |entry| {
                if !wanted {
                    return;
                }
                if spare.is_empty() {
                    spare = to_refill.try_recv().unwrap_or_default();
                }
                let mut held: Held = spare.pop().unwrap_or_default();
                held.fill(&entry);
                batch.push(held);
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
        for batch in to_lint {
            batch.iter().for_each(|held| each(held.entry()));
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

    /// A way of reading a log entry by entry.
    type Read = fn(&[u8], &mut dyn FnMut(EntryText<'_>)) -> HarLog;

    /// What `each` saw of every entry, and the log.
    fn seen(read: Read, har: &[u8]) -> (Vec<String>, String) {
        let mut entries = Vec::new();
        let log = read(har, &mut |entry| {
            entries.push(format!(
                "{} {:?} {:?} {:?} {:?}",
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
            let here = seen(for_each_laid_out_entry, har);
            let ahead = seen(for_each_laid_out_entry_ahead, har);
            assert_eq!(here, ahead);
        }
        let (all, _) = seen(for_each_laid_out_entry_ahead, whole.as_bytes());
        assert_eq!(all.len(), BATCH * (BATCHES_AHEAD + 3) + 5);
    }
}
