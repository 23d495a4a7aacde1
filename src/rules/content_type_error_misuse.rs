//! `content-type-error-misuse`: CONTENT_TYPE_NOT_SUPPORTED answered to a request whose
//! message parts declare no media type, typically for the HTTP `Content-Type` header.

use serde_json::Value;

use crate::classify::{Binding, ExchangeView};
use crate::finding::{Finding, Label};
use crate::rules::{Rule, RuleId};

pub struct ContentTypeErrorMisuse;

impl Rule for ContentTypeErrorMisuse {
    fn id(&self) -> RuleId {
        RuleId::ContentTypeErrorMisuse
    }

    fn check_exchange(&self, view: &ExchangeView<'_, '_>, out: &mut Vec<Finding>) {
        let Some(request) = &view.request else {
            return;
        };
        let errors = view.errors();
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
        let primary = match error.infos().first() {
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
