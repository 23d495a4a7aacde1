//! `card-shape`, the interfaces: each `supportedInterfaces[]` entry is an AgentInterface
//! with `url`, `protocolBinding` and `protocolVersion`, and its binding is one A2A defines
//! or a URI (A2A §8.2).

use serde_json::Value;

use super::{Place, Problem, kind_of};

/// The members `lf.a2a.v1.AgentInterface` marks REQUIRED; all are strings.
const INTERFACE_REQUIRED: [&str; 3] = ["url", "protocolBinding", "protocolVersion"];

/// The bindings A2A 1.0 defines (§5, §8.2); any other must be a URI naming a custom one.
const CORE_BINDINGS: [&str; 3] = ["JSONRPC", "GRPC", "HTTP+JSON"];

/// Checks the interface at `at`: an object, its required members, its binding's name.
pub(super) fn check_interface(item: &Value, at: &str, report: &mut dyn FnMut(Problem)) {
    let Some(object) = item.as_object() else {
        report(Problem {
            place: Place::Value(at.to_owned()),
            label: "not an object".to_owned(),
            message: format!("`supportedInterfaces` entry is {}, expected an AgentInterface object", kind_of(item)),
            help: "write each interface as `{\"url\":...,\"protocolBinding\":...,\"protocolVersion\":...}` (A2A §8.2)"
                .to_owned(),
            warning: false,
        });
        return;
    };
    let missing: Vec<&str> = INTERFACE_REQUIRED
        .into_iter()
        .filter(|m| {
            object
                .get(*m)
                .and_then(Value::as_str)
                .is_none_or(|s| s.trim().is_empty())
        })
        .collect();
    if !missing.is_empty() {
        let names: Vec<String> = missing.iter().map(|m| format!("`{m}`")).collect();
        report(Problem {
            place: Place::Opening(at.to_owned()),
            label: format!("no {}", missing.join(", ")),
            message: format!(
                "`supportedInterfaces` entry lacks {} (each must be a non-empty string)",
                names.join(", ")
            ),
            help: "every AgentInterface needs `url`, `protocolBinding` and `protocolVersion` (REQUIRED in \
                   `lf.a2a.v1.AgentInterface`, a2a.proto; A2A §8.2)"
                .to_owned(),
            warning: false,
        });
    }
    if let Some(binding) = object.get("protocolBinding").and_then(Value::as_str)
        && !binding.trim().is_empty()
        && !is_binding(binding)
    {
        let hint = CORE_BINDINGS.iter().find(|core| {
            core.eq_ignore_ascii_case(binding) || (**core == "HTTP+JSON" && is_rest_alias(binding))
        });
        let help = match hint {
            Some(core) => format!("write `{core}`: binding names are exact (A2A §8.2)"),
            None => {
                "use `JSONRPC`, `GRPC` or `HTTP+JSON`, or a URI naming a custom binding (A2A §8.2)"
                    .to_owned()
            }
        };
        report(Problem {
            place: Place::Value(format!("{at}/protocolBinding")),
            label: "unknown binding".to_owned(),
            message: format!(
                "`protocolBinding` is `{binding}`, neither a binding A2A defines (`JSONRPC`, `GRPC`, `HTTP+JSON`) \
                 nor a URI"
            ),
            help,
            // The proto calls the member open-form, so a client may still know it: a
            // warning, not an error.
            warning: true,
        });
    }
}

/// A core binding name, or a URI (`scheme:...`, RFC 3986 §3.1) naming a custom one.
pub(super) fn is_binding(binding: &str) -> bool {
    if CORE_BINDINGS.contains(&binding) {
        return true;
    }
    let Some((scheme, rest)) = binding.split_once(':') else {
        return false;
    };
    let mut chars = scheme.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
        && !rest.is_empty()
}

fn is_rest_alias(binding: &str) -> bool {
    ["REST", "HTTP", "HTTP_JSON", "HTTP-JSON", "HTTPJSON"]
        .iter()
        .any(|alias| alias.eq_ignore_ascii_case(binding))
}
