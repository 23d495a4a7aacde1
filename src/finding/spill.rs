//! Fixed-size records that a run keeps to its end (run-level claims, the inputs their
//! findings may name): the last few thousand in memory, the rest in an unnamed temporary
//! file, so that what a run holds does not grow with its files.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};

/// The size of a record.
pub const RECORD: usize = 16;

pub type Record = [u8; RECORD];

/// Records held in memory before they go to disk: 64 KiB.
const TAIL: usize = 4096;

/// An append-only sequence of records.
#[derive(Debug, Default)]
pub struct Spill {
    /// The records not on disk, which follow those that are.
    tail: Vec<Record>,
    /// Created at the first spill; `None` while nothing is on disk.
    file: Option<File>,
    on_disk: usize,
    /// Creating or writing the file failed once: every later record stays in memory.
    in_memory: bool,
}

impl Spill {
    pub fn push(&mut self, record: Record) {
        self.tail.push(record);
        if self.tail.len() >= TAIL && !self.in_memory && self.spill().is_err() {
            // A full or read-only disk: memory it is (what is on disk stays readable).
            self.in_memory = true;
        }
    }

    /// Moves the tail to the end of the file.
    fn spill(&mut self) -> std::io::Result<()> {
        if self.file.is_none() {
            self.file = Some(tempfile::tempfile()?);
        }
        let Some(mut file) = self.file.as_ref() else {
            return Ok(());
        };
        file.seek(SeekFrom::Start((self.on_disk * RECORD) as u64))?;
        file.write_all(self.tail.as_flattened())?;
        self.on_disk += self.tail.len();
        self.tail.clear();
        Ok(())
    }

    /// How many records there are.
    pub fn records(&self) -> usize {
        self.on_disk + self.tail.len()
    }

    /// Record `i`; `None` past the end, or when the disk cannot give it back.
    pub fn get(&self, i: usize) -> Option<Record> {
        if i >= self.on_disk {
            return self.tail.get(i - self.on_disk).copied();
        }
        let mut file = self.file.as_ref()?;
        let mut record = [0; RECORD];
        file.seek(SeekFrom::Start((i * RECORD) as u64)).ok()?;
        file.read_exact(&mut record).ok()?;
        Some(record)
    }

    /// Every record in the order pushed, read from disk a chunk at a time (a chunk that
    /// cannot be read back ends the records there).
    pub fn iter(&self) -> impl Iterator<Item = Record> + '_ {
        let mut chunk: Vec<Record> = Vec::new();
        let mut next = 0;
        std::iter::from_fn(move || {
            let record = if next < self.on_disk {
                // Spills are whole tails: chunks start at multiples of `TAIL`.
                if next % TAIL == 0 {
                    chunk = self.read_chunk(next, (self.on_disk - next).min(TAIL))?;
                }
                chunk[next % TAIL]
            } else {
                *self.tail.get(next - self.on_disk)?
            };
            next += 1;
            Some(record)
        })
    }

    fn read_chunk(&self, from: usize, records: usize) -> Option<Vec<Record>> {
        let mut file = self.file.as_ref()?;
        let mut chunk = vec![[0; RECORD]; records];
        file.seek(SeekFrom::Start((from * RECORD) as u64)).ok()?;
        file.read_exact(chunk.as_flattened_mut()).ok()?;
        Some(chunk)
    }
}

/// Four numbers as a record, little-endian.
pub fn record_of(numbers: [u32; 4]) -> Record {
    let mut record = [0; RECORD];
    for (at, n) in record.chunks_exact_mut(4).zip(numbers) {
        at.copy_from_slice(&n.to_le_bytes());
    }
    record
}

/// The four numbers of a record.
pub fn numbers_of(record: Record) -> [u32; 4] {
    let mut numbers = [0; 4];
    for (n, at) in numbers.iter_mut().zip(record.chunks_exact(4)) {
        *n = u32::from_le_bytes([at[0], at[1], at[2], at[3]]);
    }
    numbers
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Past the tail the records go to disk; all come back in order, by iteration and
    /// one by one, whatever was asked before.
    #[test]
    fn records_come_back_in_order_from_disk_and_memory() {
        let mut spill = Spill::default();
        let n = 3 * TAIL + 17;
        for i in 0..n as u32 {
            spill.push(record_of([i, i * 2, u32::MAX - i, 7]));
        }
        assert_eq!(spill.on_disk, 3 * TAIL);
        assert_eq!(spill.records(), n);
        assert_eq!(spill.get(5).map(numbers_of), Some([5, 10, u32::MAX - 5, 7]));
        assert_eq!(spill.get(n), None);
        let back: Vec<u32> = spill.iter().map(|r| numbers_of(r)[0]).collect();
        assert_eq!(back, (0..n as u32).collect::<Vec<_>>());
        let last = (n - 1) as u32;
        assert_eq!(
            spill.get(n - 1).map(numbers_of),
            Some([last, last * 2, u32::MAX - last, 7])
        );
        // Pushing after reading appends, not overwrites.
        spill.push(record_of([1, 2, 3, 4]));
        spill.push(record_of([5, 6, 7, 8]));
        for _ in 0..TAIL {
            spill.push(record_of([9; 4]));
        }
        assert_eq!(spill.get(n).map(numbers_of), Some([1, 2, 3, 4]));
        assert_eq!(spill.iter().count(), n + 2 + TAIL);
        assert_eq!(spill.iter().nth(n + 1).map(numbers_of), Some([5, 6, 7, 8]));
    }

    /// Records that never fill the tail stay in memory: no file is made.
    #[test]
    fn a_few_records_stay_in_memory() {
        let mut spill = Spill::default();
        spill.push(record_of([1, 2, 3, 4]));
        assert!(spill.file.is_none());
        assert_eq!(
            spill.iter().map(numbers_of).collect::<Vec<_>>(),
            [[1, 2, 3, 4]]
        );
    }
}
