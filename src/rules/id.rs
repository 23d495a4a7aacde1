//! The one list of rules: each rule's id, slug, group, default severity and embedded doc.

use crate::finding::Severity;

/// The family a rule belongs to, as in the rule catalogue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Group {
    Capture,
}

impl Group {
    pub fn as_str(self) -> &'static str {
        match self {
            Group::Capture => "capture",
        }
    }
}

/// Declares every rule once. Each row gives the variant, its kebab-case slug (stable:
/// users write it in config and suppressions), its group and its default severity. The
/// doc `rules/<slug>.md` is embedded, so a rule without a doc does not compile.
macro_rules! declare_rules {
    ($($variant:ident => $slug:literal, $group:ident, $severity:ident;)+) => {
        /// A rule's stable identity.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum RuleId {
            $($variant,)+
        }

        impl RuleId {
            /// Every rule, in catalogue order.
            pub const ALL: &'static [RuleId] = &[$(RuleId::$variant,)+];

            pub fn slug(self) -> &'static str {
                match self {
                    $(RuleId::$variant => $slug,)+
                }
            }

            pub fn group(self) -> Group {
                match self {
                    $(RuleId::$variant => Group::$group,)+
                }
            }

            pub fn default_severity(self) -> Severity {
                match self {
                    $(RuleId::$variant => Severity::$severity,)+
                }
            }

            /// The rule's documentation, `rules/<slug>.md`.
            pub fn doc(self) -> &'static str {
                match self {
                    $(RuleId::$variant => include_str!(concat!(
                        env!("CARGO_MANIFEST_DIR"), "/rules/", $slug, ".md"
                    )),)+
                }
            }

            pub fn from_slug(slug: &str) -> Option<RuleId> {
                RuleId::ALL.iter().copied().find(|id| id.slug() == slug)
            }
        }
    };
}

declare_rules! {
    CaptureSyntax => "capture-syntax", Capture, Error;
    ContentLengthMismatch => "content-length-mismatch", Capture, Warning;
    UnpairedMessage => "unpaired-message", Capture, Warning;
    BodyNotJson => "body-not-json", Capture, Error;
    UndecodableBody => "undecodable-body", Capture, Warning;
}

impl RuleId {
    /// The first line under the doc's "What it checks" heading: the one-line summary
    /// shown by `a2alint rules`.
    pub fn summary(self) -> &'static str {
        let doc = self.doc();
        let body = doc
            .split_once("## What it checks")
            .map_or(doc, |(_, rest)| rest)
            .trim_start();
        let paragraph = body.split("\n\n").next().unwrap_or("");
        paragraph.lines().next().unwrap_or("").trim()
    }
}

impl std::fmt::Display for RuleId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.slug())
    }
}
