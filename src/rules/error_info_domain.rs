//! `error-info-domain`: an ErrorInfo on an A2A error whose domain is not `a2a-protocol.org`.

use crate::finding::Finding;
use crate::protocol::classify::{ErrorView, ExchangeView};
use crate::protocol::table::table;
use crate::rules::{Hooks, Rule, RuleId};

pub struct ErrorInfoDomain;

impl Rule for ErrorInfoDomain {
    fn id(&self) -> RuleId {
        RuleId::ErrorInfoDomain
    }

    fn hooks(&self) -> Hooks {
        Hooks::ERROR
    }

    fn check_error(
        &self,
        _view: &ExchangeView<'_, '_>,
        error: &ErrorView<'_>,
        out: &mut Vec<Finding>,
    ) {
        let expected = table().domain.as_str();
        let Some(info) = error.infos().next() else {
            return;
        };
        // Extra ErrorInfos of the server's own domain are fine next to the A2A one.
        if !error.is_a2a_error() || error.infos().any(|i| i.domain == Some(expected)) {
            return;
        }
        let (label, found) = match info.domain {
            Some(domain) => (
                error.label(
                    &format!("{}/domain", info.pointer),
                    format!("expected \"{expected}\""),
                ),
                format!("\"{domain}\""),
            ),
            None => (
                error.opening_label(&info.pointer.to_string(), "no `domain`"),
                "missing".to_string(),
            ),
        };
        out.push(
            Finding::new(self.id(), label, format!("ErrorInfo.domain is {found}, expected \"{expected}\""))
                .help(format!(
                    "A2A errors are identified by reason within the domain \"{expected}\" (A2A §9.5, §10.6, \
                     §11.6); clients match on both"
                )),
        );
    }
}
