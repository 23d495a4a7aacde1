//! `unsupported-version-accepted`: a request declaring an A2A version the agent cannot
//! support, answered with success instead of VersionNotSupportedError (A2A §3.6.2). The
//! major version is judged here, exchange by exchange; the versions an agent card lists
//! are compared once its card is known (`cards`, in the file and then across the run).

mod cards;

use serde_json::Value;

pub use cards::{RunVersions, VersionFacts};

use crate::finding::Finding;
use crate::input::source::{Label, Span};
use crate::protocol::classify::{Binding, ExchangeView, Generation};
use crate::protocol::table::table;
use crate::rules::{Hooks, Rule, RuleId};

pub struct UnsupportedVersionAccepted;

impl Rule for UnsupportedVersionAccepted {
    fn id(&self) -> RuleId {
        RuleId::UnsupportedVersionAccepted
    }

    fn hooks(&self) -> Hooks {
        Hooks::EXCHANGE
    }

    fn check_exchange(&self, view: &ExchangeView<'_, '_>, out: &mut Vec<Finding>) {
        let Some(declared) = Declared::of(view) else {
            return;
        };
        let Some(shaped) = shaped_major(view) else {
            return;
        };
        if declared.version.major == shaped || !accepted(view) {
            return;
        }
        // An interface answers in one major version's shapes: a 1.0 answer to 2.0 or 99.0
        // means the version was never checked.
        let message = format!(
            "{} {} and was answered with success, by an interface that answers in A2A \
             {shaped}.x and so cannot support {}.x",
            declares(view.binding),
            declared.text,
            declared.version.major
        );
        out.push(finding(view, &declared, message));
    }
}

/// An A2A protocol version as negotiation reads it: `Major.Minor`, patch numbers left
/// out (A2A §3.6: they must not take part in negotiation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Version {
    pub major: u64,
    pub minor: u64,
}

impl Version {
    /// `1.0`, `1.0.1` (as `1.0`), `2` (as `2.0`); `None` for what is no version number.
    pub fn parse(text: &str) -> Option<Version> {
        // Digits only, read as they are checked; `None` when empty or past `u64`.
        let number = |part: Option<&[u8]>| {
            (part.filter(|p| !p.is_empty())?.iter()).try_fold(0u64, |n, &b| {
                let digit = b.is_ascii_digit().then(|| u64::from(b - b'0'))?;
                n.checked_mul(10)?.checked_add(digit)
            })
        };
        // Split as bytes: a `str` split by a `char` cost more than the rest (a request and
        // a card each ask for several versions).
        let mut parts = text.trim().as_bytes().split(|&b| b == b'.');
        let major = number(parts.next())?;
        let minor = match parts.next() {
            None => 0,
            part => number(part)?,
        };
        Some(Version { major, minor })
    }
}

impl std::fmt::Display for Version {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

/// The version a request to an A2A operation declares, and where it is declared. Most
/// requests declare a version their interface supports, so what the label says is found
/// only for a finding (`label`).
struct Declared<'v> {
    version: Version,
    text: &'v str,
    span: Span,
}

impl<'v> Declared<'v> {
    fn of(view: &'v ExchangeView<'_, '_>) -> Option<Declared<'v>> {
        if !view.is_a2a_operation() {
            return None;
        }
        let (text, span) = view.declared_version()?;
        let version = Version::parse(text)?;
        Some(Declared {
            version,
            text,
            span,
        })
    }

    /// A label on the declared value, naming the header (as the request spells it) or
    /// the query parameter, and the value.
    fn label(&self, view: &ExchangeView<'_, '_>) -> Label {
        // Over HTTP a header or the query parameter (A2A §3.6.1); over gRPC metadata. A
        // version is only declared by a request, so the request is there.
        let header = (view.request.as_ref()).and_then(|r| r.header("a2a-version"));
        let (place, name) = match header {
            Some(header) => ("request/header/a2a-version", header.name),
            None => ("request/query/a2a-version", "A2A-Version"),
        };
        Label::at(self.span, format!("{name} {}", self.text)).member(place)
    }
}

/// The major version the exchange is shaped as: its method names, paths, service
/// package and members (`classify` reads them when the declared version says nothing
/// it knows).
fn shaped_major(view: &ExchangeView<'_, '_>) -> Option<u64> {
    match view.generation {
        Generation::V1_0 => Some(1),
        Generation::V0_3 => Some(0),
        Generation::Unknown => None,
    }
}

/// Was the request answered with success? A 2xx answer with no error and, over gRPC,
/// `grpc-status: 0`; over JSON-RPC it must also hold a `result`, in the body or an event
/// (a 200 page that is no JSON-RPC response says nothing).
fn accepted(view: &ExchangeView<'_, '_>) -> bool {
    let Some(response) = view.response.as_ref().filter(|_| view.succeeded()) else {
        return false;
    };
    let has_result = |json: Option<&Value>| json.is_some_and(|j| j.get("result").is_some());
    match view.binding {
        Binding::JsonRpc => {
            has_result(response.json.value())
                || (response.events.iter()).any(|e| has_result(e.json.value()))
        }
        _ => true,
    }
}

/// The finding at the declared version, with the success as related label and a help
/// naming the error the profile's table gives VersionNotSupported on this binding.
/// How a request declares its version, for messages: a header (or query parameter)
/// over HTTP, metadata over gRPC (A2A §3.6.1, §10.2).
pub fn declares(binding: Binding) -> &'static str {
    match binding {
        Binding::Grpc => "call declares `a2a-version`",
        _ => "request declares A2A-Version",
    }
}

fn finding(view: &ExchangeView<'_, '_>, declared: &Declared<'_>, message: String) -> Finding {
    let mut finding = Finding::new(
        RuleId::UnsupportedVersionAccepted,
        declared.label(view),
        message,
    );
    if let Some(response) = &view.response {
        finding = finding.related(response.outcome_label("success"));
    }
    finding.help(help(view))
}

fn help(view: &ExchangeView<'_, '_>) -> String {
    let answer = match table().a2a_by_reason("VERSION_NOT_SUPPORTED") {
        Some(error) => match view.binding {
            Binding::JsonRpc => format!("JSON-RPC error {}", error.jsonrpc),
            Binding::Grpc => {
                let name = error.grpc(view.profile);
                let code = (0..=16).find(|&c| crate::input::proto::code_name(c) == Some(name));
                let code = code.map_or(String::new(), |c| format!("{c} "));
                format!("grpc-status {code}({name}) with an ErrorInfo `VERSION_NOT_SUPPORTED`")
            }
            _ => format!(
                "HTTP {} with a Status `{}` and an ErrorInfo `VERSION_NOT_SUPPORTED`",
                error.http(view.profile),
                error.grpc(view.profile)
            ),
        },
        None => "VersionNotSupportedError".to_string(),
    };
    format!(
        "an agent must answer a version its interface does not support with \
         VersionNotSupportedError (A2A §3.6.2): here {answer} under {}; processing it \
         anyway gives the client semantics it did not ask for",
        view.profile.table_name()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_are_major_and_minor() {
        let v = |major, minor| Some(Version { major, minor });
        assert_eq!(Version::parse("1.0"), v(1, 0));
        assert_eq!(Version::parse(" 1.0.1 "), v(1, 0));
        assert_eq!(Version::parse("99.0"), v(99, 0));
        assert_eq!(Version::parse("2"), v(2, 0));
        assert_eq!(Version::parse("0.3"), v(0, 3));
        assert_eq!(Version::parse("18446744073709551615.01"), v(u64::MAX, 1));
        for not_a_version in [
            "",
            "v1",
            "1.x",
            "1..0",
            "-1.0",
            "one",
            "18446744073709551616",
        ] {
            assert_eq!(Version::parse(not_a_version), None, "{not_a_version}");
        }
        assert_eq!(Version::parse("1.0.1").unwrap().to_string(), "1.0");
    }
}
