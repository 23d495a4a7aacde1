//! `field-violation-path`: a `fieldViolations[].field` path that does not name the field
//! as the client sent it: proto snake_case over the JSON bindings, where the wire name is
//! camelCase; JSON camelCase over gRPC, where the wire name is the proto field name.

use serde_json::Value;

use crate::finding::Finding;
use crate::protocol::classify::{ErrorForm, ErrorView, ExchangeView};
use crate::rules::{Hooks, Rule, RuleId};

pub struct FieldViolationPath;

impl Rule for FieldViolationPath {
    fn id(&self) -> RuleId {
        RuleId::FieldViolationPath
    }

    fn hooks(&self) -> Hooks {
        Hooks::ERROR
    }

    fn check_error(
        &self,
        _view: &ExchangeView<'_, '_>,
        error: &ErrorView<'_>,
        out: &mut Vec<Finding>,
    ) {
        for detail in error.bad_requests() {
            let Some(violations) = detail
                .value
                .get("fieldViolations")
                .and_then(Value::as_array)
            else {
                continue;
            };
            for (i, violation) in violations.iter().enumerate() {
                let Some(field) = violation.get("field").and_then(Value::as_str) else {
                    continue;
                };
                let finding = match error.form {
                    ErrorForm::Grpc => {
                        let proto = snake_case_path(field);
                        (proto != field).then(|| Finding::new(
                            self.id(),
                            error.label(&format!("{}/fieldViolations/{i}/field", detail.pointer), format!("proto name: {proto}")),
                            format!("field path \"{field}\" uses JSON names; the gRPC request's fields are \"{proto}\""),
                        )
                        .help("over gRPC name fields by their proto field names, as the client's generated code has them (A2A §10)"))
                    }
                    _ => {
                        let camel = camel_case_path(field);
                        (camel != field).then(|| Finding::new(
                            self.id(),
                            error.label(&format!("{}/fieldViolations/{i}/field", detail.pointer), format!("JSON name: {camel}")),
                            format!("field path \"{field}\" uses proto field names; the JSON payload says \"{camel}\""),
                        )
                        .help("name fields as they appear on the wire (ProtoJSON camelCase, A2A §5.5) so clients can map the violation to their payload"))
                    }
                };
                out.extend(finding);
            }
        }
    }
}

/// `message.messageId` becomes `message.message_id`; segments inside a `metadata` map
/// (user keys) are kept.
fn snake_case_path(path: &str) -> String {
    let mut in_metadata = false;
    path.split('.')
        .map(|segment| {
            // Constants (`TASK_STATE`) have no lower-case letters and no camel humps.
            let keep = in_metadata || !segment.chars().any(|c| c.is_ascii_lowercase());
            in_metadata |= segment.split('[').next() == Some("metadata");
            if keep {
                return segment.to_string();
            }
            let mut out = String::new();
            for (i, c) in segment.char_indices() {
                // `parts[0]`: only the name before an index is renamed.
                let in_name = !segment[..i].contains('[');
                if c.is_ascii_uppercase() && i > 0 && in_name {
                    out.push('_');
                    out.push(c.to_ascii_lowercase());
                } else {
                    out.push(c);
                }
            }
            out
        })
        .collect::<Vec<_>>()
        .join(".")
}

/// `message.message_id` becomes `message.messageId`; segments without `_`, with capitals
/// (constants), or inside a `metadata` map (user keys, any spelling) are kept.
fn camel_case_path(path: &str) -> String {
    let mut in_metadata = false;
    path.split('.')
        .map(|segment| {
            let keep = in_metadata
                || !segment.contains('_')
                || segment.chars().any(|c| c.is_ascii_uppercase());
            in_metadata |= segment.split('[').next() == Some("metadata");
            if keep {
                return segment.to_string();
            }
            let mut out = String::new();
            let mut upper = false;
            for c in segment.chars() {
                if c == '_' {
                    upper = !out.is_empty();
                } else if upper {
                    out.push(c.to_ascii_uppercase());
                    upper = false;
                } else {
                    out.push(c);
                }
            }
            out
        })
        .collect::<Vec<_>>()
        .join(".")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn converts_camel_case_segments_for_grpc() {
        assert_eq!(snake_case_path("message.messageId"), "message.message_id");
        assert_eq!(snake_case_path("message.message_id"), "message.message_id");
        assert_eq!(snake_case_path("TASK_STATE"), "TASK_STATE");
        assert_eq!(
            snake_case_path("message.parts[0].mediaType"),
            "message.parts[0].media_type"
        );
        assert_eq!(
            snake_case_path("message.metadata.sessionId"),
            "message.metadata.sessionId"
        );
    }

    #[test]
    fn converts_snake_case_segments() {
        assert_eq!(camel_case_path("message.message_id"), "message.messageId");
        assert_eq!(
            camel_case_path("params.message.parts[0].media_type"),
            "params.message.parts[0].mediaType"
        );
        assert_eq!(camel_case_path("message.messageId"), "message.messageId");
        assert_eq!(camel_case_path("page_size"), "pageSize");
        assert_eq!(camel_case_path("TASK_STATE"), "TASK_STATE");
        assert_eq!(
            camel_case_path("message.metadata.session_id"),
            "message.metadata.session_id"
        );
    }
}
