//! The first step of a run: turns the paths a user named into a sorted list of capture
//! files, reporting unreadable paths without stopping.

use std::io::Read;
use std::path::{Path, PathBuf};

use walkdir::WalkDir;

/// The largest capture read unless `--max-file-size` says otherwise: generous, but a
/// bound, so that a stray multi-gigabyte file cannot exhaust memory.
pub const DEFAULT_MAX_FILE_SIZE: u64 = 4 << 30;

/// Parses a size such as `512K`, `200M`, `2G` or a number of bytes.
pub fn parse_size(text: &str) -> Result<u64, String> {
    let text = text.trim();
    let (digits, unit) = text.split_at(
        text.find(|c: char| !c.is_ascii_digit())
            .unwrap_or(text.len()),
    );
    let number: u64 = digits
        .parse()
        .map_err(|_| format!("`{text}` is not a size like 200M or 2G"))?;
    let shift = match unit
        .to_ascii_uppercase()
        .trim_end_matches("IB")
        .trim_end_matches('B')
    {
        "" => 0,
        "K" => 10,
        "M" => 20,
        "G" => 30,
        _ => return Err(format!("`{text}`: unknown unit (use K, M or G)")),
    };
    number
        .checked_mul(1 << shift)
        .ok_or_else(|| format!("`{text}` is too large"))
}

/// Directories never searched for captures.
const SKIPPED_DIRS: &[&str] = &["target", "node_modules"];
/// Extensions of capture files found in directories.
const CAPTURE_EXTENSIONS: &[&str] = &["http", "har", "pcap", "pcapng", "cap"];

/// One capture to lint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    /// A file, shown as `name`. A run holds one per file to the end, so it is kept small:
    /// the path is `name` itself unless they differ (a `./` prefix, `\\` separators).
    File {
        name: Box<str>,
        path: Option<Box<Path>>,
    },
    /// `-`: read standard input, shown under `name`.
    Stdin { name: String },
}

/// A path that could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputError {
    pub path: String,
    pub message: String,
}

impl std::fmt::Display for InputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

impl Input {
    pub fn display_name(&self) -> &str {
        match self {
            Input::File { name, .. } => name,
            Input::Stdin { name } => name,
        }
    }

    /// The file's path; `None` for standard input.
    pub fn path(&self) -> Option<&Path> {
        match self {
            Input::File { name, path } => Some(path.as_deref().unwrap_or(Path::new(&**name))),
            Input::Stdin { .. } => None,
        }
    }

    /// Reads the whole input, refusing one larger than `max_bytes` (`--max-file-size`)
    /// without reading more than that.
    pub fn read(&self, max_bytes: u64) -> Result<Vec<u8>, InputError> {
        self.read_using(max_bytes, false)
    }

    /// [`Input::read`]; with `halves`, a large file is read by two threads at once (the
    /// run has more than one).
    pub fn read_using(&self, max_bytes: u64, halves: bool) -> Result<Vec<u8>, InputError> {
        let error = |message: String| InputError {
            path: self.display_name().to_string(),
            message,
        };
        let read = match self.path() {
            Some(path) => std::fs::File::open(path).and_then(|file| {
                let expected = file.metadata()?.len();
                super::read::read_at_most(file, max_bytes + 1, expected, halves)
            }),
            None => {
                let mut bytes = Vec::new();
                (std::io::stdin().lock().take(max_bytes + 1))
                    .read_to_end(&mut bytes)
                    .map(|_| bytes)
            }
        };
        let bytes = read.map_err(|e| error(e.to_string()))?;
        if bytes.len() as u64 > max_bytes {
            return Err(error(format!(
                "larger than --max-file-size ({} MiB); skipped",
                max_bytes >> 20
            )));
        }
        Ok(bytes)
    }
}

/// The inputs found under `paths`, and the paths that could not be walked.
#[derive(Debug, Default)]
pub struct Walk {
    pub inputs: Vec<Input>,
    pub errors: Vec<InputError>,
}

impl FromIterator<Result<Input, InputError>> for Walk {
    fn from_iter<I: IntoIterator<Item = Result<Input, InputError>>>(found: I) -> Walk {
        let mut walk = Walk::default();
        for item in found {
            match item {
                Ok(input) => walk.inputs.push(input),
                Err(error) => walk.errors.push(error),
            }
        }
        walk
    }
}

/// Which files a walk leaves out (the configuration's `exclude`), by shown name.
pub type Excluded<'a> = dyn Fn(&str) -> bool + Sync + 'a;

/// The captures found under `paths`, collected: see [`Walker`].
pub fn walk(paths: &[PathBuf], stdin_name: &str, excluded: &Excluded<'_>) -> Walk {
    Walker::new(paths, stdin_name, excluded).collect()
}

/// Expands `paths` one input at a time, as a run takes them (a run of a million files
/// holds none of their names): `-` is standard input, a file is taken whatever its
/// extension, a directory yields its capture files in sorted order, skipping hidden
/// directories, `target/` and `node_modules/`, and files `excluded` names. A path that
/// cannot be walked is an `Err` in its place, and the walk goes on.
pub struct Walker<'a> {
    paths: std::slice::Iter<'a, PathBuf>,
    stdin_name: &'a str,
    excluded: &'a Excluded<'a>,
    /// The directory being walked, and its path for errors without one.
    dir: Option<(&'a Path, Entries)>,
}

type Entries = walkdir::FilterEntry<walkdir::IntoIter, fn(&walkdir::DirEntry) -> bool>;

impl<'a> Walker<'a> {
    pub fn new(paths: &'a [PathBuf], stdin_name: &'a str, excluded: &'a Excluded<'a>) -> Self {
        Walker {
            paths: paths.iter(),
            stdin_name,
            excluded,
            dir: None,
        }
    }

    /// The next capture of the directory being walked, if any is left.
    fn next_in_dir(&mut self) -> Option<Result<Input, InputError>> {
        let (root, entries) = self.dir.as_mut()?;
        for entry in entries {
            match entry {
                Ok(entry) if entry.file_type().is_file() && is_capture(entry.path()) => {
                    let input = file_input(entry.path());
                    if !(self.excluded)(input.display_name()) {
                        return Some(Ok(input));
                    }
                }
                Ok(_) => {}
                Err(error) => {
                    return Some(Err(InputError {
                        path: error
                            .path()
                            .map_or_else(|| display_path(root), display_path),
                        message: walk_error_message(&error),
                    }));
                }
            }
        }
        self.dir = None;
        None
    }
}

impl Iterator for Walker<'_> {
    type Item = Result<Input, InputError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(found) = self.next_in_dir() {
                return Some(found);
            }
            let path = self.paths.next()?;
            if path.as_os_str() == "-" {
                return Some(Ok(Input::Stdin {
                    name: self.stdin_name.to_string(),
                }));
            }
            match std::fs::metadata(path) {
                Ok(meta) if meta.is_dir() => self.dir = Some((path, dir_entries(path))),
                Ok(_) => return Some(Ok(file_input(path))),
                Err(e) => {
                    return Some(Err(InputError {
                        path: display_path(path),
                        message: e.to_string(),
                    }));
                }
            }
        }
    }
}

fn dir_entries(root: &Path) -> Entries {
    let searched: fn(&walkdir::DirEntry) -> bool =
        |entry| entry.depth() == 0 || !is_skipped_dir(entry);
    WalkDir::new(root)
        .follow_links(true)
        // Siblings' paths differ only in their names; `sort_by_file_name` splits paths anew.
        .sort_by(|a, b| a.path().as_os_str().cmp(b.path().as_os_str()))
        .into_iter()
        .filter_entry(searched)
}

/// Pull-request mode: exactly the capture files listed in `list` (one path per line),
/// skipping paths that no longer exist (deleted in the change), other file types and
/// `excluded` files; nothing is walked.
pub fn from_list<'a>(
    list: &'a str,
    excluded: &'a Excluded<'a>,
) -> impl Iterator<Item = Result<Input, InputError>> + Send + 'a {
    (list.lines().map(str::trim).filter(|l| !l.is_empty()))
        .map(Path::new)
        .filter(|path| path.is_file() && is_capture(path))
        .map(file_input)
        .filter(|input| !excluded(input.display_name()))
        .map(Ok)
}

fn walk_error_message(error: &walkdir::Error) -> String {
    if let Some(ancestor) = error.loop_ancestor() {
        return format!("symbolic link loop back to {}", display_path(ancestor));
    }
    error
        .io_error()
        .map_or_else(|| error.to_string(), ToString::to_string)
}

fn is_skipped_dir(entry: &walkdir::DirEntry) -> bool {
    let name = entry.file_name().to_string_lossy();
    entry.file_type().is_dir() && (name.starts_with('.') || SKIPPED_DIRS.contains(&name.as_ref()))
}

fn is_capture(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| CAPTURE_EXTENSIONS.iter().any(|c| e.eq_ignore_ascii_case(c)))
}

fn file_input(path: &Path) -> Input {
    let name = display_path(path);
    let path = (Path::new(&name) != path).then(|| path.into());
    Input::File {
        name: name.into(),
        path,
    }
}

/// The path as reports show it: as the user wrote it, with `/` separators and no `./`.
pub fn display_path(path: &Path) -> String {
    let text = path.to_string_lossy().replace('\\', "/");
    let mut rest = text.as_str();
    while let Some(stripped) = rest.strip_prefix("./") {
        rest = stripped;
    }
    if rest.is_empty() {
        ".".into()
    } else {
        rest.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_with_units() {
        assert_eq!(parse_size("1024"), Ok(1024));
        assert_eq!(parse_size("64K"), Ok(64 << 10));
        assert_eq!(parse_size("200M"), Ok(200 << 20));
        assert_eq!(parse_size("2GiB"), Ok(2 << 30));
        assert!(parse_size("lots").is_err());
        assert!(parse_size("5T").is_err());
    }

    /// The walk hands over each file as it finds it: what it has not reached yet is
    /// not read, so a file written there after the walk began is still found.
    #[test]
    fn the_walk_finds_files_as_it_goes() {
        let dir = tempfile::tempdir().unwrap();
        for sub in ["a", "b"] {
            std::fs::create_dir(dir.path().join(sub)).unwrap();
        }
        std::fs::write(dir.path().join("a/1.http"), "").unwrap();
        std::fs::write(dir.path().join("b/3.http"), "").unwrap();
        let paths = [dir.path().to_path_buf()];
        let mut walker = Walker::new(&paths, "-", &|_| false);
        let name = |found: Option<Result<Input, InputError>>| {
            let input = found.unwrap().unwrap();
            let path = Path::new(input.display_name());
            let dir = path
                .parent()
                .unwrap()
                .file_name()
                .unwrap()
                .to_string_lossy();
            format!("{dir}/{}", path.file_name().unwrap().to_string_lossy())
        };
        assert_eq!(name(walker.next()), "a/1.http");
        std::fs::write(dir.path().join("b/2.har"), "").unwrap();
        std::fs::write(dir.path().join("b/4.txt"), "").unwrap();
        assert_eq!(name(walker.next()), "b/2.har");
        assert_eq!(name(walker.next()), "b/3.http");
        assert!(walker.next().is_none());
    }

    /// A path that cannot be walked takes its place in the order, and the walk goes on.
    #[test]
    fn a_missing_path_is_an_error_in_its_place() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("x.http"), "").unwrap();
        let paths = [
            dir.path().join("gone"),
            dir.path().join("x.http"),
            PathBuf::from("-"),
        ];
        let found: Vec<_> = Walker::new(&paths, "stdin.http", &|_| false).collect();
        assert!(matches!(&found[0], Err(e) if e.path.ends_with("gone")));
        assert!(matches!(&found[1], Ok(Input::File { name, .. }) if name.ends_with("x.http")));
        assert_eq!(
            found[2],
            Ok(Input::Stdin {
                name: "stdin.http".into()
            })
        );
        assert_eq!(found.len(), 3);
    }
}
