//! `bad-request-detail-missing`: a validation error without a `google.rpc.BadRequest`
//! naming the field.

use serde_json::Value;

use crate::finding::Finding;
use crate::protocol::classify::{ErrorForm, ErrorView, ExchangeView};
use crate::rules::{Hooks, Rule, RuleId};

pub struct BadRequestDetailMissing;

impl Rule for BadRequestDetailMissing {
    fn id(&self) -> RuleId {
        RuleId::BadRequestDetailMissing
    }

    fn hooks(&self) -> Hooks {
        Hooks::ERROR
    }

    fn check_error(
        &self,
        view: &ExchangeView<'_, '_>,
        error: &ErrorView<'_>,
        out: &mut Vec<Finding>,
    ) {
        // A malformed request has no field to name and its code is `invalid-request-code`'s
        // business; advising on that code's text or details would mislead.
        if view.request_is_malformed() || error.details_unreadable() {
            return;
        }
        // CONTENT_TYPE_NOT_SUPPORTED is INVALID_ARGUMENT too, but it is an A2A error, not
        // field validation.
        let (is_validation, pointer) = match error.form {
            ErrorForm::JsonRpc => (error.code() == Some(-32602), "/error/code"),
            ErrorForm::Status | ErrorForm::Grpc => (
                error.status() == Some("INVALID_ARGUMENT") && !error.is_a2a_error(),
                "/error/status",
            ),
        };
        if !is_validation || error.bad_requests().any(|d| names_a_field(d.value)) {
            return;
        }
        out.push(
            Finding::new(
                self.id(),
                error.label(pointer, "validation error"),
                format!("validation error has no google.rpc.BadRequest naming the field in {}", error.details_place()),
            )
            .help(
                "add {\"@type\": \"type.googleapis.com/google.rpc.BadRequest\", \"fieldViolations\": \
                 [{\"field\": \"message.parts\", \"description\": \"...\"}]} so a client can point at its mistake \
                 (A2A §3.3.2, §9.5, §10.6, §11.6)",
            ),
        );
    }
}

fn names_a_field(bad_request: &Value) -> bool {
    bad_request
        .get("fieldViolations")
        .and_then(Value::as_array)
        .is_some_and(|violations| {
            violations.iter().any(|v| {
                v.get("field")
                    .and_then(Value::as_str)
                    .is_some_and(|f| !f.is_empty())
            })
        })
}
