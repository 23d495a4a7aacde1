//! Finding the entries of a HAR file as findings need them: each entry's span, found one
//! after the other the first time a finding points at or past it, and its layout and
//! credential values worked out from its JSON (a few entries cached).

use std::ops::Range;

use crate::input::capture::har;
use crate::input::json_span::locate_value_in_valid;
use crate::input::source::Span;
use crate::output::resolve::har_map::{CACHED_ENTRIES, EntryPlace, HarMap};
use crate::output::resolve::har_text::{string_inside, value_strings};
use crate::output::resolve::mask::is_credential;

impl HarMap<'_> {
    /// The cache slot of entry `index`, working out its layout if needed.
    pub(super) fn entry(&mut self, index: usize) -> Option<usize> {
        if let Some(slot) = self.cache.iter().position(|e| e.index == index) {
            return Some(slot);
        }
        let span = self.entry_span(index)?;
        let json = &self.har[span.range()];
        // The reader's layout of the entry being linted saves reading its JSON again.
        let given = (self.current == Some(index)).then(|| self.entry_layout.take());
        let layout = match given.flatten() {
            Some(layout) => layout,
            None => har::layout_of(json, is_credential)?,
        };
        // An entry the scan finds but the HAR reader stopped in (a value of the wrong
        // type, say) was never written: there is nothing to compare.
        if self.current == Some(index) {
            debug_assert_eq!(
                layout.len,
                self.entry_text.len(),
                "entry {index} was laid out differently"
            );
        }
        let secrets = (layout.secrets.iter())
            .filter_map(|pointer| locate_value_in_valid(json, pointer))
            .map(|value| string_inside(self.har, value.shift(span.start)))
            .collect();
        if self.cache.len() >= CACHED_ENTRIES {
            self.cache.remove(0);
        }
        self.cache.push(EntryPlace {
            index,
            span,
            layout,
            secrets,
            members: Vec::new(),
        });
        Some(self.cache.len() - 1)
    }

    /// The span of entry `index` in the HAR file, scanning entries up to it.
    pub(super) fn entry_span(&mut self, index: usize) -> Option<Span> {
        while self.spans.len() <= index && self.scan_next() {}
        self.spans.get(index).copied()
    }

    /// Finds the next entry; false when there is none. An entry the HAR reader has
    /// parsed (up to the one being linted) is valid JSON, and its end is found quickly.
    pub(super) fn scan_next(&mut self) -> bool {
        let parsed = self.current.is_some_and(|c| self.spans.len() <= c);
        match self.scan.next(self.har, parsed) {
            Some(span) => {
                self.spans.push(span);
                true
            }
            None => false,
        }
    }

    /// Entry `index` is at `span`, as the reader found it: if it is the next one to find,
    /// the scan steps over it.
    pub(super) fn found_entry(&mut self, index: usize, span: Span) {
        if self.spans.len() == index && !self.scan.is_done() {
            self.scan.step_over(span);
            self.spans.push(span);
        }
    }

    /// Credential values in `region`: those of the entries it overlaps, and past the
    /// last entry that could be read (a file cut short), every `"value"` string.
    pub(super) fn secrets_in(&mut self, region: Range<usize>, out: &mut Vec<Span>) {
        while self.spans.last().is_none_or(|s| s.end < region.end) && self.scan_next() {}
        let first = self.spans.partition_point(|s| s.end <= region.start);
        let overlapping: Vec<usize> = (first..self.spans.len())
            .take_while(|&i| self.spans[i].start < region.end)
            .collect();
        for entry in overlapping {
            if let Some(slot) = self.entry(entry) {
                out.extend(
                    self.cache[slot]
                        .secrets
                        .iter()
                        .filter(|s| s.start < region.end && s.end > region.start),
                );
            }
        }
        let read_up_to = self.spans.last().map_or(0, |s| s.end);
        if self.scan.is_done() && region.end > read_up_to {
            out.extend(value_strings(
                self.har,
                region.start.max(read_up_to)..region.end,
            ));
        }
    }
}
