//! Reading a capture file into memory for the walk's inputs: in one go, or, for a large
//! file in a run with threads to spare, in two halves at once, so that copying a HAR log
//! of hundreds of MB out of the page cache (and faulting in the fresh buffer) is not all
//! on the thread that then lints it.

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};

/// Files from this size on are read in halves when that is asked for: a shorter read is
/// over too soon for a second thread to be worth starting.
const HALVES_FROM: u64 = 8 << 20;

/// Reads at most `limit` bytes of a file its metadata says is `expected` bytes long, into
/// a buffer with room for them and one more byte (the read that sees the end then needs
/// no growth), which is read into as it is, not zeroed first. A file that grew since is
/// read on, still up to `limit`. With `halves`, a large file is read by two threads
/// instead ([`read_in_halves`]).
pub(super) fn read_at_most(
    mut file: File,
    limit: u64,
    expected: u64,
    halves: bool,
) -> io::Result<Vec<u8>> {
    if halves && expected >= HALVES_FROM && expected < limit {
        if let Some(mut bytes) = read_in_halves(&file, expected)? {
            file.seek(SeekFrom::Start(expected))?;
            file.take(limit - expected).read_to_end(&mut bytes)?;
            return Ok(bytes);
        }
        // Shorter than its metadata said: read as it is now, from the start.
        file.rewind()?;
    }
    let first = expected.saturating_add(1).min(limit);
    let mut bytes = Vec::with_capacity(usize::try_from(first).unwrap_or(usize::MAX));
    (&mut file).take(first).read_to_end(&mut bytes)?;
    if bytes.len() as u64 == first && first < limit {
        file.take(limit - first).read_to_end(&mut bytes)?;
    }
    Ok(bytes)
}

/// The first `len` bytes of `file`, the second half read on a thread of its own; `None`
/// if the file is shorter now. The buffer is asked for zeroed: a fresh one comes from the
/// system zeroed already, and its pages are first touched by the reads, on both threads.
#[cfg(unix)]
fn read_in_halves(file: &File, len: u64) -> io::Result<Option<Vec<u8>>> {
    use std::os::unix::fs::FileExt;
    let Ok(len) = usize::try_from(len) else {
        return Ok(None);
    };
    let mut bytes = vec![0; len];
    let (first, second) = bytes.split_at_mut(len / 2);
    let at = first.len() as u64;
    let read = std::thread::scope(|scope| {
        let other = scope.spawn(move || file.read_exact_at(second, at));
        let here = file.read_exact_at(first, 0);
        let there = (other.join()).unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        here.and(there)
    });
    match read {
        Ok(()) => Ok(Some(bytes)),
        Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => Ok(None),
        Err(e) => Err(e),
    }
}

#[cfg(not(unix))]
fn read_in_halves(_file: &File, _len: u64) -> io::Result<Option<Vec<u8>>> {
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The size metadata gave may be out of date: a file that grew or shrank since is read
    /// as it is now, never past the limit, in one go or in halves.
    #[test]
    fn reads_what_the_file_holds_up_to_the_limit() {
        let mut file = tempfile::tempfile().unwrap();
        std::io::Write::write_all(&mut file, b"0123456789").unwrap();
        for halves in [false, true] {
            let mut read = |limit, expected| {
                file.rewind().unwrap();
                read_at_most(file.try_clone().unwrap(), limit, expected, halves).unwrap()
            };
            assert_eq!(read(100, 10), b"0123456789");
            assert_eq!(read(100, 3), b"0123456789");
            assert_eq!(read(100, 50), b"0123456789");
            assert_eq!(read(5, 10), b"01234");
            assert_eq!(read(5, 2), b"01234");
            assert_eq!(read(11, 10), b"0123456789");
        }
    }

    /// A large file read in halves is the file, including what it grew by since its size
    /// was taken, and one that shrank is read as it is.
    #[test]
    fn a_large_file_read_in_halves_is_the_file() {
        let len = HALVES_FROM as usize + 3;
        let content: Vec<u8> = (0..len + 5).map(|i| (i % 251) as u8).collect();
        let mut file = tempfile::tempfile().unwrap();
        std::io::Write::write_all(&mut file, &content[..len]).unwrap();
        let read = |file: &mut File, limit: u64, expected: u64| {
            file.rewind().unwrap();
            read_at_most(file.try_clone().unwrap(), limit, expected, true).unwrap()
        };
        assert_eq!(read(&mut file, u64::MAX, len as u64), &content[..len]);
        assert_eq!(read(&mut file, len as u64 + 1, len as u64), &content[..len]);
        // Shrank since: the metadata said more than there is.
        assert_eq!(read(&mut file, u64::MAX, len as u64 + 5), &content[..len]);
        // Grew since: the metadata said less; read on, up to the limit.
        file.seek(SeekFrom::End(0)).unwrap();
        std::io::Write::write_all(&mut file, &content[len..]).unwrap();
        assert_eq!(read(&mut file, u64::MAX, len as u64), content);
        assert_eq!(
            read(&mut file, len as u64 + 2, len as u64),
            &content[..len + 2]
        );
    }
}
