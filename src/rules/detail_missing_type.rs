//! `detail-missing-type`: an element of `error.details` / `error.data` with no `@type`.

use crate::classify::{ErrorView, ExchangeView};
use crate::finding::Finding;
use crate::rules::{Rule, RuleId};

pub struct DetailMissingType;

impl Rule for DetailMissingType {
    fn id(&self) -> RuleId {
        RuleId::DetailMissingType
    }

    fn check_error(
        &self,
        _view: &ExchangeView<'_, '_>,
        error: &ErrorView<'_>,
        out: &mut Vec<Finding>,
    ) {
        for detail in error.details.iter().filter(|d| d.type_url.is_none()) {
            let what = if detail.value.is_object() {
                "has no `@type`"
            } else {
                "is not an object with `@type`"
            };
            out.push(
                Finding::new(
                    self.id(),
                    error.label(&detail.pointer, "no @type"),
                    format!("element of `error.{}` {what}", error.details_member),
                )
                .help(
                    "spec v1.0.1 §3.3.2: each detail is a ProtoJSON `Any` and MUST carry `@type`, such as \
                     \"type.googleapis.com/google.rpc.ErrorInfo\"; clients skip untyped details",
                ),
            );
        }
    }
}
