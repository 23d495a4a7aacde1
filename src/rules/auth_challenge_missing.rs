//! `auth-challenge-missing`: a 401 response without a `WWW-Authenticate` header.

use crate::finding::Finding;
use crate::protocol::classify::ExchangeView;
use crate::rules::{Hooks, Rule, RuleId};

pub struct AuthChallengeMissing;

impl Rule for AuthChallengeMissing {
    fn id(&self) -> RuleId {
        RuleId::AuthChallengeMissing
    }

    fn hooks(&self) -> Hooks {
        Hooks::EXCHANGE
    }

    fn check_exchange(&self, view: &ExchangeView<'_, '_>, out: &mut Vec<Finding>) {
        let Some(response) = &view.response else {
            return;
        };
        if response.message.status() != Some(401) || response.header("www-authenticate").is_some() {
            return;
        }
        out.push(
            Finding::new(self.id(), response.start_line_label("no WWW-Authenticate"), "401 response has no `WWW-Authenticate` challenge")
                .help(
                    "say which scheme the agent expects with `WWW-Authenticate` (RFC 9110 §11.6.1; A2A §7.4 asks for \
                     challenge information), so a client knows how to get credentials instead of guessing",
                ),
        );
    }
}
