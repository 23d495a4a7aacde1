//! The inputs a run may still name at its end (the files the run-level rules keep facts
//! of), kept in an unnamed temporary file rather than in memory: a run of a million
//! files holds 16 bytes for each, not its name.

use std::cell::RefCell;
use std::collections::HashMap;
use std::fs::File;
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};

use crate::input::walk::Input;

/// Where the records go: a temporary file, or memory when none can be made.
enum Store {
    Disk { file: BufWriter<File>, len: u64 },
    Memory(Vec<u8>),
}

/// One input kept: its file number in the run, its input number, where its record is.
#[derive(Clone, Copy)]
struct Kept {
    file: u32,
    input: u32,
    at: u64,
}

/// A record is a tag, then the name, then the path when it differs from the name, each
/// as a little-endian `u32` length and the bytes.
const FILE: u8 = 0;
const FILE_WITH_PATH: u8 = 1;
const STDIN: u8 = 2;

pub struct RunInputs {
    /// In a cell: reading a record back moves the file's position.
    store: RefCell<Store>,
    /// In file order: inputs are kept as the run goes.
    kept: Vec<Kept>,
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
            kept: Vec::new(),
            whole: HashMap::new(),
        }
    }

    /// Keeps `source`, input number `input`, as file `file` (files come in order).
    pub fn keep(&mut self, file: usize, input: usize, source: &Input) {
        let numbers = (u32::try_from(file).ok()).zip(u32::try_from(input).ok());
        let (Some(record), Some((file_no, input_no))) = (record_of(source), numbers) else {
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
        self.kept.push(Kept {
            file: file_no,
            input: input_no,
            at,
        });
    }

    /// The input number and the input of file `file`, if it was kept (and its record
    /// can be read back).
    pub fn get(&self, file: usize) -> Option<(usize, Input)> {
        if let Some(whole) = self.whole.get(&file) {
            return Some(whole.clone());
        }
        let found = (self.kept).binary_search_by_key(&file, |k| k.file as usize);
        let kept = self.kept[found.ok()?];
        let source = match &mut *self.store.borrow_mut() {
            Store::Disk { file, .. } => {
                file.flush().ok()?;
                let file = file.get_mut();
                file.seek(SeekFrom::Start(kept.at)).ok()?;
                let source = read_record(&mut *file);
                file.seek(SeekFrom::End(0)).ok()?;
                source?
            }
            Store::Memory(bytes) => read_record(&mut bytes.get(kept.at as usize..)?)?,
        };
        Some((kept.input as usize, source))
    }
}

/// The record of `source`; `None` for a path that is not UTF-8.
fn record_of(source: &Input) -> Option<Vec<u8>> {
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
