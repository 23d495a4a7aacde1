//! `grpc-status-missing`: a gRPC response that ends without `grpc-status`, by the
//! server's doing rather than the client's or the capture's (gRPC over HTTP/2: every
//! response ends with Trailers, or is Trailers-Only).

use crate::finding::Finding;
use crate::input::capture::{Closed, Ending, Exchange, Message};
use crate::input::source::Label;
use crate::protocol::classify::ExchangeView;
use crate::rules::{Hooks, Rule, RuleId};

pub struct GrpcStatusMissing;

/// RST_STREAM's CANCEL (RFC 9113 §7).
const CANCEL: u32 = 0x8;

const HELP: &str = "end every response with trailers holding `grpc-status` (and `grpc-message`), or \
                    answer Trailers-Only; a client left without a status makes one up (INTERNAL, \
                    UNAVAILABLE or CANCELLED by gRPC's rules) and cannot tell whether the call was \
                    processed, while A2A carries every error in that status (A2A §10.6)";

/// How a response that has no `grpc-status` came to an end.
#[derive(Debug, PartialEq, Eq)]
enum End {
    /// Messages, then END_STREAM on a DATA frame: no trailers were sent.
    OnData,
    /// Trailers came, without the field.
    Trailers,
    /// No message and no trailers: a head that ended the stream without the field (the
    /// Trailers-Only form, or a proxy's own answer), or an empty DATA frame after it.
    Bare,
    /// The server reset the stream with this code.
    Reset(u32),
    /// A GOAWAY of the server said the stream was never processed.
    Refused,
    /// The server began closing the connection while the response was open.
    Closed,
}

impl Rule for GrpcStatusMissing {
    fn id(&self) -> RuleId {
        RuleId::GrpcStatusMissing
    }

    fn hooks(&self) -> Hooks {
        Hooks::EXCHANGE
    }

    fn check_exchange(&self, view: &ExchangeView<'_, '_>, out: &mut Vec<Finding>) {
        // A call with no response at all is `unpaired-message`'s, which says already
        // whether the server reset or refused the stream or the client cancelled it.
        let Some(response) = view.grpc_response() else {
            return;
        };
        if response.grpc_status.is_some() {
            return;
        }
        let Some(end) = server_end(view.exchange, response.message) else {
            return;
        };
        let message = match end {
            End::OnData => {
                "the response ended on a DATA frame without trailers, so without grpc-status".into()
            }
            End::Trailers => "the response's trailers carry no grpc-status".into(),
            End::Bare => match response.message.status() {
                Some(200) | None => {
                    "the response ended with no message, no trailers and no grpc-status".into()
                }
                Some(status) => {
                    format!("the HTTP {status} response ended with no trailers and no grpc-status")
                }
            },
            End::Reset(code) => format!(
                "the server reset the stream ({}) before the response's trailers: the call ends without grpc-status",
                crate::input::capture::Ending::code_name(code)
            ),
            End::Refused => {
                "the server's GOAWAY refused the stream after its response began: the call ends \
                             without grpc-status"
                    .into()
            }
            End::Closed => {
                "the server closed the connection (its GOAWAY, FIN or RST came first) before the \
                 response's trailers: the call ends without grpc-status"
                    .into()
            }
        };
        let label = match (&end, response.message.trailers.first()) {
            (End::Trailers, Some(first)) => {
                Label::at(first.span(), "no grpc-status among the trailers").member(format!(
                    "response/trailer/{}",
                    first.name.to_ascii_lowercase()
                ))
            }
            (End::OnData, _) => response.start_line_label("no trailers follow"),
            (End::Bare, _) => response.start_line_label("no grpc-status"),
            _ => response.start_line_label("no grpc-status follows"),
        };
        out.push(Finding::new(self.id(), label, message).help(HELP));
    }
}

/// How the server ended a response that carries no status; `None` when it did not end
/// it: the client cancelled (RST_STREAM, a deadline it set, closing the connection), or
/// the capture stopped with the stream open.
fn server_end(exchange: &Exchange<'_>, response: &Message<'_>) -> Option<End> {
    // END_STREAM came: whatever followed, the response was over without a status.
    if !response.body.cut {
        let messages = response.grpc.as_ref().map_or(0, |g| g.messages.len());
        return Some(match (response.trailers.is_empty(), messages) {
            (false, _) => End::Trailers,
            (true, 0) => End::Bare,
            (true, _) => End::OnData,
        });
    }
    let deadline = (exchange.request.as_ref()).is_some_and(|r| r.header("grpc-timeout").is_some());
    match (exchange.ending, exchange.closed) {
        (
            Some(Ending::Reset {
                by_client: true, ..
            }),
            _,
        ) => None,
        // Packet times are not in the view, so whether the deadline had passed cannot be
        // checked: a server CANCEL on a call with one is taken as its expiry, which is
        // what gRPC servers send when they give up on a call past its deadline.
        (Some(Ending::Reset { code: CANCEL, .. }), _) if deadline => None,
        (Some(Ending::Reset { code, .. }), _) => Some(End::Reset(code)),
        (Some(Ending::Refused), _) => Some(End::Refused),
        (None, Some(Closed { by_client: false })) => Some(End::Closed),
        (None, Some(Closed { by_client: true }) | None) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::capture::{GrpcBody, read_http};
    use crate::input::source::Span;

    const CALL: &[u8] = b"POST /lf.a2a.v1.A2AService/GetTask HTTP/1.1\r\ngrpc-timeout: 1S\r\n\r\n\
                          HTTP/1.1 200 OK\r\nx-id: r-1\r\n\r\n";

    /// How the call ends once `set` has shaped it; its response holds `messages`, and
    /// its request sets a deadline when `deadline`.
    fn end(messages: usize, deadline: bool, set: impl FnOnce(&mut Exchange<'_>)) -> Option<End> {
        let mut capture = read_http(CALL);
        let exchange = &mut capture.exchanges[0];
        if !deadline {
            exchange.request.as_mut().unwrap().headers.clear();
        }
        exchange.response.as_mut().unwrap().grpc = Some(GrpcBody {
            messages: vec![(Span::new(0, 0), true); messages],
            status: None,
        });
        set(exchange);
        server_end(exchange, exchange.response.as_ref().unwrap())
    }

    /// The response stopped before END_STREAM, and the stream ended as `ending` and
    /// `closed` say.
    fn stopped(ending: Option<Ending>, closed: Option<Closed>) -> impl FnOnce(&mut Exchange<'_>) {
        move |exchange| {
            exchange.response.as_mut().unwrap().body.cut = true;
            exchange.ending = ending;
            exchange.closed = closed;
        }
    }

    #[test]
    fn a_response_that_ended_is_judged_by_what_it_ended_with() {
        assert_eq!(end(1, false, |_| {}), Some(End::OnData));
        assert_eq!(end(0, false, |_| {}), Some(End::Bare));
        let with_trailer = |exchange: &mut Exchange<'_>| {
            let response = exchange.response.as_mut().unwrap();
            let field = response.headers[0];
            response.trailers.push(field);
        };
        assert_eq!(end(1, false, with_trailer), Some(End::Trailers));
    }

    #[test]
    fn a_stream_stopped_by_the_server_is_its_end() {
        let reset = |code, by_client| Some(Ending::Reset { code, by_client });
        let closed = |by_client| Some(Closed { by_client });
        assert_eq!(
            end(1, false, stopped(reset(2, false), None)),
            Some(End::Reset(2))
        );
        assert_eq!(
            end(1, false, stopped(reset(CANCEL, false), None)),
            Some(End::Reset(CANCEL))
        );
        assert_eq!(
            end(1, false, stopped(Some(Ending::Refused), None)),
            Some(End::Refused)
        );
        assert_eq!(
            end(1, false, stopped(None, closed(false))),
            Some(End::Closed)
        );
    }

    #[test]
    fn a_stream_stopped_by_the_client_or_the_capture_is_not() {
        let reset = |code, by_client| Some(Ending::Reset { code, by_client });
        assert_eq!(end(1, false, stopped(reset(CANCEL, true), None)), None);
        // A server CANCEL past a deadline the client set: the deadline expired.
        assert_eq!(end(1, true, stopped(reset(CANCEL, false), None)), None);
        assert_eq!(
            end(1, true, stopped(reset(2, false), None)),
            Some(End::Reset(2))
        );
        assert_eq!(
            end(1, false, stopped(None, Some(Closed { by_client: true }))),
            None
        );
        assert_eq!(end(1, false, stopped(None, None)), None);
    }
}
