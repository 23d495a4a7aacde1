//! `unsupported-version-accepted` against agent cards: the versions a card's
//! `supportedInterfaces` list (A2A §8.2) are the versions its agent supports, so a
//! successful answer to another version is reported once the card is known. Facts stay
//! compact: a card's interfaces, and per file the first successful request for each
//! interface and version, at a spot the engine keeps.

use std::collections::{HashMap, HashSet};

use foldhash::fast::FixedState;

use serde_json::Value;

use super::{Declared, Version, accepted, finding, shaped_major};
use crate::finding::Finding;
use crate::finding::run_level::{Places, RunClaims, RunFinding, Spot};
use crate::protocol::classify::{Binding, ExchangeView};

/// Which interface a request reached: its authority (`host[:port]`) and binding.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Interface {
    authority: String,
    binding: &'static str,
}

/// One successful request per interface and version of a file, not yet compared with a
/// card that describes its interface.
#[derive(Debug)]
struct Claim {
    declared: String,
    /// Later requests of the file declaring the same version to the same interface.
    more: usize,
    at: Spot,
}

/// What one file knows for the comparison: the interfaces its agent cards list, and
/// its claims that no card of the file describes.
#[derive(Debug, Default)]
pub struct VersionFacts {
    cards: Vec<(Interface, Version)>,
    /// Hashed with a fixed fast hash: a claim is looked up for every request to an A2A
    /// operation, and SipHash cost more than the rest of the look-up.
    claims: HashMap<(Interface, Version), Claim, FixedState>,
}

impl VersionFacts {
    /// Notes the interfaces of an agent card answered in `view`.
    pub fn read_card(&mut self, view: &ExchangeView<'_, '_>) {
        if view.binding != Binding::Discovery || !view.succeeded() {
            return;
        }
        let Some(Value::Array(interfaces)) = (view.response.as_ref())
            .and_then(|r| r.json.value())
            .and_then(|card| card.get("supportedInterfaces"))
        else {
            return;
        };
        for interface in interfaces {
            let text = |member: &str| interface.get(member).and_then(Value::as_str);
            let (Some(url), Some(binding), Some(version)) = (
                text("url"),
                text("protocolBinding").and_then(binding_named),
                text("protocolVersion").and_then(Version::parse),
            ) else {
                continue;
            };
            let authority = normal_authority(url_authority(url));
            self.cards.push((Interface { authority, binding }, version));
        }
    }

    /// The claim `view` makes, when it is a successful request whose version only a
    /// card can judge (a major the shape contradicts is reported at once); counted if
    /// the file made it before. `Some` asks for its finding, for [`Self::claim`].
    pub fn new_claim(&mut self, view: &ExchangeView<'_, '_>) -> Option<ClaimKey> {
        let declared = Declared::of(view)?;
        let same_major = shaped_major(view).is_none_or(|m| m == declared.version.major);
        if !same_major || !accepted(view) {
            return None;
        }
        let key = (interface_of(view)?, declared.version);
        if let Some(claim) = self.claims.get_mut(&key) {
            claim.more += 1;
            return None;
        }
        let finding = finding(view, &declared, String::new());
        Some(ClaimKey {
            key,
            declared: declared.text.to_string(),
            finding,
        })
    }

    /// Keeps a new claim, its finding kept by the engine at `at`.
    pub fn claim(&mut self, key: ClaimKey, at: Spot) {
        let claim = Claim {
            declared: key.declared,
            more: 0,
            at,
        };
        self.claims.insert(key.key, claim);
    }

    /// Compares the claims with the file's own cards, at the end of the file: the
    /// findings (of file 0) of those a card contradicts. Claims no card of the file
    /// describes wait for the run ([`RunVersions`]).
    pub fn settle(&mut self) -> Vec<RunFinding> {
        let cards: Vec<(Option<&str>, &(Interface, Version))> =
            self.cards.iter().map(|card| (None, card)).collect();
        decide(0, &mut self.claims, &listed_by_interface(&cards))
    }
}

/// A new claim and its finding, to resolve before it is kept.
pub struct ClaimKey {
    key: (Interface, Version),
    declared: String,
    pub finding: Finding,
}

/// The run's facts, gathered file by file as each file is done: each card interface and
/// version once (with the first file that listed it), and every file's waiting claims
/// by number, their keys held once for the run.
#[derive(Debug, Default)]
pub struct RunVersions {
    cards: Vec<(usize, (Interface, Version))>,
    listed: HashSet<(Interface, Version), FixedState>,
    /// Keyed by interface, version and the version as declared.
    claims: RunClaims<((Interface, Version), String)>,
}

impl RunVersions {
    /// Takes in what file `file` left waiting.
    /// Says whether it kept anything of the file (a card, a claim).
    pub fn add(&mut self, file: usize, facts: &VersionFacts) -> bool {
        let mut kept = !facts.claims.is_empty();
        for card in &facts.cards {
            // The first file to list an interface's version is the one messages name.
            if self.listed.insert(card.clone()) {
                self.cards.push((file, card.clone()));
                kept = true;
            }
        }
        let mut claims: Vec<_> = facts.claims.iter().collect();
        // In the file's order, as the judgement names them.
        claims.sort_by_key(|(_, claim)| claim.at);
        for (interface_version, claim) in claims {
            let key = (interface_version.clone(), claim.declared.clone());
            self.claims.push(file, key, claim.more, claim.at);
        }
        kept
    }

    /// Compares every waiting claim with the cards of the whole run.
    pub fn check(&self, places: &dyn Places) -> Vec<RunFinding> {
        if self.cards.is_empty() {
            return Vec::new();
        }
        let paths: Vec<String> = self.cards.iter().map(|(f, _)| places.path(*f)).collect();
        let cards: Vec<(Option<&str>, &(Interface, Version))> = (self.cards.iter().zip(&paths))
            .map(|((_, card), path)| (Some(path.as_str()), card))
            .collect();
        // Indexed once for the run: every file's claims meet every card otherwise.
        let listed = listed_by_interface(&cards);
        let mut found = Vec::new();
        for claim in self.claims.iter() {
            let ((interface, version), declared) = self.claims.key(claim.key);
            let waiting = Claim {
                declared: declared.clone(),
                more: claim.more,
                at: claim.at,
            };
            found.extend(judged(claim.file, interface, version, &waiting, &listed));
        }
        found
    }
}

/// Each interface the cards describe, with the versions they list for it (and the file
/// each card was read in, `None` for the claims' own), in the order of the cards.
type Listed<'c> = HashMap<&'c Interface, Vec<(Option<&'c str>, Version)>, FixedState>;

fn listed_by_interface<'c>(cards: &[(Option<&'c str>, &'c (Interface, Version))]) -> Listed<'c> {
    let mut listed: Listed<'c> = HashMap::default();
    for &(path, (interface, version)) in cards {
        listed.entry(interface).or_default().push((path, *version));
    }
    listed
}

/// Takes out the claims whose interface one of the cards describes, and gives the
/// findings of those whose version no card lists.
fn decide(
    file: usize,
    claims: &mut HashMap<(Interface, Version), Claim, FixedState>,
    cards: &Listed<'_>,
) -> Vec<RunFinding> {
    let mut found = Vec::new();
    claims.retain(|(interface, version), claim| {
        if !cards.contains_key(interface) {
            return true;
        }
        found.extend(judged(file, interface, version, claim, cards));
        false
    });
    found
}

/// The finding of a claim whose interface the cards describe but whose version none lists.
fn judged(
    file: usize,
    interface: &Interface,
    version: &Version,
    claim: &Claim,
    cards: &Listed<'_>,
) -> Option<RunFinding> {
    let listed = cards.get(interface)?;
    let &(path, _) = listed.first()?;
    if listed.iter().any(|(_, v)| v == version) {
        return None;
    }
    let mut versions: Vec<String> = listed.iter().map(|(_, v)| v.to_string()).collect();
    versions.sort();
    versions.dedup();
    Some(RunFinding {
        file,
        spot: claim.at,
        message: message(claim, interface, &versions, path),
        help: None,
        related: Vec::new(),
    })
}

fn message(
    claim: &Claim,
    interface: &Interface,
    versions: &[String],
    path: Option<&str>,
) -> String {
    let card = match path {
        Some(path) => format!("the agent card read in {path}"),
        None => "the agent card in this file".to_string(),
    };
    let more = match claim.more {
        0 => String::new(),
        1 => "; 1 more request in this file did the same".to_string(),
        n => format!("; {n} more requests in this file did the same"),
    };
    let declares = match interface.binding.eq_ignore_ascii_case("GRPC") {
        true => "call declares `a2a-version`",
        false => "request declares A2A-Version",
    };
    format!(
        "{declares} {}, which {card} does not list for {} at {} (it lists {}), and was \
         answered with success{more}",
        claim.declared,
        interface.binding,
        interface.authority,
        versions.join(", ")
    )
}

/// The interface a request reached: the authority it was sent to and its binding.
fn interface_of(view: &ExchangeView<'_, '_>) -> Option<Interface> {
    let request = view.exchange.request.as_ref()?;
    let host = (request.header("host"))
        .or_else(|| request.header(":authority"))
        .and_then(|h| h.value_str())
        .unwrap_or("");
    let binding = match view.binding {
        Binding::JsonRpc => "JSONRPC",
        Binding::HttpJson => "HTTP+JSON",
        Binding::Grpc => "GRPC",
        Binding::Discovery | Binding::Other => return None,
    };
    Some(Interface {
        authority: normal_authority(host),
        binding,
    })
}

/// A card's `protocolBinding` as one of the three bindings (A2A §8.2); `None` for a
/// custom binding's URI.
fn binding_named(name: &str) -> Option<&'static str> {
    ["JSONRPC", "HTTP+JSON", "GRPC"]
        .into_iter()
        .find(|b| b.eq_ignore_ascii_case(name.trim()))
}

/// The authority of an interface URL: `https://agent.example:8443/a2a` gives
/// `agent.example:8443`; a gRPC interface is often written `host:port` alone.
fn url_authority(url: &str) -> &str {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    authority
        .rsplit_once('@')
        .map_or(authority, |(_, host)| host)
}

/// An authority compared case-blind, the default ports of http and https left out.
fn normal_authority(authority: &str) -> String {
    let authority = authority.trim().to_ascii_lowercase();
    match authority
        .strip_suffix(":80")
        .or_else(|| authority.strip_suffix(":443"))
    {
        Some(host) => host.to_string(),
        None => authority,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interface_urls_give_their_authority() {
        assert_eq!(
            url_authority("https://agent.example:8443/a2a"),
            "agent.example:8443"
        );
        assert_eq!(url_authority("localhost:50051"), "localhost:50051");
        assert_eq!(url_authority("grpc://user@agent:50051"), "agent:50051");
        assert_eq!(url_authority("http://agent.example?x=1"), "agent.example");
        assert_eq!(normal_authority("Agent.Example:443"), "agent.example");
        assert_eq!(normal_authority("agent:8080"), "agent:8080");
    }

    #[test]
    fn bindings_are_named_as_cards_name_them() {
        assert_eq!(binding_named("GRPC"), Some("GRPC"));
        assert_eq!(binding_named("jsonrpc"), Some("JSONRPC"));
        assert_eq!(binding_named("HTTP+JSON"), Some("HTTP+JSON"));
        assert_eq!(binding_named("https://example.com/bindings/ws"), None);
    }
}
