//! `jsonrpc-error-http-status`: a JSON-RPC error body sent with an HTTP status other than 200.

use crate::finding::Finding;
use crate::protocol::classify::{ErrorForm, ErrorView, ExchangeView};
use crate::rules::{Hooks, Rule, RuleId};

pub struct JsonrpcErrorHttpStatus;

impl Rule for JsonrpcErrorHttpStatus {
    fn id(&self) -> RuleId {
        RuleId::JsonrpcErrorHttpStatus
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
        let Some(response) = &view.response else {
            return;
        };
        if error.form != ErrorForm::JsonRpc || error.http_status == 200 || error.in_stream() {
            return;
        }
        let code = error.code().map_or_else(
            || "a JSON-RPC error".to_string(),
            |c| format!("JSON-RPC error {c}"),
        );
        out.push(
            Finding::new(
                self.id(),
                response.start_line_label(format!("HTTP {}", error.http_status)),
                format!("{code} is sent with HTTP {} instead of 200", error.http_status),
            )
            .related(error.label("/error", "the JSON-RPC error"))
            .help(
                "send JSON-RPC errors with HTTP 200: the spec sets no other status, every reference SDK \
                 and the test kit use 200, and clients read a non-200 answer as a transport failure",
            ),
        );
    }
}
