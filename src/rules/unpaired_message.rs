//! `unpaired-message`: a request with no response, or a response with no request.

use crate::classify::ExchangeView;
use crate::finding::{Finding, Label};
use crate::rules::{Rule, RuleId};

pub struct UnpairedMessage;

impl Rule for UnpairedMessage {
    fn id(&self) -> RuleId {
        RuleId::UnpairedMessage
    }

    fn check_exchange(&self, view: &ExchangeView<'_, '_>, out: &mut Vec<Finding>) {
        let exchange = view.exchange;
        let finding = match (&exchange.request, &exchange.response) {
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
