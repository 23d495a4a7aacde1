//! Which rules run for a file and at what severity, after configuration and flags.

use crate::finding::Severity;
use crate::rules::RuleId;

/// One rule's setting.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum RuleLevel {
    /// On, at the severity the rule reports (its default, or its binding's).
    #[default]
    Default,
    Off,
    /// On, every finding at this severity.
    Fixed(Severity),
}

/// A setting for every rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleSet {
    levels: Vec<RuleLevel>,
}

impl Default for RuleSet {
    fn default() -> Self {
        RuleSet {
            levels: vec![RuleLevel::Default; RuleId::ALL.len()],
        }
    }
}

impl RuleSet {
    pub fn set(&mut self, rule: RuleId, level: RuleLevel) {
        self.levels[rule.index()] = level;
    }

    pub fn level(&self, rule: RuleId) -> RuleLevel {
        self.levels[rule.index()]
    }

    /// This set with every rule but `kept` turned off (theirs as they were).
    pub fn only(&self, kept: &[RuleId]) -> RuleSet {
        let mut only = RuleSet {
            levels: vec![RuleLevel::Off; self.levels.len()],
        };
        for &rule in kept {
            only.set(rule, self.level(rule));
        }
        only
    }

    pub fn is_enabled(&self, rule: RuleId) -> bool {
        self.level(rule) != RuleLevel::Off
    }

    /// The severity a finding of `rule` is reported at, given what the rule chose.
    pub fn severity(&self, rule: RuleId, chosen: Severity) -> Severity {
        match self.level(rule) {
            RuleLevel::Fixed(severity) => severity,
            _ => chosen,
        }
    }
}
