//! Inline suppressions: `# a2alint: ignore[rule-a, rule-b] reason` among the comment lines
//! before an exchange silences those rules for it; `# a2alint: ignore-file[rule]` before
//! the first message silences them for the whole file.

use crate::finding::Finding;
use crate::input::source::Span;
use crate::rules::RuleId;

/// What a directive covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    Exchange,
    File,
}

/// One `a2alint:` comment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Directive {
    pub scope: Scope,
    /// The comment line.
    pub span: Span,
    /// Each named rule, as written, with whether it silenced anything.
    pub entries: Vec<Entry>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub name: String,
    pub rule: Option<RuleId>,
    pub used: bool,
}

/// Reads the directive in a comment line, if it holds one.
pub fn parse(line: &[u8], span: Span) -> Option<Directive> {
    let text = std::str::from_utf8(line).ok()?.trim();
    let body = text
        .strip_prefix("//")
        .or_else(|| text.strip_prefix('#'))?
        .trim_start();
    let rest = body.strip_prefix("a2alint:")?.trim_start();
    let (scope, list) = if let Some(list) = rest.strip_prefix("ignore-file[") {
        (Scope::File, list)
    } else {
        (Scope::Exchange, rest.strip_prefix("ignore[")?)
    };
    let (names, _reason) = list.split_once(']')?;
    let entries = names
        .split(',')
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .map(|name| Entry {
            name: name.to_string(),
            rule: RuleId::from_slug(name),
            used: false,
        })
        .collect();
    Some(Directive {
        scope,
        span,
        entries,
    })
}

impl Directive {
    /// Does the directive silence `finding`? Marks the entry used when it does.
    pub fn silences(&mut self, finding: &Finding) -> bool {
        match self
            .entries
            .iter_mut()
            .find(|e| e.rule == Some(finding.rule))
        {
            Some(entry) => {
                entry.used = true;
                true
            }
            None => false,
        }
    }
}

/// Drops the findings the directives silence; returns how many.
pub fn apply(directives: &mut [Directive], findings: &mut Vec<Finding>) -> usize {
    let before = findings.len();
    findings.retain(|finding| !directives.iter_mut().any(|d| d.silences(finding)));
    before - findings.len()
}

/// `unused-suppression` findings for entries that name no rule or silenced nothing;
/// `misplaced` directives (`ignore-file` after the first message) silenced nothing.
pub fn unused(directives: &[Directive], misplaced: bool) -> Vec<Finding> {
    let mut findings = Vec::new();
    for directive in directives {
        for entry in directive.entries.iter().filter(|e| !e.used) {
            let (label, message) = match entry.rule {
                None => (
                    "unknown rule",
                    format!("suppression names `{}`, which is not a rule", entry.name),
                ),
                Some(_) if misplaced => (
                    "after the first message",
                    format!(
                        "`ignore-file[{}]` only counts before the first message of the file",
                        entry.name
                    ),
                ),
                Some(_) => {
                    let scope = match directive.scope {
                        Scope::Exchange => "this exchange",
                        Scope::File => "this file",
                    };
                    (
                        "silences nothing",
                        format!(
                            "suppression of `{}` silences nothing in {scope}",
                            entry.name
                        ),
                    )
                }
            };
            findings.push(
                Finding::new(RuleId::UnusedSuppression, crate::input::source::Label::at(directive.span, label), message)
                    .help("remove it, or fix the rule id (`a2alint rules` lists them); stale suppressions hide future findings"),
            );
        }
    }
    findings
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_both_scopes_and_comment_styles() {
        let d = parse(
            b"# a2alint: ignore[error-info-missing, nope] vendor bug #12",
            Span::new(0, 1),
        )
        .unwrap();
        assert_eq!(d.scope, Scope::Exchange);
        let names: Vec<_> = d
            .entries
            .iter()
            .map(|e| (e.name.as_str(), e.rule.is_some()))
            .collect();
        assert_eq!(names, [("error-info-missing", true), ("nope", false)]);
        let f = parse(b"//  a2alint: ignore-file[body-not-json]", Span::new(0, 1)).unwrap();
        assert_eq!(f.scope, Scope::File);
        assert!(parse(b"# just a comment", Span::new(0, 1)).is_none());
        assert!(parse(b"# a2alint: ignore error-info-missing", Span::new(0, 1)).is_none());
    }
}
