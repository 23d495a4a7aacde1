//! Profiles: which version of the A2A error table is in force.

use clap::ValueEnum;

/// The error-mapping table a run checks against.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, ValueEnum)]
pub enum Profile {
    /// Spec v1.0.1 (§5.4 realigned to google.rpc.Code; ErrorInfo SHOULD in JSON-RPC).
    #[default]
    #[value(name = "spec", alias = "spec-1.0.1")]
    Spec,
    /// Spec v1.0.0 (409/415/502, UNIMPLEMENTED; ErrorInfo MUST in JSON-RPC too).
    #[value(name = "spec-1.0.0")]
    Spec100,
    /// What the official test kit a2a-tck 1.0-dev grades (it vendors spec v1.0.0).
    #[value(name = "tck")]
    Tck,
}

impl Profile {
    pub fn name(self) -> &'static str {
        match self {
            Profile::Spec => "spec",
            Profile::Spec100 => "spec-1.0.0",
            Profile::Tck => "tck",
        }
    }

    /// Does the profile use the spec v1.0.0 columns of the error table?
    pub fn uses_v1_0_0_table(self) -> bool {
        matches!(self, Profile::Spec100 | Profile::Tck)
    }

    /// How the table this profile uses is named in messages.
    pub fn table_name(self) -> &'static str {
        if self.uses_v1_0_0_table() {
            "spec v1.0.0"
        } else {
            "spec v1.0.1"
        }
    }

    /// How the other table is named, for "this is the other version's value" messages.
    fn other_table_name(self) -> &'static str {
        if self.uses_v1_0_0_table() {
            "spec v1.0.1"
        } else {
            "spec v1.0.0 / a2a-tck 1.0-dev"
        }
    }

    /// `"; 400 is the spec v1.0.0 mapping, spec v1.0.1 uses 404"` when `found` is what the
    /// other table gives (`other`), so a status from the wrong version of the table is
    /// named as such; empty otherwise. `entry` names a table entry ("mapping", "value").
    pub fn other_table_note<T: PartialEq + std::fmt::Display>(
        self,
        found: T,
        other: T,
        expected: T,
        entry: &str,
    ) -> String {
        if found != other {
            return String::new();
        }
        format!(
            "; {found} is the {} {entry}, {} uses {expected}",
            self.other_table_name(),
            self.table_name()
        )
    }
}
