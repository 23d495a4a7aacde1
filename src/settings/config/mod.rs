//! Settings for a run: `a2alint.toml` (found upward from the current directory, or
//! named), overridden by command-line flags; per-file rule levels, excludes and ignores.

mod file;

pub use file::{ConfigError, FILE_NAME, Level, discover, load};

use std::path::{Path, PathBuf};

use globset::{Glob, GlobBuilder, GlobSet, GlobSetBuilder};

use crate::finding::Severity;
use crate::output::resolve::Diagnostic;
use crate::rules::RuleId;
use crate::settings::rule_set::{RuleLevel, RuleSet};
use file::ConfigFile;

/// Resolved configuration: what applies to which file.
#[derive(Debug)]
pub struct Config {
    pub profile: Option<crate::protocol::profile::Profile>,
    pub fail_on: Option<FailOn>,
    /// Directory that globs are relative to (the config file's).
    root: PathBuf,
    /// `root` with `.` and `..` resolved, once rather than for every file.
    normal_root: PathBuf,
    /// Directory report paths are relative to.
    cwd: PathBuf,
    rules: RuleSet,
    overrides: Vec<(GlobSet, Vec<(RuleId, RuleLevel)>)>,
    exclude: GlobSet,
    ignores: Vec<CompiledIgnore>,
}

#[derive(Debug)]
struct CompiledIgnore {
    files: GlobSet,
    rules: Vec<RuleId>,
    exchange: Option<usize>,
    member: Option<String>,
    connection: Option<usize>,
    stream: Option<u32>,
}

impl Config {
    /// No configuration file: defaults everywhere.
    pub fn empty(cwd: &Path) -> Config {
        Config::from_file(ConfigFile::default(), cwd, cwd)
            .expect("the empty configuration is valid")
    }

    /// The directory globs are relative to: the configuration file's, or the current
    /// directory's when there is none.
    pub fn dir(&self) -> &Path {
        &self.root
    }

    /// Reads `path`, whose globs are relative to its directory.
    pub fn read(path: &Path, cwd: &Path) -> Result<Config, ConfigError> {
        let file = load(path)?;
        let root = path
            .parent()
            .map_or_else(|| cwd.to_path_buf(), |p| cwd.join(p));
        Config::from_file(file, &root, cwd).map_err(|message| ConfigError {
            path: path.display().to_string(),
            line: 0,
            message,
        })
    }

    fn from_file(file: ConfigFile, root: &Path, cwd: &Path) -> Result<Config, String> {
        let mut rules = RuleSet::default();
        for (rule, level) in &file.rules {
            rules.set(known(rule.get_ref()), rule_level(*level));
        }
        let overrides = file
            .overrides
            .iter()
            .map(|o| {
                let levels = o
                    .rules
                    .iter()
                    .map(|(r, l)| (known(r.get_ref()), rule_level(*l)))
                    .collect();
                Ok((glob_set(&o.files)?, levels))
            })
            .collect::<Result<_, String>>()?;
        let ignores = file
            .ignores
            .iter()
            .map(|i| {
                let (exchange, member) = pointer_target(i.exchange, i.pointer.as_deref());
                Ok(CompiledIgnore {
                    files: glob_set(&i.files)?,
                    rules: i.rules.iter().map(|r| known(r.get_ref())).collect(),
                    exchange,
                    member,
                    connection: i.connection,
                    stream: i.stream,
                })
            })
            .collect::<Result<_, String>>()?;
        Ok(Config {
            profile: file.profile.map(Into::into),
            fail_on: file.fail_on.map(Into::into),
            root: root.to_path_buf(),
            normal_root: normalize(root),
            cwd: cwd.to_path_buf(),
            rules,
            overrides,
            exclude: glob_set(&file.exclude)?,
            ignores,
        })
    }

    /// Applies `--select` (only these rules or groups) and `--ignore` (not these).
    pub fn apply_flags(&mut self, select: &[String], ignore: &[String]) -> Result<(), String> {
        if !select.is_empty() {
            let selected = expand(select)?;
            for &rule in RuleId::ALL {
                if !selected.contains(&rule) {
                    self.rules.set(rule, RuleLevel::Off);
                }
            }
            // Flags win over file overrides too.
            for (_, levels) in &mut self.overrides {
                levels.retain(|(rule, _)| selected.contains(rule));
            }
        }
        for rule in expand(ignore)? {
            self.rules.set(rule, RuleLevel::Off);
            for (_, levels) in &mut self.overrides {
                levels.retain(|(r, _)| *r != rule);
            }
        }
        Ok(())
    }

    /// The rules for the file reports show as `path`.
    pub fn rules_for(&self, path: &str) -> RuleSet {
        let mut rules = self.rules.clone();
        if self.overrides.is_empty() {
            return rules;
        }
        let Some(relative) = self.relative(path) else {
            return rules;
        };
        for (files, levels) in &self.overrides {
            if matches(files, &relative) {
                for &(rule, level) in levels {
                    rules.set(rule, level);
                }
            }
        }
        rules
    }

    /// Is a walked file excluded by `exclude`?
    pub fn is_excluded(&self, path: &str) -> bool {
        !self.exclude.is_empty()
            && self
                .relative(path)
                .is_some_and(|relative| matches(&self.exclude, &relative))
    }

    /// The `[[ignore]]` entries as they apply to the file shown as `path`: its place
    /// under the configuration's directory is worked out once, not per diagnostic.
    pub fn ignores_for(&self, path: &str) -> FileIgnores<'_> {
        let relative = match self.ignores.is_empty() {
            true => None,
            false => self.relative(path),
        };
        FileIgnores {
            config: self,
            relative,
        }
    }

    /// Does an `[[ignore]]` entry silence this diagnostic of the file shown as `path`?
    pub fn is_ignored(&self, path: &str, diagnostic: &Diagnostic) -> bool {
        self.ignores_for(path).silence(diagnostic)
    }

    /// `path` (relative to the current directory) relative to the configuration's
    /// directory; `None` for files outside it, which its globs never match.
    fn relative(&self, path: &str) -> Option<String> {
        let absolute = normalize(&self.cwd.join(path));
        let relative = absolute.strip_prefix(&self.normal_root).ok()?;
        Some(relative.to_string_lossy().replace('\\', "/"))
    }
}

/// [`Config::ignores_for`]: the ignores of one file.
pub struct FileIgnores<'c> {
    config: &'c Config,
    /// The file from the configuration's directory; `None` outside it, or when there
    /// is no ignore at all.
    relative: Option<String>,
}

impl FileIgnores<'_> {
    /// Does an `[[ignore]]` entry silence this diagnostic of the file?
    pub fn silence(&self, diagnostic: &Diagnostic) -> bool {
        let Some(relative) = self.relative.as_deref() else {
            return false;
        };
        self.config.ignores.iter().any(|ignore| {
            ignore.rules.contains(&diagnostic.rule)
                && matches(&ignore.files, relative)
                && ignore
                    .exchange
                    .is_none_or(|e| diagnostic.exchange == Some(e))
                && on_the_wire(ignore, diagnostic)
                && ignore.member.as_ref().is_none_or(|m| {
                    diagnostic
                        .member
                        .as_deref()
                        .is_some_and(|d| d.starts_with(m.as_str()))
                })
        })
    }
}

/// `path` with `.` and `..` components resolved lexically (the files may not exist).
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

fn known(slug: &str) -> RuleId {
    RuleId::from_slug(slug).expect("rule ids were checked when the file was read")
}

fn rule_level(level: Level) -> RuleLevel {
    match level {
        Level::Off => RuleLevel::Off,
        Level::Error => RuleLevel::Fixed(Severity::Error),
        Level::Warning => RuleLevel::Fixed(Severity::Warning),
        Level::Info => RuleLevel::Fixed(Severity::Info),
    }
}

/// An ignore's target: `/log/entries/N...` names HAR entry N, any other pointer a member.
fn pointer_target(
    exchange: Option<usize>,
    pointer: Option<&str>,
) -> (Option<usize>, Option<String>) {
    let Some(pointer) = pointer else {
        return (exchange, None);
    };
    let entry = pointer
        .strip_prefix("/log/entries/")
        .and_then(|rest| rest.split('/').next())
        .and_then(|n| n.parse().ok());
    match entry {
        Some(entry) => (Some(entry), None),
        None => (exchange, Some(pointer.trim_start_matches('/').to_string())),
    }
}

/// Rule ids and group names to rules.
fn expand(names: &[String]) -> Result<Vec<RuleId>, String> {
    let mut rules = Vec::new();
    for name in names
        .iter()
        .flat_map(|n| n.split(','))
        .map(str::trim)
        .filter(|n| !n.is_empty())
    {
        match RuleId::from_slug(name) {
            Some(rule) => rules.push(rule),
            None => {
                let group: Vec<RuleId> = RuleId::ALL
                    .iter()
                    .copied()
                    .filter(|r| r.group().as_str() == name)
                    .collect();
                if group.is_empty() {
                    return Err(format!(
                        "unknown rule or group `{name}`; `a2alint rules` lists them"
                    ));
                }
                rules.extend(group);
            }
        }
    }
    Ok(rules)
}

/// Globs where `*` stays within one path segment; a pattern without `/` also matches a
/// file name anywhere (`*.har`).
fn glob_set(patterns: &[String]) -> Result<GlobSet, String> {
    let mut builder = GlobSetBuilder::new();
    for pattern in patterns {
        let glob = |p: &str| -> Result<Glob, String> {
            GlobBuilder::new(p)
                .literal_separator(true)
                .build()
                .map_err(|e| format!("bad glob `{pattern}`: {e}"))
        };
        builder.add(glob(pattern)?);
        if !pattern.contains('/') {
            builder.add(glob(&format!("**/{pattern}"))?);
        }
    }
    builder.build().map_err(|e| e.to_string())
}

fn matches(set: &GlobSet, path: &str) -> bool {
    !set.is_empty() && set.is_match(path)
}

/// Whether a diagnostic is on the connection and stream an ignore names (pcap files).
fn on_the_wire(ignore: &CompiledIgnore, diagnostic: &Diagnostic) -> bool {
    let frame = diagnostic.primary.frame.as_ref();
    (ignore.connection).is_none_or(|c| frame.and_then(|f| f.connection) == Some(c))
        && (ignore.stream).is_none_or(|s| frame.and_then(|f| f.stream) == Some(s))
}

/// The least severity that fails a run (`--fail-on`, `fail-on` in the config).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum FailOn {
    Error,
    Warning,
    Info,
}

impl FailOn {
    pub fn threshold(self) -> crate::finding::Severity {
        match self {
            FailOn::Error => crate::finding::Severity::Error,
            FailOn::Warning => crate::finding::Severity::Warning,
            FailOn::Info => crate::finding::Severity::Info,
        }
    }
}
