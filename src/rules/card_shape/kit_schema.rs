//! `card-shape` under `tck`: the members the test kit's card schema allows. a2a-tck
//! 1.0-dev validates the card against a JSON Schema generated from `a2a.proto` in which
//! every object forbids members it does not name (CARD-STRUCT-001, CARD-PROTO-002), so a
//! member the spec tells clients to ignore (§5.7) fails the kit.

use serde_json::Value;

/// `lf.a2a.v1.AgentCard`'s fields, by JSON name and proto name.
const CARD: [&str; 21] = [
    "name",
    "description",
    "supportedInterfaces",
    "supported_interfaces",
    "provider",
    "version",
    "documentationUrl",
    "documentation_url",
    "capabilities",
    "securitySchemes",
    "security_schemes",
    "securityRequirements",
    "security_requirements",
    "defaultInputModes",
    "default_input_modes",
    "defaultOutputModes",
    "default_output_modes",
    "skills",
    "signatures",
    "iconUrl",
    "icon_url",
];

/// `lf.a2a.v1.AgentCapabilities`.
const CAPABILITIES: [&str; 6] = [
    "streaming",
    "pushNotifications",
    "push_notifications",
    "extendedAgentCard",
    "extended_agent_card",
    "extensions",
];

/// `lf.a2a.v1.AgentInterface`.
const INTERFACE: [&str; 6] = [
    "url",
    "protocolBinding",
    "protocol_binding",
    "protocolVersion",
    "protocol_version",
    "tenant",
];

/// A member the kit's schema rejects: its JSON pointer, its name, and the object it is in.
pub struct Unknown {
    pub pointer: String,
    pub member: String,
    pub within: &'static str,
}

/// The members of the card at `at` the kit's schema rejects. The 0.3 top-level `url` and
/// `protocolVersion` are left out: the card's legacy finding names them already.
pub fn unknown_members(card: &Value, at: &str) -> Vec<Unknown> {
    let mut found = Vec::new();
    let mut check =
        |object: &Value, pointer: &str, allowed: &[&str], within: &'static str, skip: &[&str]| {
            let Some(object) = object.as_object() else {
                return;
            };
            for member in object.keys() {
                if !allowed.contains(&member.as_str()) && !skip.contains(&member.as_str()) {
                    found.push(Unknown {
                        pointer: format!("{pointer}/{}", escape(member)),
                        member: member.clone(),
                        within,
                    });
                }
            }
        };
    check(card, at, &CARD, "AgentCard", &["url", "protocolVersion"]);
    if let Some(capabilities) = card.get("capabilities") {
        check(
            capabilities,
            &format!("{at}/capabilities"),
            &CAPABILITIES,
            "AgentCapabilities",
            &[],
        );
    }
    if let Some(Value::Array(interfaces)) = card.get("supportedInterfaces") {
        for (i, interface) in interfaces.iter().enumerate() {
            let pointer = format!("{at}/supportedInterfaces/{i}");
            check(interface, &pointer, &INTERFACE, "AgentInterface", &[]);
        }
    }
    found
}

/// A member name as a JSON pointer token (RFC 6901 §3).
fn escape(member: &str) -> String {
    member.replace('~', "~0").replace('/', "~1")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn finds_members_the_kit_schema_rejects() {
        let card = json!({"name": "a", "url": "https://x", "preferredTransport": "JSONRPC",
            "capabilities": {"streaming": true, "stateTransitionHistory": false},
            "supportedInterfaces": [{"url": "u", "protocol_binding": "GRPC", "transport": "x"}]});
        let found: Vec<String> = unknown_members(&card, "")
            .into_iter()
            .map(|u| format!("{} {}", u.pointer, u.within))
            .collect();
        assert_eq!(
            found,
            [
                "/preferredTransport AgentCard",
                "/capabilities/stateTransitionHistory AgentCapabilities",
                "/supportedInterfaces/0/transport AgentInterface",
            ]
        );
    }
}
