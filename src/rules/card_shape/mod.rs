//! `card-shape`: an agent card that breaks the A2A 1.0 AgentCard. The required members are
//! the ones the 1.0 proto marks `field_behavior = REQUIRED` (`lf.a2a.v1.AgentCard`,
//! `AgentInterface` in the spec's `a2a.proto`, the normative data model); the card's
//! interfaces and their bindings are A2A §8.2. A card still in the 0.3 shape (top-level `url` and
//! `protocolVersion`) is reported as legacy.

use serde_json::Value;

use crate::finding::{Finding, Severity};
use crate::protocol::classify::{Binding, ExchangeView, Generation, MessageView, Operation};
use crate::protocol::profile::Profile;
use crate::rules::{Hooks, Rule, RuleId};

mod interfaces;
mod kit_schema;
mod skills;

pub struct CardShape;

/// The members `lf.a2a.v1.AgentCard` marks REQUIRED, with the JSON type each must have.
const REQUIRED: [(&str, Kind); 8] = [
    ("name", Kind::String),
    ("description", Kind::String),
    ("supportedInterfaces", Kind::Array),
    ("version", Kind::String),
    ("capabilities", Kind::Object),
    ("defaultInputModes", Kind::Array),
    ("defaultOutputModes", Kind::Array),
    ("skills", Kind::Array),
];

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    String,
    Array,
    Object,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::String => "a string",
            Kind::Array => "an array",
            Kind::Object => "an object",
        }
    }

    fn holds(self, value: &Value) -> bool {
        match self {
            Kind::String => value.is_string(),
            Kind::Array => value.is_array(),
            Kind::Object => value.is_object(),
        }
    }
}

impl Rule for CardShape {
    fn id(&self) -> RuleId {
        RuleId::CardShape
    }

    fn hooks(&self) -> Hooks {
        Hooks::EXCHANGE
    }

    fn check_exchange(&self, view: &ExchangeView<'_, '_>, out: &mut Vec<Finding>) {
        let Some(response) = &view.response else {
            return;
        };
        let Some((card, at)) = card_of(view, response) else {
            return;
        };
        // Over gRPC the card is a decoded protobuf message: an empty repeated field is
        // not on the wire at all, so absence cannot be told from `[]` there.
        let wire_drops_empty = view.binding == Binding::Grpc;
        let kit = match view.profile {
            Profile::Tck => kit_schema::unknown_members(card, &at),
            _ => Vec::new(),
        };
        let mut report = |problem: Problem| {
            let label = match problem.place {
                Place::Value(ref p) => response.label(p, problem.label),
                Place::Key(ref p) => response.key_label(p, problem.label),
                Place::Opening(ref p) => response.opening_label(p, problem.label),
            };
            let mut finding = Finding::new(self.id(), label, problem.message).help(problem.help);
            if problem.warning {
                finding = finding.severity(Severity::Warning);
            }
            out.push(finding);
        };
        check_card(card, at, wire_drops_empty, &mut report);
        for unknown in kit {
            report(Problem {
                place: Place::Key(unknown.pointer),
                label: "not in the kit's schema".to_owned(),
                message: format!(
                    "`{}` is no member of {}: a2a-tck's card schema rejects it (CARD-STRUCT-001, \
                     CARD-PROTO-002)",
                    unknown.member, unknown.within
                ),
                help: "the kit validates the card against a schema from a2a.proto that forbids unknown members, \
                       though A2A §5.7 tells clients to ignore them; drop the member or move it under an extension"
                    .to_owned(),
                warning: false,
            });
        }
    }
}

/// The card an exchange answers with, and its JSON pointer in the body: a discovery
/// answer (2xx) is the card itself (A2A §8.2); a successful GetExtendedAgentCard carries
/// it as JSON-RPC `result` (§9.4), as the HTTP+JSON body (§11.3) or as the gRPC response
/// message (§10.4). Extended cards of 0.3-shaped exchanges are `legacy-protocol`'s.
fn card_of<'v>(
    view: &ExchangeView<'_, '_>,
    response: &'v MessageView<'_, '_>,
) -> Option<(&'v Value, String)> {
    let body = response.json.value()?;
    let status = response.message.status().unwrap_or(0);
    let (card, at) = match view.binding {
        Binding::Discovery if (200..300).contains(&status) => (body, String::new()),
        Binding::JsonRpc | Binding::HttpJson | Binding::Grpc
            if view.operation == Some(Operation::GetExtendedAgentCard)
                && view.generation != Generation::V0_3
                && view.succeeded() =>
        {
            match view.binding {
                Binding::JsonRpc => (body.get("result")?, "/result".to_owned()),
                _ => (body, String::new()),
            }
        }
        _ => return None,
    };
    card.is_object().then_some((card, at))
}

/// Where a problem's label goes.
pub(super) enum Place {
    Value(String),
    Key(String),
    Opening(String),
}

pub(super) struct Problem {
    place: Place,
    label: String,
    message: String,
    help: String,
    /// Reported as a warning: a 0.3-era member, or an open-form value; not a broken MUST.
    warning: bool,
}

fn check_card(card: &Value, at: String, wire_drops_empty: bool, report: &mut dyn FnMut(Problem)) {
    let legacy: Vec<&str> = ["url", "protocolVersion"]
        .into_iter()
        .filter(|m| card.get(*m).is_some())
        .collect();
    let interfaces = card.get("supportedInterfaces");
    // A card with top-level `url`/`protocolVersion` and no interfaces is a 0.3 card as a
    // whole: say that once instead of reporting `supportedInterfaces` missing as well.
    let whole_0_3 = !legacy.is_empty() && interfaces.is_none();

    let mut missing = Vec::new();
    for (member, kind) in REQUIRED {
        if whole_0_3 && member == "supportedInterfaces" {
            continue;
        }
        // Written only for a problem: most members are as they should be.
        let pointer = || format!("{at}/{member}");
        match card.get(member) {
            None | Some(Value::Null) if wire_drops_empty && kind == Kind::Array && member != "supportedInterfaces" => {}
            None | Some(Value::Null) => missing.push(member),
            Some(value) if !kind.holds(value) => report(Problem {
                place: Place::Value(pointer()),
                label: format!("not {}", kind.name()),
                message: format!("agent card member `{member}` is {}, expected {}", kind_of(value), kind.name()),
                help: format!("send `{member}` as {} (`lf.a2a.v1.AgentCard` in a2a.proto)", kind.name()),
                warning: false,
            }),
            Some(Value::String(s)) if s.trim().is_empty() => report(Problem {
                place: Place::Value(pointer()),
                label: "empty".to_owned(),
                message: format!("agent card member `{member}` is empty; the 1.0 AgentCard requires it"),
                help: format!("give `{member}` a value (REQUIRED in `lf.a2a.v1.AgentCard`, a2a.proto)"),
                warning: false,
            }),
            Some(Value::Array(items)) if member == "supportedInterfaces" && items.is_empty() => report(Problem {
                place: Place::Value(pointer()),
                label: "no interface".to_owned(),
                message: "agent card lists no `supportedInterfaces`: a client cannot tell where or how to call the \
                          agent"
                    .to_owned(),
                help: "list at least one interface, e.g. `{\"url\":\"https://agent.example/a2a\",\
                       \"protocolBinding\":\"JSONRPC\",\"protocolVersion\":\"1.0\"}` (A2A §8.2)"
                    .to_owned(),
                warning: false,
            }),
            Some(_) => {}
        }
    }
    if !missing.is_empty() {
        let names: Vec<String> = missing.iter().map(|m| format!("`{m}`")).collect();
        report(Problem {
            place: Place::Opening(at.clone()),
            label: format!("no {}", missing.join(", ")),
            message: format!(
                "agent card lacks required member{} {}",
                if missing.len() == 1 { "" } else { "s" },
                names.join(", ")
            ),
            help: "a 1.0 AgentCard requires `name`, `description`, `supportedInterfaces`, `version`, \
                   `capabilities`, `defaultInputModes`, `defaultOutputModes` and `skills` (REQUIRED in \
                   `lf.a2a.v1.AgentCard`, a2a.proto)"
                .to_owned(),
            warning: false,
        });
    }

    if let Some(Value::Array(skills)) = card.get("skills") {
        for (i, skill) in skills.iter().enumerate() {
            skills::check_skill(skill, &format!("{at}/skills/{i}"), wire_drops_empty, report);
        }
    }

    if let Some(Value::Array(items)) = interfaces {
        for (i, item) in items.iter().enumerate() {
            interfaces::check_interface(item, &format!("{at}/supportedInterfaces/{i}"), report);
        }
    }

    for member in legacy {
        let message = if whole_0_3 {
            format!(
                "agent card has the 0.3 shape: top-level `{member}` and no `supportedInterfaces`; a 1.0 client finds \
                 no interface to call"
            )
        } else {
            format!(
                "top-level `{member}` is the 0.3 card shape; 1.0 clients read `supportedInterfaces[]` instead"
            )
        };
        report(Problem {
            place: Place::Key(format!("{at}/{member}")),
            label: "0.3 card member".to_owned(),
            message,
            help: format!(
                "move `{member}` into a `supportedInterfaces[]` entry with `url`, `protocolBinding` and \
                 `protocolVersion` (A2A §8.2; the 1.0 AgentCard has no top-level `{member}`)"
            ),
            warning: true,
        });
    }
}

pub(super) fn kind_of(value: &Value) -> &'static str {
    crate::protocol::classify::kind_of(value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn problems(card: Value, grpc: bool) -> Vec<(String, bool)> {
        let mut found = Vec::new();
        check_card(&card, String::new(), grpc, &mut |p| {
            found.push((p.message, p.warning))
        });
        found
    }

    fn good() -> Value {
        json!({"name":"A","description":"B","version":"1","supportedInterfaces":[{"url":"https://a/x",
            "protocolBinding":"JSONRPC","protocolVersion":"1.0"}],"capabilities":{},"defaultInputModes":[],
            "defaultOutputModes":[],"skills":[]})
    }

    #[test]
    fn a_full_card_passes() {
        assert!(problems(good(), false).is_empty());
    }

    #[test]
    fn names_every_missing_member_once() {
        let mut card = good();
        card.as_object_mut().unwrap().remove("skills");
        card.as_object_mut().unwrap().remove("capabilities");
        let found = problems(card, false);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].0.contains("`capabilities`, `skills`"), "{found:?}");
    }

    #[test]
    fn grpc_cannot_tell_an_empty_list_from_none() {
        let mut card = good();
        card.as_object_mut().unwrap().remove("skills");
        assert!(problems(card.clone(), true).is_empty());
        assert_eq!(problems(card, false).len(), 1);
    }

    #[test]
    fn a_0_3_card_is_legacy_not_missing_interfaces() {
        let mut card = good();
        let object = card.as_object_mut().unwrap();
        object.remove("supportedInterfaces");
        object.insert("url".into(), json!("https://a/x"));
        object.insert("protocolVersion".into(), json!("0.3.0"));
        let found = problems(card, false);
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(
            found
                .iter()
                .all(|(m, legacy)| *legacy && m.contains("0.3 shape"))
        );
    }

    #[test]
    fn checks_interfaces_and_bindings() {
        let mut card = good();
        card["supportedInterfaces"] = json!([{"url":"https://a/x","protocolBinding":"rest"},
            {"url":"https://a/y","protocolBinding":"urn:example:binding","protocolVersion":"1.0"}, 3]);
        let found = problems(card, false);
        assert_eq!(found.len(), 3, "{found:?}");
        assert!(found[0].0.contains("lacks `protocolVersion`") && !found[0].1);
        assert!(found[1].0.contains("`rest`") && found[1].1);
        assert!(found[2].0.contains("expected an AgentInterface"));
        assert!(
            interfaces::is_binding("HTTP+JSON")
                && interfaces::is_binding("https://example.com/b")
                && !interfaces::is_binding("jsonrpc")
        );
    }
}
