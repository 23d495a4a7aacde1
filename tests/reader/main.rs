//! Table-driven tests of the `.http` capture reader: framing, spans, recovery.

use a2alint::input::capture::{Capture, Exchange, Message, ReadProblem};
use a2alint::input::source::Span;

mod framing;
mod lengths;
mod recovery;
mod streams;

pub(crate) fn text(src: &[u8], span: Span) -> &str {
    std::str::from_utf8(&src[span.range()]).unwrap()
}

pub(crate) fn body(message: &Message<'_>) -> String {
    String::from_utf8_lossy(message.body.bytes().expect("decodable body")).into_owned()
}

pub(crate) fn req<'a>(ex: &'a Exchange<'_>) -> &'a Message<'a> {
    ex.request.as_ref().expect("request")
}

pub(crate) fn resp<'a>(ex: &'a Exchange<'_>) -> &'a Message<'a> {
    ex.response.as_ref().expect("response")
}

pub(crate) fn syntax_messages(capture: &Capture<'_>) -> Vec<String> {
    capture
        .problems
        .iter()
        .filter_map(|p| match p {
            ReadProblem::Syntax { message, .. } => Some(message.clone()),
            _ => None,
        })
        .collect()
}
