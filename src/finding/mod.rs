//! What rules report, and what names them: a finding (a rule id, a severity, a message,
//! one primary label, optional related labels and help; positions stay byte spans until
//! `resolve` turns them into lines), the rule ids (`rule_id`), suggestions for misspelt
//! names (`suggest`), and what run-level rules share with the engine (`run_level`).

pub mod rule_id;
pub mod run_level;
pub mod spill;
pub(crate) mod suggest;

use std::fmt;

use crate::finding::rule_id::RuleId;
use crate::input::source::Label;

/// How much a finding matters. Ordered: `Info < Warning < Error`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Info,
    Warning,
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The exchange a finding is about, for suppressions, baselines and fingerprints.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Anchor {
    /// 0-based position in the capture.
    pub index: usize,
    /// The exchange's request line (or status line when it has no request): what
    /// identifies it when exchanges before it are added or removed.
    pub key: String,
}

/// One problem found in a capture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    pub rule: RuleId,
    /// Set by the engine for findings about one exchange.
    pub exchange: Option<Anchor>,
    pub severity: Severity,
    pub message: String,
    pub primary: Label,
    pub related: Vec<Label>,
    pub help: Option<String>,
}

impl Finding {
    /// A finding at the rule's default severity; the engine applies user overrides.
    pub fn new(rule: RuleId, primary: Label, message: impl Into<String>) -> Self {
        Finding {
            rule,
            exchange: None,
            severity: rule.default_severity(),
            message: message.into(),
            primary,
            related: Vec::new(),
            help: None,
        }
    }

    pub fn related(mut self, label: Label) -> Self {
        self.related.push(label);
        self
    }

    /// A severity other than the rule's default, for rules whose default depends on the
    /// binding or profile (the catalogue says which).
    pub fn severity(mut self, severity: Severity) -> Self {
        self.severity = severity;
        self
    }

    pub fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }
}
