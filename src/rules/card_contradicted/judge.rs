//! `card-contradicted`, the judgement: every file's claims meet every card of the run
//! that speaks for their agent. A claim two cards of one agent disagree on is
//! left alone (the run holds two versions of the card, and either may be the one in
//! force).

use std::collections::BTreeMap;
use std::hash::BuildHasher;

use foldhash::quality::FixedState;

use super::cards::{Card, Flag, Interface};
use super::{Authority, Capability, Claimed, NewClaim};
use crate::finding::run_level::{Place, Places, RunFinding, Spot};

/// What one file leaves for the judgement: its cards, and the first claim of each kind
/// it made, kept by the engine.
#[derive(Debug, Default)]
pub struct CardFacts {
    pub(super) cards: Vec<Card>,
    /// Kinds of claim times agents, in the order made; looked up once per exchange.
    pub(super) claims: Vec<((Claimed, Authority), Claim)>,
    /// Past [`SEARCHED_AT_MOST`] kinds, where each is in `claims`, by its hash: a file
    /// makes a handful, searched faster than hashed, but one large HAR log of many
    /// agents' traffic makes many, and searching them all per exchange grew with the
    /// square of the log.
    by_hash: BTreeMap<u64, Vec<usize>>,
}

/// Kinds of claim a file's lookups search one by one before they are found by hash.
const SEARCHED_AT_MOST: usize = 16;

/// The hash a kind of claim is found by, with a fixed seed: the index is never stored, but
/// two files that made the same claims then hold the same facts, down to their order.
fn hash_of(claimed: &Claimed, authority: &Authority) -> u64 {
    FixedState::default().hash_one((claimed, authority))
}

#[derive(Debug)]
pub(super) struct Claim {
    pub declared: Option<String>,
    /// Later exchanges of the file that made the same claim.
    pub more: usize,
    pub at: Spot,
}

impl CardFacts {
    pub fn add_card(&mut self, card: Card) {
        self.cards.push(card);
    }

    /// Has the file made this claim already? Counts it if so.
    pub fn repeat(&mut self, claimed: &Claimed, authority: &Authority) -> bool {
        let is = |at: &usize| {
            let (c, a) = &self.claims[*at].0;
            c == claimed && a == authority
        };
        let found = match self.claims.len() <= SEARCHED_AT_MOST {
            true => (0..self.claims.len()).find(is),
            false => (self.by_hash.get(&hash_of(claimed, authority)))
                .and_then(|candidates| candidates.iter().copied().find(is)),
        };
        match found {
            Some(at) => {
                self.claims[at].1.more += 1;
                true
            }
            None => false,
        }
    }

    /// Keeps a new claim, its finding kept by the engine at `at`.
    pub fn claim(&mut self, claim: NewClaim, at: Spot) {
        let kept = Claim {
            declared: claim.declared,
            more: 0,
            at,
        };
        self.claims.push(((claim.claimed, claim.authority), kept));
        // Every kind is indexed once there are more than are searched, each new one after.
        let indexed = match self.claims.len() {
            n if n == SEARCHED_AT_MOST + 1 => 0..n,
            n if n > SEARCHED_AT_MOST + 1 => n - 1..n,
            _ => 0..0,
        };
        for at in indexed {
            let (claimed, authority) = &self.claims[at].0;
            let hash = hash_of(claimed, authority);
            self.by_hash.entry(hash).or_default().push(at);
        }
    }
}

/// A card and the file it was read in.
pub(super) struct Read<'r> {
    pub file: usize,
    pub card: &'r Card,
}

/// A contradiction: what the card says, where, and what the agent answered.
#[derive(Clone)]
pub(super) struct Verdict {
    message: String,
    help: String,
    pub card_file: usize,
    pub card_at: Spot,
}

impl Verdict {
    /// The finding at `at` in file `file`, whose answer `more` later answers repeated.
    pub(super) fn finding(
        self,
        (file, at, more): (usize, Spot, usize),
        card_at: Option<Place>,
        places: &dyn Places,
    ) -> RunFinding {
        let more = match more {
            0 => String::new(),
            1 => "; 1 more answer in this file did the same".to_string(),
            n => format!("; {n} more answers in this file did the same"),
        };
        let same_file = self.card_file == file;
        let card_file = match same_file {
            true => "this file".to_string(),
            false => places.path(self.card_file),
        };
        let place = match card_at {
            Some(Place {
                frame: Some(frame), ..
            }) => format!("agent card in {card_file}, frame {frame}"),
            Some(at) => format!("agent card in {card_file}, line {}", at.line),
            None => format!("agent card in {card_file}"),
        };
        RunFinding {
            file,
            spot: at,
            message: format!("{} ({place}){more}", self.message),
            help: Some(self.help),
            related: same_file.then_some(self.card_at).into_iter().collect(),
        }
    }
}

pub(super) fn judge(
    claimed: &Claimed,
    authority: &Authority,
    declared: Option<&str>,
    cards: &[&Read<'_>],
) -> Option<Verdict> {
    match claimed {
        Claimed::Capability {
            capability,
            supported,
        } => {
            let flags: Vec<(&Read<'_>, &Flag)> = cards
                .iter()
                .map(|r| (*r, r.card.flag(*capability)))
                .collect();
            let (first, flag) = *flags.first()?;
            // Two cards of one agent that disagree: either may be the one in force.
            if flags.iter().any(|(_, f)| f.value != flag.value) || flag.value == *supported {
                return None;
            }
            Some(capability_verdict(*capability, *supported, first, flag))
        }
        Claimed::VersionRefused { binding, version } => {
            let (read, interface) = cards.iter().find_map(|r| {
                let listed = r.card.interfaces.iter().find(|i| {
                    i.binding.eq_ignore_ascii_case(binding)
                        && i.authority.matches(authority)
                        && i.version == Some(*version)
                });
                listed.map(|i| (*r, i))
            })?;
            let declared = declared.unwrap_or("");
            Some(Verdict {
                message: format!(
                    "VersionNotSupportedError for A2A version {declared}, which the agent card \
                     lists for its {binding} interface {}",
                    interface.url
                ),
                help: "an agent supports the versions its card's interfaces list (A2A §3.6.2, \
                       §8.2): answer the request, or take the version out of the card"
                    .to_string(),
                card_file: read.file,
                card_at: interface.at,
            })
        }
        Claimed::Speaks { binding, base } => {
            let (read, interface) = interface_at(cards, authority, base)?;
            if interface.binding.eq_ignore_ascii_case(binding) {
                return None;
            }
            Some(Verdict {
                message: format!(
                    "request speaks {binding} at {}, which the agent card lists as its {} \
                     interface",
                    interface.url, interface.binding
                ),
                help: "a client reaches each binding at the URL the card gives for it (A2A \
                       §8.2, §5): serve this binding where the card says, or list its \
                       interface in the card"
                    .to_string(),
                card_file: read,
                card_at: interface.at,
            })
        }
    }
}

/// The interface a request under `base` reached: the longest interface path that is a
/// whole-segment prefix of it. An interface at the root of its authority (a gRPC
/// `host:port`) is taken only when the request names the same port. With several
/// equally long, one speaking the claim's binding wins (see the caller).
fn interface_at<'r>(
    cards: &[&Read<'r>],
    authority: &Authority,
    base: &str,
) -> Option<(usize, &'r Interface)> {
    let reached = |i: &Interface| {
        let under = base == i.path
            || base
                .strip_prefix(i.path.as_str())
                .is_some_and(|rest| rest.starts_with('/'));
        under
            && if i.path.is_empty() {
                i.authority.same_port(authority)
            } else {
                i.authority.matches(authority)
            }
    };
    let mut best: Vec<(usize, &'r Interface)> = Vec::new();
    for read in cards {
        for interface in read.card.interfaces.iter().filter(|i| reached(i)) {
            match best.first() {
                Some((_, b)) if b.path.len() > interface.path.len() => {}
                Some((_, b)) if b.path.len() == interface.path.len() => {
                    best.push((read.file, interface))
                }
                _ => best = vec![(read.file, interface)],
            }
        }
    }
    // Equally long paths of different bindings: the request may speak any of them.
    let first = *best.first()?;
    let bindings_agree = best
        .iter()
        .all(|(_, i)| i.binding.eq_ignore_ascii_case(&first.1.binding));
    bindings_agree.then_some(first)
}

fn capability_verdict(
    capability: Capability,
    supported: bool,
    read: &Read<'_>,
    flag: &Flag,
) -> Verdict {
    let member = capability.member();
    let says = match flag.stated {
        true => format!("`capabilities.{member}: {}`", flag.value),
        false => format!("no `capabilities.{member}` (absent is false)"),
    };
    let (message, help) = match (capability, supported) {
        (Capability::Streaming, true) => (
            format!("a stream is served while the agent card has {says}"),
            "with streaming off an agent answers SendStreamingMessage and SubscribeToTask with \
             UnsupportedOperationError (A2A §3.3.4); set `capabilities.streaming: true` if it \
             streams",
        ),
        (Capability::Streaming, false) => (
            format!(
                "SendStreamingMessage is refused as unsupported while the agent card has {says}"
            ),
            "a client reads the card and streams (A2A §3.3.4, §8.2): serve the stream, or set \
             `capabilities.streaming: false`",
        ),
        (Capability::PushNotifications, true) => (
            format!(
                "a push notification config operation succeeds while the agent card has {says}"
            ),
            "with push notifications off an agent answers push config operations with \
             PushNotificationNotSupportedError (A2A §3.3.4); set \
             `capabilities.pushNotifications: true` if it supports them",
        ),
        (Capability::PushNotifications, false) => (
            format!("PushNotificationNotSupportedError while the agent card has {says}"),
            "a client reads the card before configuring push notifications (A2A §3.3.4): \
             support them, or set `capabilities.pushNotifications: false`",
        ),
        (Capability::ExtendedAgentCard, true) => (
            format!(
                "GetExtendedAgentCard is answered as by an agent with an extended card while \
                 the agent card has {says}"
            ),
            "with `capabilities.extendedAgentCard` false or absent an agent answers \
             GetExtendedAgentCard with UnsupportedOperationError (A2A §3.3.4, §13.3); \
             ExtendedAgentCardNotConfiguredError is for an agent that declares one but has \
             none configured",
        ),
        (Capability::ExtendedAgentCard, false) => (
            format!(
                "GetExtendedAgentCard is refused as unsupported while the agent card has {says}"
            ),
            "an agent that declares an extended card returns it, or \
             ExtendedAgentCardNotConfiguredError when none is configured (A2A §3.3.4, \
             §13.3); UnsupportedOperationError is for `extendedAgentCard` false or absent",
        ),
    };
    Verdict {
        message,
        help: help.to_string(),
        card_file: read.file,
        card_at: flag.at,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::finding::Finding;
    use crate::input::source::{Label, Span};
    use crate::rules::RuleId;

    fn claim(host: usize, binding: &'static str) -> NewClaim {
        NewClaim {
            claimed: Claimed::Speaks {
                binding,
                base: "/a2a".into(),
            },
            authority: Authority {
                host: format!("agent-{host}.example"),
                port: Some(443),
            },
            declared: None,
            finding: Finding::new(RuleId::CardContradicted, Label::at(Span::new(0, 1), ""), ""),
        }
    }

    /// Each kind is counted on itself, among the many kinds a log of many agents makes.
    #[test]
    fn a_repeated_claim_is_counted_on_its_own_kind() {
        let mut facts = CardFacts::default();
        for host in 0..500 {
            for binding in ["JSONRPC", "HTTP+JSON"] {
                let new = claim(host, binding);
                assert!(!facts.repeat(&new.claimed, &new.authority));
                facts.claim(new, Spot(0));
            }
            // Searched one by one while few, found by hash after.
            let first = claim(0, "HTTP+JSON");
            assert!(facts.repeat(&first.claimed, &first.authority));
        }
        for _ in 0..3 {
            let again = claim(250, "HTTP+JSON");
            assert!(facts.repeat(&again.claimed, &again.authority));
        }
        let unknown = claim(500, "JSONRPC");
        assert!(!facts.repeat(&unknown.claimed, &unknown.authority));
        let more: Vec<usize> = facts.claims.iter().map(|(_, c)| c.more).collect();
        assert_eq!(more.iter().sum::<usize>(), 500 + 3);
        assert_eq!((more[1], more[250 * 2 + 1]), (500, 3));
    }
}
