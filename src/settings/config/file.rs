//! The `a2alint.toml` file: its keys, parsed strictly so that a typo is an error that
//! names its line rather than a setting silently ignored.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use toml::Spanned;

use crate::protocol::profile::Profile;
use crate::rules::RuleId;
use crate::settings::config::FailOn;

/// The name a2alint looks for.
pub const FILE_NAME: &str = "a2alint.toml";

/// A rule's level in configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    Error,
    Warning,
    Info,
    Off,
}

/// `a2alint.toml` as written.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct ConfigFile {
    pub profile: Option<ProfileName>,
    pub fail_on: Option<FailOnName>,
    #[serde(default)]
    pub exclude: Vec<String>,
    #[serde(default)]
    pub rules: BTreeMap<Spanned<String>, Level>,
    #[serde(default)]
    pub overrides: Vec<Override>,
    #[serde(default, rename = "ignore")]
    pub ignores: Vec<Ignore>,
}

/// `[[overrides]]`: rule levels for the files matching `files`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Override {
    pub files: Vec<String>,
    pub rules: BTreeMap<Spanned<String>, Level>,
}

/// `[[ignore]]`: findings of `rules` in `files`, optionally in one exchange or at one
/// JSON member, are not reported.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ignore {
    pub files: Vec<String>,
    pub rules: Vec<Spanned<String>>,
    /// 0-based exchange index (a HAR entry index).
    pub exchange: Option<usize>,
    /// A JSON pointer: `/log/entries/3` (a HAR entry) or a member such as
    /// `response/error/details/0`.
    pub pointer: Option<String>,
    /// In a pcap file: the 1-based TCP connection (in order of first frame, as
    /// `a2alint inspect` and the findings number them) and the HTTP/2 stream id.
    pub connection: Option<usize>,
    pub stream: Option<u32>,
    /// Why: for the people reading the file; a2alint does not use it.
    #[serde(default, rename = "reason")]
    _reason: Option<String>,
}

#[derive(Debug, Clone, Copy, Deserialize)]
pub enum ProfileName {
    #[serde(rename = "spec", alias = "spec-1.0.1")]
    Spec,
    #[serde(rename = "spec-1.0.0")]
    Spec100,
    #[serde(rename = "tck")]
    Tck,
}

impl From<ProfileName> for Profile {
    fn from(name: ProfileName) -> Profile {
        match name {
            ProfileName::Spec => Profile::Spec,
            ProfileName::Spec100 => Profile::Spec100,
            ProfileName::Tck => Profile::Tck,
        }
    }
}

#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FailOnName {
    Error,
    Warning,
    Info,
}

impl From<FailOnName> for FailOn {
    fn from(name: FailOnName) -> FailOn {
        match name {
            FailOnName::Error => FailOn::Error,
            FailOnName::Warning => FailOn::Warning,
            FailOnName::Info => FailOn::Info,
        }
    }
}

/// A configuration problem, with the file and line it is on.
#[derive(Debug, thiserror::Error)]
#[error("{path}:{line}: {message}")]
pub struct ConfigError {
    pub path: String,
    pub line: usize,
    pub message: String,
}

/// Reads and checks a configuration file.
pub fn load(path: &Path) -> Result<ConfigFile, ConfigError> {
    let shown = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| ConfigError {
        path: shown.clone(),
        line: 0,
        message: format!("cannot read: {e}"),
    })?;
    let line_of = |offset: usize| text[..offset.min(text.len())].matches('\n').count() + 1;
    let config: ConfigFile = toml::from_str(&text).map_err(|e| ConfigError {
        path: shown.clone(),
        line: e.span().map_or(0, |s| line_of(s.start)),
        message: e.message().trim().to_string(),
    })?;
    let rule_keys = config
        .rules
        .keys()
        .chain(config.overrides.iter().flat_map(|o| o.rules.keys()))
        .chain(config.ignores.iter().flat_map(|i| &i.rules));
    for key in rule_keys {
        if RuleId::from_slug(key.get_ref()).is_none() {
            return Err(ConfigError {
                path: shown,
                line: line_of(key.span().start),
                message: format!(
                    "unknown rule `{}`; `a2alint rules` lists them",
                    key.get_ref()
                ),
            });
        }
    }
    Ok(config)
}

/// The configuration file for a run started in `dir`: the nearest `a2alint.toml` from
/// `dir` up to the repository root (the first directory holding `.git`).
pub fn discover(dir: &Path) -> Option<PathBuf> {
    for ancestor in dir.ancestors() {
        let candidate = ancestor.join(FILE_NAME);
        if candidate.is_file() {
            return Some(candidate);
        }
        if ancestor.join(".git").exists() {
            break;
        }
    }
    None
}
