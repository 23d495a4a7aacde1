//! `unpaired-message`: a request with no response, or a response with no request.

use crate::finding::{Finding, Severity};
use crate::input::capture::{Ending, Message};
use crate::input::source::Label;
use crate::protocol::classify::ExchangeView;
use crate::rules::{Hooks, Rule, RuleId};

pub struct UnpairedMessage;

impl Rule for UnpairedMessage {
    fn id(&self) -> RuleId {
        RuleId::UnpairedMessage
    }

    fn hooks(&self) -> Hooks {
        Hooks::EXCHANGE
    }

    fn check_exchange(&self, view: &ExchangeView<'_, '_>, out: &mut Vec<Finding>) {
        let exchange = view.exchange;
        let finding = match (&exchange.request, &exchange.response) {
            (Some(request), None) if exchange.ending.is_some() => ended(request, exchange.ending),
            (Some(request), None) => Finding::new(
                self.id(),
                Label::at(request.start_line_span, "no response follows"),
                "request has no response in the capture",
            )
            .help("record the response too, or delete the request; rules about answers cannot check it"),
            (None, Some(response)) => Finding::new(
                self.id(),
                Label::at(response.start_line_span, "no request before it"),
                "response has no request before it in the capture",
            )
            .help("record the request too; without it a2alint cannot tell which operation this answers"),
            _ => return,
        };
        out.push(finding);
    }
}

/// RST_STREAM's CANCEL code (RFC 9113 §7).
const CANCEL: u32 = 0x8;

/// A request whose HTTP/2 stream a peer ended before the answer: said as it happened.
fn ended(request: &Message<'_>, ending: Option<Ending>) -> Finding {
    let at = |text| Label::at(request.start_line_span, text);
    match ending {
        // The client's own choice (RFC 9113 §8.7): nothing to record again.
        Some(Ending::Reset {
            code,
            by_client: true,
        }) => Finding::new(
            RuleId::UnpairedMessage,
            at("cancelled"),
            format!(
                "the client reset the stream ({}) before a response came",
                Ending::code_name(code)
            ),
        )
        .severity(Severity::Info)
        .help("a client that gives up on a call resets its stream; no answer was sent"),
        // A gRPC server gives up on a call past the deadline the client set with a
        // CANCEL (gRPC over HTTP/2, `grpc-timeout`): the client's choice too. Packet
        // times are not in the view, so the expiry itself is not checked.
        Some(Ending::Reset { code: CANCEL, .. }) if request.header("grpc-timeout").is_some() => {
            Finding::new(
                RuleId::UnpairedMessage,
                at("deadline"),
                "the server cancelled the call at the deadline the client set (`grpc-timeout`) \
                 before a response came",
            )
            .severity(Severity::Info)
            .help(
                "a call past its deadline ends without an answer; the client sees \
                 DEADLINE_EXCEEDED and may check the task before sending again",
            )
        }
        Some(Ending::Reset { code, .. }) => Finding::new(
            RuleId::UnpairedMessage,
            at("reset by the server"),
            format!(
                "the server reset the stream ({}) instead of answering",
                Ending::code_name(code)
            ),
        )
        .help(
            "an agent that cannot serve a request answers it with an error the client can \
             act on (A2A §3.3.2); a reset leaves the client to guess",
        ),
        Some(Ending::Refused) | None => Finding::new(
            RuleId::UnpairedMessage,
            at("refused"),
            "the server's GOAWAY refused the stream before it was processed",
        )
        .severity(Severity::Info)
        .help(
            "RFC 9113 §6.8: the request was not processed and may be retried on a new connection",
        ),
    }
}
