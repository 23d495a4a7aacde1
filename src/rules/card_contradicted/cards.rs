//! `card-contradicted`, the cards: what a discovery answer's agent card promises (its
//! capability flags and its interfaces, A2A §8.2), each promise placed in its file.

use serde_json::Value;

use super::{Authority, Capability};
use crate::finding::run_level::Spot;
use crate::input::source::Label;
use crate::protocol::classify::{Binding, ExchangeView};
use crate::rules::unsupported_version_accepted::Version;

/// One agent card read in the run.
#[derive(Clone, Debug)]
pub struct Card {
    /// Whom it speaks for: the authority it was fetched from and each interface's.
    pub(super) authorities: Vec<Authority>,
    pub(super) interfaces: Vec<Interface>,
    /// One per [`Capability::ALL`], in that order.
    pub(super) flags: Vec<Flag>,
}

/// A capability flag as the card states it (absent is false, A2A §3.3.4).
#[derive(Clone, Debug)]
pub(super) struct Flag {
    pub value: bool,
    pub stated: bool,
    pub at: Spot,
}

/// One of `supportedInterfaces`.
#[derive(Clone, Debug)]
pub(super) struct Interface {
    pub authority: Authority,
    /// The URL's path, no trailing `/`: empty for `host:port` or a bare origin.
    pub path: String,
    /// `protocolBinding` as written (a core name or a custom binding's URI).
    pub binding: String,
    pub version: Option<Version>,
    pub url: String,
    pub at: Spot,
}

impl Card {
    /// The card a successful discovery answer holds; `place` keeps a label on it.
    pub fn read(view: &ExchangeView<'_, '_>, place: &mut dyn FnMut(Label) -> Spot) -> Option<Card> {
        if view.binding != Binding::Discovery || !view.succeeded() {
            return None;
        }
        let response = view.response.as_ref()?;
        let card = response.json.value()?.as_object()?;
        let mut authorities: Vec<Authority> = Authority::of_request(view).into_iter().collect();
        let mut interfaces = Vec::new();
        let listed = card.get("supportedInterfaces").and_then(Value::as_array);
        for (i, interface) in listed.into_iter().flatten().enumerate() {
            let text = |member: &str| interface.get(member).and_then(Value::as_str);
            let (Some(url), Some(binding)) = (text("url"), text("protocolBinding")) else {
                continue;
            };
            let Some((authority, path)) = split_url(url) else {
                continue;
            };
            if !authorities.contains(&authority) {
                authorities.push(authority.clone());
            }
            let at = place(response.label(
                &format!("/supportedInterfaces/{i}/protocolBinding"),
                format!("{binding} at {url}"),
            ));
            interfaces.push(Interface {
                authority,
                path,
                binding: binding.trim().to_string(),
                version: text("protocolVersion").and_then(Version::parse),
                url: url.to_string(),
                at,
            });
        }
        let capabilities = card.get("capabilities").and_then(Value::as_object);
        let flags = Capability::ALL
            .iter()
            .map(|capability| {
                let member = capability.member();
                let value = capabilities
                    .and_then(|c| c.get(member))
                    .and_then(Value::as_bool);
                let at = match (value, capabilities) {
                    (Some(value), _) => response.label(
                        &format!("/capabilities/{member}"),
                        format!("{member}: {value}"),
                    ),
                    (None, Some(_)) => {
                        response.key_label("/capabilities", format!("no `{member}`"))
                    }
                    (None, None) => response.opening_label("", "no `capabilities`"),
                };
                Flag {
                    value: value.unwrap_or(false),
                    stated: value.is_some(),
                    at: place(at),
                }
            })
            .collect();
        Some(Card {
            authorities,
            interfaces,
            flags,
        })
    }

    pub(super) fn flag(&self, capability: Capability) -> &Flag {
        let index = Capability::ALL.iter().position(|c| *c == capability);
        &self.flags[index.unwrap_or(0)]
    }

    /// Does `other` promise the same as this card, word for word (wherever each was read)?
    pub(super) fn promises_as(&self, other: &Card) -> bool {
        let same_interface = |a: &Interface, b: &Interface| {
            (&a.authority, &a.path, &a.binding, a.version, &a.url)
                == (&b.authority, &b.path, &b.binding, b.version, &b.url)
        };
        self.authorities == other.authorities
            && self.interfaces.len() == other.interfaces.len()
            && (self.interfaces.iter().zip(&other.interfaces)).all(|(a, b)| same_interface(a, b))
            && (self.flags.iter().map(|f| (f.value, f.stated)))
                .eq(other.flags.iter().map(|f| (f.value, f.stated)))
    }

    /// Does the card speak for an agent at `authority`?
    pub(super) fn governs(&self, authority: &Authority) -> bool {
        self.authorities.iter().any(|a| a.matches(authority))
    }
}

/// An interface URL's authority (its scheme's default port when it names none) and
/// path: `https://agent.example/a2a/` gives `agent.example:443` and `/a2a`; a gRPC
/// interface is often `host:port` alone (A2A §10).
fn split_url(url: &str) -> Option<(Authority, String)> {
    let (scheme, rest) = match url.split_once("://") {
        Some((scheme, rest)) => (Some(scheme.to_ascii_lowercase()), rest),
        None => (None, url),
    };
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let (authority, tail) = rest.split_at(end);
    let authority = authority
        .rsplit_once('@')
        .map_or(authority, |(_, host)| host);
    let default_port = match scheme.as_deref() {
        Some("http") => Some(80),
        Some("https") => Some(443),
        _ => None,
    };
    let path = tail.split(['?', '#']).next().unwrap_or("");
    Some((
        Authority::parse(authority, default_port)?,
        path.trim_end_matches('/').to_string(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn authority(host: &str, port: Option<u16>) -> Authority {
        Authority {
            host: host.to_string(),
            port,
        }
    }

    #[test]
    fn interface_urls_give_authority_and_path() {
        let split = |url| split_url(url).unwrap();
        assert_eq!(
            split("https://Agent.example/a2a/"),
            (authority("agent.example", Some(443)), "/a2a".to_string())
        );
        assert_eq!(
            split("http://agent.example:8080/a2a/rest?x=1"),
            (
                authority("agent.example", Some(8080)),
                "/a2a/rest".to_string()
            )
        );
        assert_eq!(
            split("agent.example:50051"),
            (authority("agent.example", Some(50051)), String::new())
        );
        assert_eq!(
            split("grpc://user@[::1]:50051"),
            (authority("::1", Some(50051)), String::new())
        );
        assert_eq!(split_url("https:///a2a"), None);
    }

    #[test]
    fn an_unknown_port_matches_any() {
        let any = authority("agent.example", None);
        let http = authority("agent.example", Some(80));
        let other = authority("agent.example", Some(8080));
        assert!(any.matches(&http) && http.matches(&any));
        assert!(!http.matches(&other));
        assert!(!any.same_port(&http));
        assert!(http.same_port(&http.clone()));
        assert!(!authority("other.example", None).matches(&any));
    }
}
