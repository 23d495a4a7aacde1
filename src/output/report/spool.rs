//! Report writing, for the formats whose opening needs the run's totals (junit's
//! `<testsuites tests= failures=>`, github's opening notice, json's `files` before its
//! `diagnostics`): the body goes to an unnamed temporary file as files complete and is
//! copied after the opening at the end, so memory stays flat and the bytes are those of
//! a document written at once.

use std::fs::File;
use std::io::{self, BufWriter, Seek, SeekFrom, Write};

/// A body being written, in a temporary file the system deletes however the run ends.
pub struct Spool {
    file: BufWriter<File>,
}

impl Spool {
    pub fn new() -> io::Result<Spool> {
        let file = tempfile::tempfile().map_err(|e| {
            io::Error::new(
                e.kind(),
                format!("cannot create a temporary file for the report: {e}"),
            )
        })?;
        Ok(Spool {
            file: BufWriter::new(file),
        })
    }

    /// Writes everything spooled to `out`.
    pub fn copy_to(self, out: &mut dyn Write) -> io::Result<()> {
        let mut file = self.file.into_inner().map_err(|e| e.into_error())?;
        file.seek(SeekFrom::Start(0))?;
        io::copy(&mut file, out)?;
        Ok(())
    }
}

impl Write for Spool {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.file.write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.file.write_all(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file.flush()
    }
}
