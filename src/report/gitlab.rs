//! `--format gitlab`: GitLab Code Quality JSON.

use std::io::{self, Write};

use crate::lint::FileReport;
use crate::report::Context;

pub fn write(_reports: &[FileReport], _context: &Context, _out: &mut dyn Write) -> io::Result<()> {
    Err(io::Error::other("this format is being written"))
}
