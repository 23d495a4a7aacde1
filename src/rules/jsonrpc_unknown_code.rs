//! `jsonrpc-unknown-code`: an `error.code` in a reserved range that names no error.

use crate::finding::Finding;
use crate::protocol::classify::{ErrorForm, ErrorView, ExchangeView};
use crate::protocol::table::table;
use crate::rules::{Hooks, Rule, RuleId};

pub struct JsonrpcUnknownCode;

impl Rule for JsonrpcUnknownCode {
    fn id(&self) -> RuleId {
        RuleId::JsonrpcUnknownCode
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
        let Some(code) = error.code().filter(|_| error.form == ErrorForm::JsonRpc) else {
            return;
        };
        let why = if (-32099..=-32010).contains(&code) {
            "is in the range A2A reserves for its errors (-32001..-32099) but A2A assigns only -32001..-32009"
        } else if (-32768..=-32100).contains(&code) && table().by_code(code).is_none() {
            // -32000 stays allowed: JSON-RPC 2.0 §5.1 leaves -32000..-32099 to
            // implementation-defined server errors and A2A §9.5 claims only -32001..-32099.
            "is in the range JSON-RPC 2.0 reserves for pre-defined errors (-32768..-32100) but is not one of its five standard codes"
        } else {
            return;
        };
        out.push(
            Finding::new(self.id(), error.label("/error/code", "unassigned code"), format!("error code {code} {why}"))
                .help(
                    "use the A2A code for the error (-32001..-32009, A2A §9.5) or a standard JSON-RPC code; \
                     application-specific codes belong outside the reserved ranges",
                ),
        );
    }
}
