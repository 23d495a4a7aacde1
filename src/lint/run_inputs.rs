//! The inputs a run may still name at its end (the files the run-level rules keep facts
//! of), kept in unnamed temporary files rather than in memory: the names, and a 16-byte
//! record of each (file, input, where its name is) spilled past a few thousand.

use std::cell::RefCell;
use std::collections::HashMap;
use std::fs::File;
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};

use crate::finding::spill::{Spill, numbers_of, record_of};
use crate::input::walk::Input;

/// Where the records go: a temporary file, or memory when none can be made.
enum Store {
    Disk { file: BufWriter<File>, len: u64 },
    Memory(Vec<u8>),
}

/// A record is a tag, then the name, then the path when it differs from the name, each
/// as a little-endian `u32` length and the bytes.
const FILE: u8 = 0;
const FILE_WITH_PATH: u8 = 1;
const STDIN: u8 = 2;

pub struct RunInputs {
    /// In a cell: reading a record back moves the file's position.
    store: RefCell<Store>,
    /// Each input kept, in file order (inputs are kept as the run goes): its file
    /// number in the run, its input number, and where its name is (as two halves).
    kept: Spill,
    /// Inputs kept whole: a path that is not UTF-8, a record the disk refused, a run
    /// past `u32` files (all rare).
    whole: HashMap<usize, (usize, Input)>,
}

impl Default for RunInputs {
    fn default() -> Self {
        let store = match tempfile::tempfile() {
            Ok(file) => Store::Disk {
                file: BufWriter::new(file),
                len: 0,
            },
            Err(_) => Store::Memory(Vec::new()),
        };
        RunInputs::on(store)
    }
}

impl RunInputs {
    /// Inputs kept in memory: for runs of a file or two.
    pub fn in_memory() -> Self {
        RunInputs::on(Store::Memory(Vec::new()))
    }

    fn on(store: Store) -> Self {
        RunInputs {
            store: RefCell::new(store),
            kept: Spill::default(),
            whole: HashMap::new(),
        }
    }

    /// Keeps `source`, input number `input`, as file `file` (files come in order).
    pub fn keep(&mut self, file: usize, input: usize, source: &Input) {
        let numbers = (u32::try_from(file).ok()).zip(u32::try_from(input).ok());
        let (Some(record), Some((file_no, input_no))) = (name_record(source), numbers) else {
            self.whole.insert(file, (input, source.clone()));
            return;
        };
        let at = match self.store.get_mut() {
            Store::Disk { file: spool, len } => {
                if spool.write_all(&record).is_err() {
                    self.whole.insert(file, (input, source.clone()));
                    return;
                }
                *len += record.len() as u64;
                *len - record.len() as u64
            }
            Store::Memory(bytes) => {
                bytes.extend_from_slice(&record);
                (bytes.len() - record.len()) as u64
            }
        };
        let (high, low) = ((at >> 32) as u32, at as u32);
        (self.kept).push(record_of([file_no, input_no, high, low]));
    }

    /// The input number and the input of file `file`, if it was kept (and its record
    /// can be read back).
    pub fn get(&self, file: usize) -> Option<(usize, Input)> {
        if let Some(whole) = self.whole.get(&file) {
            return Some(whole.clone());
        }
        let [_, input, high, low] = self.find(file)?;
        let at = (u64::from(high) << 32) | u64::from(low);
        let source = match &mut *self.store.borrow_mut() {
            Store::Disk { file, .. } => {
                file.flush().ok()?;
                let file = file.get_mut();
                file.seek(SeekFrom::Start(at)).ok()?;
                let source = read_record(&mut *file);
                file.seek(SeekFrom::End(0)).ok()?;
                source?
            }
            Store::Memory(bytes) => read_record(&mut bytes.get(at as usize..)?)?,
        };
        Some((input as usize, source))
    }

    /// The record of file `file`, by binary search over the records in file order.
    fn find(&self, file: usize) -> Option<[u32; 4]> {
        let (mut low, mut high) = (0, self.kept.records());
        while low < high {
            let middle = (low + high) / 2;
            let numbers = numbers_of(self.kept.get(middle)?);
            match (numbers[0] as usize).cmp(&file) {
                std::cmp::Ordering::Less => low = middle + 1,
                std::cmp::Ordering::Greater => high = middle,
                std::cmp::Ordering::Equal => return Some(numbers),
            }
        }
        None
    }
}

/// The record of `source`; `None` for a path that is not UTF-8.
fn name_record(source: &Input) -> Option<Vec<u8>> {
    let (tag, name, path) = match source {
        Input::Stdin { name } => (STDIN, name.as_str(), None),
        Input::File { name, path: None } => (FILE, &**name, None),
        Input::File {
            name,
            path: Some(path),
        } => (FILE_WITH_PATH, &**name, Some(path.to_str()?)),
    };
    let mut record = Vec::with_capacity(9 + name.len() + path.map_or(0, str::len));
    record.push(tag);
    for part in std::iter::once(name).chain(path) {
        record.extend_from_slice(&u32::try_from(part.len()).ok()?.to_le_bytes());
        record.extend_from_slice(part.as_bytes());
    }
    Some(record)
}

fn read_record(from: &mut dyn Read) -> Option<Input> {
    let mut tag = [0];
    from.read_exact(&mut tag).ok()?;
    let mut part = || -> Option<String> {
        let mut len = [0; 4];
        from.read_exact(&mut len).ok()?;
        let mut bytes = vec![0; u32::from_le_bytes(len) as usize];
        from.read_exact(&mut bytes).ok()?;
        String::from_utf8(bytes).ok()
    };
    let name = part()?;
    Some(match tag[0] {
        STDIN => Input::Stdin { name },
        FILE => Input::File {
            name: name.into(),
            path: None,
        },
        FILE_WITH_PATH => Input::File {
            name: name.into(),
            path: Some(std::path::PathBuf::from(part()?).into()),
        },
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(name: &str, path: Option<&str>) -> Input {
        Input::File {
            name: name.into(),
            path: path.map(|p| std::path::PathBuf::from(p).into()),
        }
    }

    /// What is kept comes back as it was, on disk and in memory alike; what was not
    /// kept does not come back.
    #[test]
    fn kept_inputs_come_back_whole() {
        let inputs = [
            (0, 0, file("a.http", None)),
            (1, 2, file("b/c.har", Some("./b/c.har"))),
            (3, 5, Input::Stdin { name: "-".into() }),
        ];
        for memory in [false, true] {
            let mut run = match memory {
                true => RunInputs::in_memory(),
                false => RunInputs::default(),
            };
            for (file, input, source) in &inputs {
                run.keep(*file, *input, source);
            }
            for (file, input, source) in &inputs {
                assert_eq!(run.get(*file), Some((*input, source.clone())), "{memory}");
            }
            assert_eq!(run.get(2), None);
            assert_eq!(run.get(7), None);
            // Asking again, and keeping more after asking, still works.
            run.keep(4, 6, &file("d.pcap", None));
            assert_eq!(run.get(1), Some((2, inputs[1].2.clone())));
            assert_eq!(run.get(4), Some((6, file("d.pcap", None))));
        }
    }
}
