//! `version-header-missing`: a 1.0-shaped request with no `A2A-Version`, which the server
//! must read as 0.3 (A2A §3.6.2).

use crate::finding::Finding;
use crate::protocol::classify::{Binding, ExchangeView, Generation};
use crate::rules::{Hooks, Rule, RuleId};

pub struct VersionHeaderMissing;

impl Rule for VersionHeaderMissing {
    fn id(&self) -> RuleId {
        RuleId::VersionHeaderMissing
    }

    fn hooks(&self) -> Hooks {
        Hooks::EXCHANGE
    }

    fn check_exchange(&self, view: &ExchangeView<'_, '_>, out: &mut Vec<Finding>) {
        let (Some(request), Some(_)) = (&view.request, view.operation) else {
            return;
        };
        if !view.is_a2a_operation()
            || view.generation != Generation::V1_0
            || view.declared_version().is_some()
        {
            return;
        }
        // Over gRPC the version is metadata, `a2a-version` (A2A §10.2).
        let (label, message, help) = match view.binding {
            Binding::Grpc => (
                "no a2a-version",
                "gRPC call to the 1.0 service sends no `a2a-version` metadata; an absent version means 0.3",
                "send `a2a-version: 1.0` metadata on every call (A2A §3.6.1, §10.2); servers must treat a \
                 missing version as 0.3 (§3.6.2)",
            ),
            _ => (
                "no A2A-Version",
                "request is shaped as A2A 1.0 but sends no `A2A-Version`; an absent version means 0.3",
                "send `A2A-Version: 1.0` on every request (A2A §3.6.1); servers must treat a missing version as \
                 0.3 (§3.6.2), and both reference SDKs answer VersionNotSupported (-32009)",
            ),
        };
        out.push(Finding::new(self.id(), request.start_line_label(label), message).help(help));
    }
}
