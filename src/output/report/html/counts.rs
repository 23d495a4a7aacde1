//! The html page's count of each file's findings, which its run-level findings number
//! on from: four counts to a 16-byte record, spilled to disk past a few thousand, so a
//! page of a million files keeps none of them in memory.

use crate::finding::spill::{Spill, numbers_of, record_of};

#[derive(Default)]
pub struct FindingCounts {
    spilled: Spill,
    /// The counts of the files after the last full record.
    pending: Vec<u32>,
}

impl FindingCounts {
    /// The next file's count.
    pub fn push(&mut self, count: usize) {
        self.pending.push(u32::try_from(count).unwrap_or(u32::MAX));
        if let Ok(four) = <[u32; 4]>::try_from(&self.pending[..]) {
            self.spilled.push(record_of(four));
            self.pending.clear();
        }
    }

    /// The count of file `file`, if there is one.
    pub fn get(&self, file: usize) -> Option<usize> {
        let count = match self.spilled.get(file / 4) {
            Some(record) => numbers_of(record)[file % 4],
            None => *self
                .pending
                .get(file.checked_sub(4 * self.spilled.records())?)?,
        };
        Some(count as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_count_comes_back() {
        let mut counts = FindingCounts::default();
        let n = 40_003;
        for file in 0..n {
            counts.push(file % 7);
        }
        for file in [0, 1, 3, 4, 5, 16_387, n - 4, n - 3, n - 1] {
            assert_eq!(counts.get(file), Some(file % 7), "{file}");
        }
        assert_eq!(counts.get(n), None);
    }
}
