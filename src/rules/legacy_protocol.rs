//! `legacy-protocol`: an exchange shaped as A2A 0.3. Rules that hold only for 1.0 are
//! skipped for it.

use crate::finding::Finding;
use crate::protocol::classify::{ExchangeView, Generation};
use crate::rules::{Hooks, Rule, RuleId};

pub struct LegacyProtocol;

impl Rule for LegacyProtocol {
    fn id(&self) -> RuleId {
        RuleId::LegacyProtocol
    }

    fn hooks(&self) -> Hooks {
        Hooks::EXCHANGE
    }

    fn check_exchange(&self, view: &ExchangeView<'_, '_>, out: &mut Vec<Finding>) {
        let Some(request) = &view.request else {
            return;
        };
        if view.generation != Generation::V0_3 || !view.is_a2a_operation() {
            return;
        }
        out.push(
            Finding::new(self.id(), request.start_line_label("A2A 0.3"), "exchange is shaped as A2A 0.3; rules for 1.0 only were skipped")
                .help(
                    "A2A 1.0 renamed methods to PascalCase, dropped `kind` and the `/v1/` prefix, and moved errors to \
                     google.rpc ErrorInfo (A2A Appendix A); migrate, or keep 0.3 traffic in its own captures",
                ),
        );
    }
}
