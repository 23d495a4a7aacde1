//! Where machine formats, fingerprints and baselines say a file is: relative to the
//! repository root, whatever directory a2alint ran in.
//!
//! Code scanning, GitLab Code Quality and annotations resolve paths against the checkout
//! root, and a baseline or fingerprint must name a file the same way from every directory
//! (linter-conventions §2 item 6): `cd captures && a2alint check x.http` and
//! `a2alint check captures/x.http` report `captures/x.http` alike. The human and concise
//! formats keep the path as the user typed it.

use std::path::{Component, Path, PathBuf};

/// The name standard input goes by when `--stdin-filename` is not given: not a path, so
/// it is never made relative to anything.
const STDIN_PLACEHOLDER: &str = "<stdin>";

/// The repository root: `explicit` (`--root`, relative to `cwd`), else the nearest
/// directory from `cwd` upward holding `.git`, else `config_dir` (the configuration
/// file's directory, which is `cwd` when there is none).
pub fn discover(cwd: &Path, explicit: Option<&Path>, config_dir: &Path) -> PathBuf {
    if let Some(dir) = explicit {
        return normalize(&cwd.join(dir));
    }
    match cwd.ancestors().find(|dir| dir.join(".git").exists()) {
        Some(dir) => normalize(dir),
        None => normalize(&cwd.join(config_dir)),
    }
}

/// A file's place as machine formats give it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Located {
    /// From the root, with `/` separators (`captures/x.http`); for a file outside the root,
    /// its absolute path with `/` separators; for a relative path that cannot be placed
    /// (no absolute `base`), the path as given with `/` separators.
    pub path: String,
    /// `path` is relative to the root.
    pub inside: bool,
}

/// Places `path` (as shown: relative to `base`, the current directory, or absolute)
/// against `root`. Paths are compared lexically (`.` and `..` resolved, the file may be
/// standard input), then, if that puts the file outside, by their canonical forms, so a
/// symbolic link in either still finds the file inside.
pub fn locate(path: &str, base: &Path, root: &Path) -> Located {
    match plainly_below(path, base, root) {
        Some(path) => Located { path, inside: true },
        None => locate_by_components(path, base, root),
    }
}

/// [`locate`] for any path, by its components.
fn locate_by_components(path: &str, base: &Path, root: &Path) -> Located {
    // `\` separates as `/` does, wherever the path was typed.
    let path = &slashed(path);
    let given = Path::new(path);
    let absolute = if given.is_absolute() {
        given.to_path_buf()
    } else if base.is_absolute() && path != STDIN_PLACEHOLDER {
        base.join(given)
    } else {
        return Located {
            path: slashed(path),
            inside: false,
        };
    };
    let absolute = normalize(&absolute);
    let root = normalize(root);
    if let Some(relative) = below(&absolute, &root) {
        return Located {
            path: relative,
            inside: true,
        };
    }
    if let (Some(file), Some(root)) = (canonical_file(&absolute), canonical_dir(&root))
        && let Some(relative) = below(&file, &root)
    {
        return Located {
            path: relative,
            inside: true,
        };
    }
    Located {
        path: slashed(&absolute.to_string_lossy()),
        inside: false,
    }
}

/// The path of a file from the repository root, as fingerprints and baselines key it:
/// [`locate`]'s path.
pub fn repo_path(path: &str, base: &Path, root: &Path) -> String {
    locate(path, base, root).path
}

/// The common case of [`locate`] decided on the text alone, as it would decide it: a
/// relative path of plain names (no `.`, `..`, `\\` or empty part) under a base of plain
/// names inside the root. Placing every file of a large run took 2.6 % of it otherwise.
fn plainly_below(path: &str, base: &Path, root: &Path) -> Option<String> {
    let plain = |text: &str| text.split('/').all(|part| !matches!(part, "" | "." | ".."));
    let (base, root) = (
        base.to_str()?.strip_prefix('/')?,
        root.to_str()?.strip_prefix('/')?,
    );
    let unusual = path.starts_with('/') || path.contains('\\') || path == STDIN_PLACEHOLDER;
    if unusual || !plain(path) || !plain(base) || !plain(root) {
        return None;
    }
    match base.strip_prefix(root) {
        Some("") => Some(path.to_string()),
        Some(below) => Some(format!("{}/{path}", below.strip_prefix('/')?)),
        None => None,
    }
}

/// `path` below `root`, its components joined with `/`; `None` outside it (or when it is
/// the root itself).
fn below(path: &Path, root: &Path) -> Option<String> {
    let relative = path.strip_prefix(root).ok()?;
    let parts: Vec<_> = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect();
    (!parts.is_empty()).then(|| slashed(&parts.join("/")))
}

/// Windows separators as `/`, so a path reads (and hashes) the same on every platform.
pub fn slashed(path: &str) -> String {
    path.replace('\\', "/")
}

/// A `file://` URI of an absolute path (`/` or `\` separators, a Windows drive or not),
/// percent-encoded; with `dir`, ending in `/` as a base URI must (SARIF §3.14.14).
pub fn file_uri(path: &str, dir: bool) -> String {
    let slashed = slashed(path);
    // A Windows path from `canonicalize` starts `//?/`; the drive after it is the path.
    let slashed = slashed.strip_prefix("//?/").unwrap_or(&slashed);
    let mut rooted = format!("/{}", slashed.trim_start_matches('/'));
    if dir && !rooted.ends_with('/') {
        rooted.push('/');
    }
    // `/C:/...`: the drive's colon stays, as RFC 8089 writes it.
    let drive = rooted.len() >= 3
        && rooted.as_bytes()[1].is_ascii_alphabetic()
        && rooted.as_bytes()[2] == b':';
    let mut uri = String::from("file://");
    for (i, byte) in rooted.bytes().enumerate() {
        if (drive && i == 2) || byte.is_ascii_alphanumeric() || b"-._~/".contains(&byte) {
            uri.push(char::from(byte));
        } else {
            uri.push_str(&format!("%{byte:02X}"));
        }
    }
    uri
}

/// Percent-encodes everything but unreserved characters and `/`, so names with spaces,
/// `#`, `%` or `:` stay one relative path and never read as a scheme or fragment.
pub fn encode_uri(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for byte in path.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~/".contains(&byte) {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// `file` with every symbolic link resolved, as `canonicalize` gives it, asking the file
/// system once: its directory's canonical form is remembered ([`canonical_dir`]), and only
/// the file itself, when a link, is resolved whole. A file outside the root is placed more
/// than once a run, and resolving each whole was most of a run's system time.
fn canonical_file(file: &Path) -> Option<PathBuf> {
    let (Some(dir), Some(name)) = (file.parent(), file.file_name()) else {
        return file.canonicalize().ok();
    };
    if std::fs::symlink_metadata(file)
        .ok()?
        .file_type()
        .is_symlink()
    {
        return file.canonicalize().ok();
    }
    Some(canonical_dir(dir)?.join(name))
}

/// `dir` canonicalized, remembered per thread for the last few directories asked for (the
/// root, and the directory of the files being placed, which come directory by directory).
fn canonical_dir(dir: &Path) -> Option<PathBuf> {
    use std::cell::RefCell;
    const KEPT: usize = 4;
    thread_local! {
        static KNOWN: RefCell<Vec<(PathBuf, Option<PathBuf>)>> = const { RefCell::new(Vec::new()) };
    }
    KNOWN.with_borrow_mut(|known| {
        if let Some(at) = known
            .iter()
            .position(|(asked, _)| asked.as_os_str() == dir.as_os_str())
        {
            // The most recent last, so the least recent is the one dropped.
            let entry = known.remove(at);
            let canonical = entry.1.clone();
            known.push(entry);
            return canonical;
        }
        let canonical = dir.canonicalize().ok();
        if known.len() == KEPT {
            known.remove(0);
        }
        known.push((dir.to_path_buf(), canonical.clone()));
        canonical
    })
}

/// Removes `.` and resolves `..` without touching the file system (the file may be stdin).
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(path: &str, base: &str) -> Located {
        locate(path, Path::new(base), Path::new("/repo"))
    }

    /// The shortcut decides as the walk over components would, or leaves it to it.
    #[test]
    fn plain_paths_are_placed_as_their_components_place_them() {
        let paths = [
            "x.http", "a/b.http", "./x.http", "a//b", "../x", "a\\b", "/repo/x", "<stdin>", "-",
        ];
        let dirs = [
            "/repo",
            "/repo/a",
            "/repo/a/b",
            "/repository",
            "/",
            "/repo/",
            "/elsewhere",
            "/repo/./a",
            "relative",
        ];
        let mut shortcuts = 0;
        for path in paths {
            for base in dirs {
                for root in dirs {
                    let (base, root) = (Path::new(base), Path::new(root));
                    let slow = locate_by_components(path, base, root);
                    if let Some(fast) = plainly_below(path, base, root) {
                        shortcuts += 1;
                        assert_eq!(
                            Located {
                                path: fast,
                                inside: true
                            },
                            slow,
                            "{path} {base:?} {root:?}"
                        );
                    }
                }
            }
        }
        assert!(shortcuts >= 12, "{shortcuts}");
    }

    #[test]
    fn paths_are_placed_from_the_root_whatever_the_directory() {
        let inside = |path: &str| Located {
            path: path.into(),
            inside: true,
        };
        assert_eq!(at("captures/x.http", "/repo"), inside("captures/x.http"));
        assert_eq!(at("x.http", "/repo/captures"), inside("captures/x.http"));
        assert_eq!(
            at("./x.http", "/repo/captures/."),
            inside("captures/x.http")
        );
        assert_eq!(
            at("../captures/x.http", "/repo/tests"),
            inside("captures/x.http")
        );
        assert_eq!(
            at("/repo/captures/x.http", "/elsewhere"),
            inside("captures/x.http")
        );
        assert_eq!(at("captures\\x.http", "/repo"), inside("captures/x.http"));
        assert_eq!(
            at("..\\captures\\x.http", "/repo/tests"),
            inside("captures/x.http")
        );
    }

    #[test]
    fn paths_outside_the_root_stay_absolute() {
        let outside = |path: &str| Located {
            path: path.into(),
            inside: false,
        };
        assert_eq!(at("../other/x.http", "/repo"), outside("/other/x.http"));
        assert_eq!(at("/tmp/x.http", "/repo"), outside("/tmp/x.http"));
        assert_eq!(
            at("/repository/x.http", "/repo"),
            outside("/repository/x.http")
        );
        // Nothing to place a relative path against, and stdin with no name.
        assert_eq!(at("x.http", ""), outside("x.http"));
        assert_eq!(at("<stdin>", "/repo/sub"), outside("<stdin>"));
    }

    #[test]
    fn the_root_is_explicit_else_the_repository_else_the_configuration() {
        let dir = tempfile::tempdir().unwrap();
        let repo = dir.path().join("repo");
        let sub = repo.join("a/b");
        std::fs::create_dir_all(&sub).unwrap();
        let config = dir.path().join("conf");
        assert_eq!(discover(&sub, None, &config), normalize(&config));
        std::fs::create_dir(repo.join(".git")).unwrap();
        assert_eq!(discover(&sub, None, &config), repo);
        assert_eq!(
            discover(&sub, Some(Path::new("..")), &config),
            repo.join("a")
        );
    }

    #[cfg(unix)]
    #[test]
    fn canonical_forms_are_the_file_systems() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real");
        std::fs::create_dir(&real).unwrap();
        std::fs::write(real.join("x.http"), "").unwrap();
        std::os::unix::fs::symlink(&real, dir.path().join("linked")).unwrap();
        std::os::unix::fs::symlink(real.join("x.http"), dir.path().join("y.http")).unwrap();
        for file in [
            "real/x.http",
            "linked/x.http",
            "y.http",
            "linked/none.http",
            "none/x",
        ] {
            let file = dir.path().join(file);
            assert_eq!(canonical_file(&file), file.canonicalize().ok(), "{file:?}");
            // Asked again, from what is remembered.
            assert_eq!(canonical_file(&file), file.canonicalize().ok(), "{file:?}");
        }
    }

    #[test]
    fn file_uris_are_absolute_and_encoded() {
        assert_eq!(file_uri("/repo/a b", true), "file:///repo/a%20b/");
        assert_eq!(file_uri("/repo/", true), "file:///repo/");
        assert_eq!(file_uri("/x/y#.http", false), "file:///x/y%23.http");
        assert_eq!(file_uri("C:\\work\\repo", true), "file:///C:/work/repo/");
        assert_eq!(file_uri("\\\\?\\C:\\repo", true), "file:///C:/repo/");
    }
}
