//! `reason-code-mismatch`: the JSON-RPC code and the ErrorInfo reason name different errors.

use crate::finding::Finding;
use crate::protocol::classify::{ErrorForm, ErrorView, ExchangeView};
use crate::protocol::table::table;
use crate::rules::{Hooks, Rule, RuleId};

pub struct ReasonCodeMismatch;

impl Rule for ReasonCodeMismatch {
    fn id(&self) -> RuleId {
        RuleId::ReasonCodeMismatch
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
        if error.form != ErrorForm::JsonRpc {
            return;
        }
        let Some(by_code) = error.code().and_then(|c| table().by_code(c)) else {
            return;
        };
        for info in error.infos() {
            let Some(by_reason) = info.reason.and_then(|r| table().by_reason(r)) else {
                continue;
            };
            if by_code.same_as(by_reason) {
                continue;
            }
            out.push(
                Finding::new(
                    self.id(),
                    error.label(&format!("{}/reason", info.pointer), format!("names {}", by_reason.name())),
                    format!(
                        "error.code {} is {} but ErrorInfo.reason \"{}\" names {}",
                        by_code.jsonrpc(),
                        by_code.name(),
                        by_reason.reason(),
                        by_reason.name()
                    ),
                )
                .related(error.label("/error/code", format!("names {}", by_code.name())))
                .help(format!(
                    "a client may branch on either; make them agree: {} goes with reason \"{}\", {} with code {}",
                    by_code.jsonrpc(),
                    by_code.reason(),
                    by_reason.reason(),
                    by_reason.jsonrpc()
                )),
            );
        }
    }
}
