//! `a2alint redact`: rewrites captures in place with every credential replaced by
//! `<redacted>`, keeping framing right, atomically; `--check` and `--diff` only look.

mod edit;
mod har;
mod http;
mod pcap;

use std::io::{self, Write};
use std::path::Path;

use crate::input::capture::Kind;
use crate::input::capture::wire::refresh_checksums;
use crate::input::walk::Input;

/// What `redact` did to one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Redaction {
    pub path: String,
    /// How many credentials were (or would be) replaced.
    pub replaced: usize,
    pub redacted: Vec<u8>,
    edits: Vec<edit::Edit>,
}

/// The redacted bytes of a capture, when it holds credentials; an error when it holds
/// some that a2alint cannot replace (the file is then left as it is).
pub fn redact_source(path: &str, bytes: &[u8]) -> Result<Option<Redaction>, String> {
    let kind = Kind::of(path, bytes);
    let pcap = kind == Kind::Pcap;
    // A pcap's edits are counted as they are planned: an HPACK value's replacement is a
    // Huffman coding, not `*`s.
    let (mut edits, counted) = match kind {
        Kind::Http => (http::plan(bytes), None),
        Kind::Har => (har::plan(bytes), None),
        Kind::Pcap => {
            let (edits, count) = pcap::plan(bytes).map_err(|why| format!("{path}: {why}"))?;
            (edits, Some(count))
        }
    };
    if edits.is_empty() {
        return Ok(None);
    }
    let mut redacted = if pcap {
        edits.sort_by_key(|e| (e.range.start, e.range.end));
        edit::overwrite(bytes, &edits)
    } else {
        edit::apply(bytes, &mut edits)
    };
    if pcap {
        let edited: Vec<_> = edits.iter().map(|e| e.range.clone()).collect();
        refresh_checksums(&mut redacted, &edited);
    }
    // Content-Length and chunk-size edits are bookkeeping, not credentials.
    let placeholder = crate::input::secrets::PLACEHOLDER.as_bytes();
    let replaced = counted.unwrap_or_else(|| {
        (edits.iter())
            .filter(|e| {
                memchr::memmem::find(&e.replacement, placeholder).is_some()
                    || (!e.replacement.is_empty() && e.replacement.iter().all(|&b| b == b'*'))
            })
            .count()
    });
    Ok((redacted != bytes).then(|| Redaction {
        path: path.to_string(),
        replaced,
        redacted,
        edits,
    }))
}

/// How `redact` runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Write,
    /// Change nothing; report which files would change.
    Check,
    /// Change nothing; show the changed lines (credentials masked).
    Diff,
}

/// Redacts `inputs`; returns how many files changed (or would), and the files that
/// could not be read or written. `quiet` leaves out the line per file that says what was
/// (or would be) redacted; a diff and a redacted standard input are written still.
pub fn run(
    inputs: &[Input],
    mode: Mode,
    quiet: bool,
    out: &mut dyn Write,
) -> io::Result<(usize, Vec<String>)> {
    let mut changed = 0;
    let mut errors = Vec::new();
    for input in inputs {
        let bytes = match input.read(crate::input::walk::DEFAULT_MAX_FILE_SIZE) {
            Ok(bytes) => bytes,
            Err(e) => {
                errors.push(e.to_string());
                continue;
            }
        };
        let redaction = match redact_source(input.display_name(), &bytes) {
            Ok(Some(redaction)) => redaction,
            Ok(None) => continue,
            Err(why) => {
                errors.push(why);
                continue;
            }
        };
        changed += 1;
        match (mode, input.path()) {
            (Mode::Check, _) if quiet => {}
            (Mode::Check, _) => writeln!(
                out,
                "{}: would redact {} credential(s)",
                redaction.path, redaction.replaced
            )?,
            (Mode::Diff, _) if Kind::of(&redaction.path, &bytes) == Kind::Pcap => {
                out.write_all(pcap::preview(&redaction.path, &bytes, &redaction.edits).as_bytes())?
            }
            (Mode::Diff, _) => out.write_all(
                edit::preview(
                    &redaction.path,
                    &bytes,
                    &redaction.redacted,
                    &redaction.edits,
                )
                .as_bytes(),
            )?,
            (Mode::Write, Some(path)) => match write_atomically(path, &redaction.redacted) {
                Ok(()) if quiet => {}
                Ok(()) => writeln!(
                    out,
                    "{}: redacted {} credential(s)",
                    redaction.path, redaction.replaced
                )?,
                Err(e) => errors.push(format!("{}: {e}", redaction.path)),
            },
            // Standard input has no file to rewrite: the redacted capture goes to stdout.
            (Mode::Write, None) => out.write_all(&redaction.redacted)?,
        }
    }
    Ok((changed, errors))
}

/// Writes next to `path` and renames over it, so a failure leaves the original untouched.
fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let temporary = path.with_file_name(format!(".{name}.a2alint-redact-{}", std::process::id()));
    let result = std::fs::write(&temporary, bytes).and_then(|()| {
        if let Ok(meta) = std::fs::metadata(path) {
            std::fs::set_permissions(&temporary, meta.permissions())?;
        }
        std::fs::rename(&temporary, path)
    });
    if result.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_write_leaves_the_original_untouched() {
        let dir = tempfile::tempdir().unwrap();
        // A directory where the file should be: the rename over it fails.
        let target = dir.path().join("capture.http");
        std::fs::create_dir(&target).unwrap();
        std::fs::write(target.join("keep"), "original").unwrap();
        assert!(write_atomically(&target, b"redacted").is_err());
        assert_eq!(
            std::fs::read_to_string(target.join("keep")).unwrap(),
            "original"
        );
        let leftovers: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(leftovers.len(), 1, "the temporary file is removed");
    }
}
