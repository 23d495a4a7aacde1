//! `card-contradicted`: an answer that contradicts the agent card of its agent, read
//! anywhere in the run (A2A §3.3.4, §8.2). Each exchange leaves at most a few compact
//! claims ("this answer is right only if the card says streaming is off"); the run's
//! cards judge them at the end (`run`, `judge`).

mod cards;
mod judge;
mod run;

use crate::finding::{Finding, Severity};
use crate::protocol::classify::{Binding, ErrorView, ExchangeView, MessageView, Operation};
use crate::rules::RuleId;
use crate::rules::unsupported_version_accepted::Version;

pub use cards::Card;
pub use judge::CardFacts;
pub use run::{Added, RunCards};

/// A host and port an agent answers at. A port left out of a request's `Host` is
/// unknown and matches any; an interface URL's scheme gives its default port.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Authority {
    host: String,
    port: Option<u16>,
}

impl Authority {
    /// `agent.example:8443`, `[::1]:50051`, `agent.example`; `default_port` for none.
    fn parse(text: &str, default_port: Option<u16>) -> Option<Authority> {
        let text = text.trim();
        let (host, port) = match text.rsplit_once(':') {
            Some((host, port)) if !port.is_empty() && port.bytes().all(|b| b.is_ascii_digit()) => {
                (host, port.parse().ok())
            }
            _ => (text, default_port),
        };
        let host = host.trim_start_matches('[').trim_end_matches(']');
        (!host.is_empty()).then(|| Authority {
            host: host.to_ascii_lowercase(),
            port,
        })
    }

    /// Same host, and the same port unless one of them is unknown.
    fn matches(&self, other: &Authority) -> bool {
        self.host == other.host
            && (self.port.is_none() || other.port.is_none() || self.port == other.port)
    }

    /// Same host and a port both state: a request to the root of an interface URL
    /// (a gRPC `host:port`) is judged only then.
    fn same_port(&self, other: &Authority) -> bool {
        self.host == other.host && self.port.is_some() && self.port == other.port
    }

    /// The authority a request was sent to: `Host`, or HTTP/2's `:authority`.
    fn of_request(view: &ExchangeView<'_, '_>) -> Option<Authority> {
        let request = view.exchange.request.as_ref()?;
        let value = (request.header("host"))
            .or_else(|| request.header(":authority"))?
            .value_str()?;
        Authority::parse(value, None)
    }
}

impl std::fmt::Display for Authority {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.port {
            Some(port) => write!(f, "{}:{port}", self.host),
            None => f.write_str(&self.host),
        }
    }
}

/// The capability flags of `AgentCard.capabilities` that decide an answer (A2A §3.3.4;
/// absent counts as false).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Capability {
    Streaming,
    PushNotifications,
    ExtendedAgentCard,
}

impl Capability {
    const ALL: [Capability; 3] = [
        Capability::Streaming,
        Capability::PushNotifications,
        Capability::ExtendedAgentCard,
    ];

    fn member(self) -> &'static str {
        match self {
            Capability::Streaming => "streaming",
            Capability::PushNotifications => "pushNotifications",
            Capability::ExtendedAgentCard => "extendedAgentCard",
        }
    }
}

/// What an answer is right only under: the card's claim it is compared with.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Claimed {
    /// The answer holds only if the card says `capability` is `supported`.
    Capability {
        capability: Capability,
        supported: bool,
    },
    /// VersionNotSupported for a version over a binding: wrong if the card's interface
    /// for that binding lists the version.
    VersionRefused {
        binding: &'static str,
        version: Version,
    },
    /// A request speaking `binding` under `base` (its path, an HTTP+JSON route's
    /// operation part cut off): wrong if the card's interface there is another binding.
    Speaks { binding: &'static str, base: String },
}

/// A claim of one exchange with its finding, to be placed before it is kept.
pub struct NewClaim {
    pub claimed: Claimed,
    pub authority: Authority,
    /// Which version the request declared, for the VersionRefused message.
    pub declared: Option<String>,
    pub finding: Finding,
}

/// The binding's name as cards write it (A2A §8.2).
fn binding_name(binding: Binding) -> Option<&'static str> {
    match binding {
        Binding::JsonRpc => Some("JSONRPC"),
        Binding::HttpJson => Some("HTTP+JSON"),
        Binding::Grpc => Some("GRPC"),
        Binding::Discovery | Binding::Other => None,
    }
}

/// The claims an exchange makes, each with a finding on the answer (or, for the binding
/// spoken, on the request line). `known` says whether the file already holds a claim,
/// so that only the first of a kind is placed.
pub fn claims_of(
    view: &ExchangeView<'_, '_>,
    errors: &[ErrorView<'_>],
    known: &mut dyn FnMut(&Claimed, &Authority) -> bool,
) -> Vec<NewClaim> {
    let (Some(operation), Some(binding)) = (view.operation, binding_name(view.binding)) else {
        return Vec::new();
    };
    let (Some(request), Some(authority)) = (view.request.as_ref(), Authority::of_request(view))
    else {
        return Vec::new();
    };
    let mut claims = Vec::new();
    let mut add = |claimed: Claimed, declared: Option<String>, make: &dyn Fn() -> Finding| {
        if !known(&claimed, &authority) && !claims.iter().any(|c: &NewClaim| c.claimed == claimed) {
            claims.push(NewClaim {
                claimed,
                authority: authority.clone(),
                declared,
                finding: make(),
            });
        }
    };
    if let Some(base) = request_base(view) {
        add(Claimed::Speaks { binding, base }, None, &|| {
            on_request(request, format!("sent as {binding}"))
        });
    }
    if let Some(response) = view.response.as_ref().filter(|_| view.succeeded()) {
        if let Some(capability) = served_needs(view, operation) {
            let claimed = Claimed::Capability {
                capability,
                supported: true,
            };
            add(claimed, None, &|| on_success(response, operation));
        }
        return claims;
    }
    for error in errors {
        let Some(a2a) = error.a2a_error() else {
            continue;
        };
        let refused = refusal_needs(view, operation, &a2a.reason);
        // ExtendedAgentCardNotConfigured with the flag off is the served case: the
        // agent answers as if it had declared an extended card.
        if let Some((capability, supported)) = refused {
            let claimed = Claimed::Capability {
                capability,
                supported,
            };
            add(claimed, None, &|| match supported {
                true => on_error(error, &a2a.reason).severity(Severity::Warning),
                false => on_error(error, &a2a.reason),
            });
        }
        if a2a.reason == "VERSION_NOT_SUPPORTED"
            && let Some((text, _)) = view.declared_version()
            && let Some(version) = Version::parse(text)
        {
            let claimed = Claimed::VersionRefused { binding, version };
            add(claimed, Some(text.to_string()), &|| {
                on_error(error, &a2a.reason)
            });
        }
    }
    claims
}

/// The capability a served operation needs: a stream answered (SendStreamingMessage,
/// SubscribeToTask with events), a push config handled, an extended card returned.
fn served_needs(view: &ExchangeView<'_, '_>, operation: Operation) -> Option<Capability> {
    match operation {
        Operation::SendStreamingMessage | Operation::SubscribeToTask => {
            let streamed = (view.response.as_ref()).is_some_and(|r| !r.events.is_empty());
            streamed.then_some(Capability::Streaming)
        }
        Operation::CreateTaskPushNotificationConfig
        | Operation::GetTaskPushNotificationConfig
        | Operation::ListTaskPushNotificationConfigs
        | Operation::DeleteTaskPushNotificationConfig => Some(Capability::PushNotifications),
        Operation::GetExtendedAgentCard => Some(Capability::ExtendedAgentCard),
        _ => None,
    }
}

/// What a refusal says of the card: `(capability, supported)` it is right only under.
/// UnsupportedOperation refuses a stream only when no task is named (a stream to a
/// terminal task is refused the same way, A2A §3.1.2, §3.1.7).
fn refusal_needs(
    view: &ExchangeView<'_, '_>,
    operation: Operation,
    reason: &str,
) -> Option<(Capability, bool)> {
    match (reason, operation) {
        ("UNSUPPORTED_OPERATION", Operation::SendStreamingMessage) if !names_a_task(view) => {
            Some((Capability::Streaming, false))
        }
        ("PUSH_NOTIFICATION_NOT_SUPPORTED", _) => Some((Capability::PushNotifications, false)),
        ("UNSUPPORTED_OPERATION", Operation::GetExtendedAgentCard) => {
            Some((Capability::ExtendedAgentCard, false))
        }
        ("EXTENDED_AGENT_CARD_NOT_CONFIGURED", _) => Some((Capability::ExtendedAgentCard, true)),
        _ => None,
    }
}

/// Does the request's message continue a task (`message.taskId`)?
fn names_a_task(view: &ExchangeView<'_, '_>) -> bool {
    let Some(body) = view.request.as_ref().and_then(|r| r.json.value()) else {
        return false;
    };
    let params = body.get("params").unwrap_or(body);
    params
        .pointer("/message/taskId")
        .or_else(|| params.pointer("/request/taskId"))
        .is_some_and(|id| id.as_str().is_some_and(|s| !s.is_empty()))
}

/// The request's path as an interface URL would hold it: JSON-RPC's whole path, the
/// HTTP+JSON path before its operation's route, nothing for gRPC (its interface is a
/// `host:port`).
fn request_base(view: &ExchangeView<'_, '_>) -> Option<String> {
    let request = view.exchange.request.as_ref()?;
    let target = match request.start_line {
        crate::input::capture::StartLine::Request { target, .. } => target,
        crate::input::capture::StartLine::Response { .. } => return None,
    };
    let path = target.split(['?', '#']).next().unwrap_or("");
    let base = match view.binding {
        Binding::Grpc => "",
        Binding::HttpJson => {
            // The route begins at `tasks`, `message:…` or `extendedAgentCard` (A2A §11.3).
            let mut end = 0;
            for segment in path.split('/') {
                if segment == "tasks"
                    || segment == "extendedAgentCard"
                    || segment.starts_with("message:")
                {
                    break;
                }
                end += segment.len() + 1;
            }
            &path[..end.saturating_sub(1).min(path.len())]
        }
        _ => path,
    };
    Some(base.trim_end_matches('/').to_string())
}

fn on_request(request: &MessageView<'_, '_>, text: String) -> Finding {
    Finding::new(
        RuleId::CardContradicted,
        request.start_line_label(text),
        String::new(),
    )
}

/// Serving what the card leaves out is a warning: a client that read the card never
/// asks for it, but the card is wrong about the agent.
fn on_success(response: &MessageView<'_, '_>, operation: Operation) -> Finding {
    let text = match operation {
        Operation::SendStreamingMessage | Operation::SubscribeToTask => "answered with a stream",
        _ => "answered with success",
    };
    Finding::new(
        RuleId::CardContradicted,
        response.outcome_label(text),
        String::new(),
    )
    .severity(Severity::Warning)
}

fn on_error(error: &ErrorView<'_>, reason: &str) -> Finding {
    let label = error.label("/error/code", reason.to_string());
    Finding::new(RuleId::CardContradicted, label, String::new())
}
