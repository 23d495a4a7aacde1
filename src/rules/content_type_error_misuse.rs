//! `content-type-error-misuse`: CONTENT_TYPE_NOT_SUPPORTED answered to a request whose
//! message parts declare no media type, typically for the HTTP `Content-Type` header.
//! Under `tck` the rule takes the test kit's reading instead (`kit_reading`): a request
//! sent as a type that is no JSON must be refused with ContentTypeNotSupported.

use serde_json::Value;

use crate::finding::Finding;
use crate::input::source::Label;
use crate::protocol::classify::{Binding, ErrorView, ExchangeView, MessageView};
use crate::protocol::profile::Profile;
use crate::rules::{Hooks, Rule, RuleId};

pub struct ContentTypeErrorMisuse;

impl Rule for ContentTypeErrorMisuse {
    fn id(&self) -> RuleId {
        RuleId::ContentTypeErrorMisuse
    }

    fn hooks(&self) -> Hooks {
        Hooks::ERRORS
    }

    fn check_errors(
        &self,
        view: &ExchangeView<'_, '_>,
        errors: &[ErrorView<'_>],
        out: &mut Vec<Finding>,
    ) {
        let Some(request) = &view.request else {
            return;
        };
        if view.profile == Profile::Tck {
            return kit_reading(view, errors, request, out);
        }
        let Some(error) = errors.iter().find(|e| {
            e.a2a_error()
                .is_some_and(|a2a| a2a.reason == "CONTENT_TYPE_NOT_SUPPORTED")
        }) else {
            return;
        };
        let message_pointer = match view.binding {
            Binding::JsonRpc => "/params/message",
            _ => "/message",
        };
        let parts = request
            .json
            .value()
            .and_then(|body| body.pointer(&format!("{message_pointer}/parts")))
            .and_then(Value::as_array);
        let declares_media_type = parts.is_some_and(|parts| {
            parts.iter().any(|p| {
                p.get("mediaType")
                    .and_then(Value::as_str)
                    .is_some_and(|m| !m.is_empty())
            })
        });
        if declares_media_type {
            return;
        }
        let primary = match error.infos().next() {
            Some(info) => error.label(
                &format!("{}/reason", info.pointer),
                "about part media types",
            ),
            None => error.label("/error/code", "about part media types"),
        };
        let mut finding = Finding::new(
            self.id(),
            primary,
            "CONTENT_TYPE_NOT_SUPPORTED answers a request whose message parts declare no media type",
        )
        .help(
            "ContentTypeNotSupportedError is for a part's media type the agent cannot handle (A2A §3.3.2); a request \
             body in the wrong HTTP Content-Type is a request error (-32600, or HTTP 400 INVALID_ARGUMENT)",
        );
        if let Some(media_type) = &request.media_type {
            finding = finding.related(Label::at(media_type.span, "the HTTP Content-Type"));
        }
        out.push(finding);
    }
}

/// a2a-tck 1.0-dev sends a SendMessage as `text/plain` and expects ContentTypeNotSupported:
/// JSON-RPC -32005 when the answer is a JSON-RPC error
/// (`TestJsonRpcErrorCodeMappings::test_content_type_not_supported_error`), HTTP+JSON 415
/// when the answer is an error (`TestHttpJsonStatusCodes::test_content_type_not_supported_returns_415`).
/// It passes over an answer that is no error, so this reading does too (that request is
/// `request-content-type`'s). The spec reserves the error for part media types (§3.3.2).
fn kit_reading(
    view: &ExchangeView<'_, '_>,
    errors: &[ErrorView<'_>],
    request: &MessageView<'_, '_>,
    out: &mut Vec<Finding>,
) {
    let Some(media_type) = request.media_type.as_ref() else {
        return;
    };
    let essence = media_type.essence.as_str();
    let json = essence == "application/json" || essence.ends_with("+json");
    let Some(response) = view.response.as_ref().filter(|_| !json) else {
        return;
    };
    let status = response.message.status().unwrap_or(0);
    let (answer, label, expected) = match view.binding {
        Binding::JsonRpc => {
            let Some(code) = errors.first().and_then(|e| e.code()) else {
                return;
            };
            if code == -32005 {
                return;
            }
            let label = errors[0].label("/error/code", "expected -32005");
            (
                format!("JSON-RPC error {code}"),
                label,
                "-32005 ContentTypeNotSupportedError",
            )
        }
        Binding::HttpJson if status >= 400 && status != 415 => (
            format!("HTTP {status}"),
            response.start_line_label("expected 415"),
            "HTTP 415 (ContentTypeNotSupportedError)",
        ),
        _ => return,
    };
    let message = format!(
        "request sent as `{essence}` is refused with {answer}; a2a-tck expects {expected} \
         here, though the spec keeps that error for part media types"
    );
    out.push(
        Finding::new(RuleId::ContentTypeErrorMisuse, label, message)
            .related(Label::at(media_type.span, "the HTTP Content-Type"))
            .help(
                "this is the tck profile following the test kit, which reads ContentTypeNotSupportedError as \
                 the answer to a request body in the wrong media type; under `--profile spec` the same answer \
                 is right and ContentTypeNotSupportedError would be the finding (A2A §3.3.2)",
            ),
    );
}
