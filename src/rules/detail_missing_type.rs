//! `detail-missing-type`: an element of `error.details` / `error.data` with no `@type`, or
//! a gRPC Status detail whose `Any` has an empty type URL.

use crate::finding::Finding;
use crate::protocol::classify::{ErrorForm, ErrorView, ExchangeView};
use crate::rules::{Hooks, Rule, RuleId};

pub struct DetailMissingType;

impl Rule for DetailMissingType {
    fn id(&self) -> RuleId {
        RuleId::DetailMissingType
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
        for detail in error.details.iter().filter(|d| d.type_url.is_none()) {
            let what = match (error.form, detail.value.is_object()) {
                // The Status decoder writes an `Any` with an empty type URL without `@type`.
                (ErrorForm::Grpc, _) => "is an `Any` with an empty type URL",
                (_, true) => "has no `@type`",
                (_, false) => "is not an object with `@type`",
            };
            out.push(
                Finding::new(
                    self.id(),
                    error.label(&detail.pointer.to_string(), "no @type"),
                    format!("detail in {} {what}", error.details_place()),
                )
                .help(
                    "spec v1.0.1 §3.3.2: each detail is a ProtoJSON `Any` and MUST carry `@type`, such as \
                     \"type.googleapis.com/google.rpc.ErrorInfo\"; clients skip untyped details",
                ),
            );
        }
    }
}
