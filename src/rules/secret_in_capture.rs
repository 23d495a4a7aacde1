//! `secret-in-capture`: a credential stored in the capture (a credential header, a push
//! config token or credentials, a JWT in a body). Its value is never printed.

use crate::finding::Finding;
use crate::input::capture::Message;
use crate::input::secrets;
use crate::input::source::Label;
use crate::protocol::classify::{ExchangeView, MessageView};
use crate::rules::{Hooks, Rule, RuleId};

pub struct SecretInCapture;

const HELP: &str = "run `a2alint redact` on the capture (it replaces credentials with <redacted> and keeps \
                    Content-Length right; in a pcap, with bytes of the same length), then rotate the \
                    credential: it may already have been shared";

impl Rule for SecretInCapture {
    fn id(&self) -> RuleId {
        RuleId::SecretInCapture
    }

    fn hooks(&self) -> Hooks {
        Hooks::EXCHANGE
    }

    fn check_exchange(&self, view: &ExchangeView<'_, '_>, out: &mut Vec<Finding>) {
        for message in view.messages() {
            self.check_headers(message.message, message.side.name(), out);
            self.check_body(message, out);
        }
    }
}

impl SecretInCapture {
    fn check_headers(&self, message: &Message<'_>, side: &str, out: &mut Vec<Finding>) {
        // HTTP/2 trailers (gRPC metadata sent after the messages) are fields too.
        let fields = (message.headers.iter().map(|h| (h, "header")))
            .chain(message.trailers.iter().map(|h| (h, "trailer")));
        for (header, kind) in fields {
            if secrets::is_credential_header(header.name) && !secrets::is_placeholder(header.value)
            {
                out.push(
                    Finding::new(
                        self.id(),
                        Label::at(header.value_span, "credential").member(format!(
                            "{side}/{kind}/{}",
                            header.name.to_ascii_lowercase()
                        )),
                        format!("{side} {kind} `{}` holds a credential", header.name),
                    )
                    .help(HELP),
                );
            }
        }
    }

    fn check_body(&self, message: &MessageView<'_, '_>, out: &mut Vec<Finding>) {
        let Some(content) = &message.message.body.content else {
            return;
        };
        for range in message.body_secrets.iter().cloned() {
            let what = if content.bytes[range.clone()].starts_with(b"eyJ") {
                "a JWT-shaped token"
            } else {
                "a credential member (token, credentials, password...)"
            };
            let span = crate::input::source::Span::new(range.start, range.end);
            out.push(
                Finding::new(
                    self.id(),
                    Label::in_body(
                        message.exchange_index,
                        message.side,
                        content,
                        span,
                        "credential",
                    ),
                    format!("{} body holds {what}", message.side.name()),
                )
                .help(HELP),
            );
        }
    }
}
