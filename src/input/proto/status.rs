//! `google.rpc.Status`, the gRPC error model (A2A §10.6): its code, message and details,
//! each detail an `Any` decoded by its type URL into the JSON form the HTTP+JSON binding
//! uses for the same error (A2A §11.6), so one error view reads both.

use std::collections::BTreeMap;

use prost::Message;
use prost_types::Any;
use serde_json::{Map, Value, json};
use tonic_types::pb;

use crate::input::proto::{DecodeFailure, MAX_MESSAGE_BYTES};

/// Decodes a serialized Status into `{"code", "message", "details": [...]}`; a detail
/// whose type a2alint does not know keeps its `@type` and its bytes as base64 `value`.
pub fn decode_status(bytes: &[u8]) -> Result<Value, DecodeFailure> {
    let failure = |type_name, reason: String| DecodeFailure { type_name, reason };
    if bytes.len() > MAX_MESSAGE_BYTES {
        let reason = format!("{} bytes, past the decoding limit", bytes.len());
        return Err(failure("google.rpc.Status", reason));
    }
    let status =
        pb::Status::decode(bytes).map_err(|e| failure("google.rpc.Status", e.to_string()))?;
    let mut out = Map::new();
    if status.code != 0 {
        out.insert("code".into(), status.code.into());
    }
    if !status.message.is_empty() {
        out.insert("message".into(), status.message.into());
    }
    let details = (status.details.iter())
        .map(detail)
        .collect::<Result<Vec<_>, _>>()?;
    if !details.is_empty() {
        out.insert("details".into(), Value::Array(details));
    }
    Ok(Value::Object(out))
}

/// The short name of a type URL: what follows its last `/` (the `Any` convention).
fn type_name(url: &str) -> &str {
    url.rsplit('/').next().unwrap_or(url)
}

/// One `Any` as proto3 JSON: `@type` first, then the message's fields.
fn detail(any: &Any) -> Result<Value, DecodeFailure> {
    let fields = match type_name(&any.type_url) {
        "google.rpc.ErrorInfo" => error_info(&any.value),
        "google.rpc.BadRequest" => bad_request(&any.value),
        "google.rpc.RetryInfo" => retry_info(&any.value),
        "google.rpc.DebugInfo" => debug_info(&any.value),
        "google.rpc.PreconditionFailure" => precondition_failure(&any.value),
        "google.rpc.ResourceInfo" => resource_info(&any.value),
        "google.rpc.Help" => help(&any.value),
        "google.rpc.LocalizedMessage" => localized_message(&any.value),
        "google.rpc.QuotaFailure" => quota_failure(&any.value),
        "google.rpc.RequestInfo" => request_info(&any.value),
        _ => Ok(unknown(&any.value)),
    }
    .map_err(|reason| DecodeFailure {
        type_name: "google.protobuf.Any",
        reason: format!("the {} detail: {reason}", any.type_url),
    })?;
    let mut out = Map::new();
    // An empty type URL is kept as it is, for `detail-missing-type` to report.
    if !any.type_url.is_empty() {
        out.insert("@type".into(), any.type_url.clone().into());
    }
    out.extend(fields);
    Ok(Value::Object(out))
}

type Fields = Result<Map<String, Value>, String>;

/// The members of a JSON object, proto3 style: empty strings, empty lists and absent
/// messages left out.
fn members(pairs: impl IntoIterator<Item = (&'static str, Value)>) -> Map<String, Value> {
    (pairs.into_iter())
        .filter(|(_, v)| match v {
            Value::String(s) => !s.is_empty(),
            Value::Array(a) => !a.is_empty(),
            Value::Object(o) => !o.is_empty(),
            Value::Null => false,
            _ => true,
        })
        .map(|(k, v)| (k.to_string(), v))
        .collect()
}

fn decoded<T: Message + Default>(bytes: &[u8]) -> Result<T, String> {
    T::decode(bytes).map_err(|e| e.to_string())
}

fn error_info(bytes: &[u8]) -> Fields {
    let info: pb::ErrorInfo = decoded(bytes)?;
    // Sorted, so the view and every output are the same from run to run.
    let metadata: BTreeMap<_, _> = info.metadata.into_iter().collect();
    Ok(members([
        ("reason", info.reason.into()),
        ("domain", info.domain.into()),
        ("metadata", json!(metadata)),
    ]))
}

fn localized(message: Option<pb::LocalizedMessage>) -> Value {
    message.map_or(Value::Null, |m| {
        Value::Object(members([
            ("locale", m.locale.into()),
            ("message", m.message.into()),
        ]))
    })
}

fn bad_request(bytes: &[u8]) -> Fields {
    let request: pb::BadRequest = decoded(bytes)?;
    let violations = (request.field_violations.into_iter())
        .map(|v| {
            Value::Object(members([
                ("field", v.field.into()),
                ("description", v.description.into()),
                ("reason", v.reason.into()),
                ("localizedMessage", localized(v.localized_message)),
            ]))
        })
        .collect();
    Ok(members([("fieldViolations", Value::Array(violations))]))
}

/// A `google.protobuf.Duration` in its JSON form, seconds with a `s` suffix.
fn duration(d: prost_types::Duration) -> String {
    match d.nanos {
        0 => format!("{}s", d.seconds),
        nanos => {
            let fraction = format!("{:09}", nanos.unsigned_abs());
            format!("{}.{}s", d.seconds, fraction.trim_end_matches('0'))
        }
    }
}

fn retry_info(bytes: &[u8]) -> Fields {
    let info: pb::RetryInfo = decoded(bytes)?;
    let delay = info.retry_delay.map_or(Value::Null, |d| duration(d).into());
    Ok(members([("retryDelay", delay)]))
}

fn debug_info(bytes: &[u8]) -> Fields {
    let info: pb::DebugInfo = decoded(bytes)?;
    Ok(members([
        ("stackEntries", json!(info.stack_entries)),
        ("detail", info.detail.into()),
    ]))
}

fn precondition_failure(bytes: &[u8]) -> Fields {
    let failure: pb::PreconditionFailure = decoded(bytes)?;
    let violations = (failure.violations.into_iter())
        .map(|v| {
            Value::Object(members([
                ("type", v.r#type.into()),
                ("subject", v.subject.into()),
                ("description", v.description.into()),
            ]))
        })
        .collect();
    Ok(members([("violations", Value::Array(violations))]))
}

fn quota_failure(bytes: &[u8]) -> Fields {
    let failure: pb::QuotaFailure = decoded(bytes)?;
    let violations = (failure.violations.into_iter())
        .map(|v| {
            Value::Object(members([
                ("subject", v.subject.into()),
                ("description", v.description.into()),
            ]))
        })
        .collect();
    Ok(members([("violations", Value::Array(violations))]))
}

fn request_info(bytes: &[u8]) -> Fields {
    let info: pb::RequestInfo = decoded(bytes)?;
    Ok(members([
        ("requestId", info.request_id.into()),
        ("servingData", info.serving_data.into()),
    ]))
}

fn resource_info(bytes: &[u8]) -> Fields {
    let info: pb::ResourceInfo = decoded(bytes)?;
    Ok(members([
        ("resourceType", info.resource_type.into()),
        ("resourceName", info.resource_name.into()),
        ("owner", info.owner.into()),
        ("description", info.description.into()),
    ]))
}

fn help(bytes: &[u8]) -> Fields {
    let help: pb::Help = decoded(bytes)?;
    let links = (help.links.into_iter())
        .map(|l| {
            Value::Object(members([
                ("description", l.description.into()),
                ("url", l.url.into()),
            ]))
        })
        .collect();
    Ok(members([("links", Value::Array(links))]))
}

fn localized_message(bytes: &[u8]) -> Fields {
    let message: pb::LocalizedMessage = decoded(bytes)?;
    Ok(members([
        ("locale", message.locale.into()),
        ("message", message.message.into()),
    ]))
}

/// A type a2alint has no schema for: proto3 JSON writes such an `Any` as its bytes.
fn unknown(bytes: &[u8]) -> Map<String, Value> {
    use base64::Engine;
    let value = base64::engine::general_purpose::STANDARD.encode(bytes);
    members([("value", value.into())])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn any<T: Message>(name: &str, message: &T) -> Any {
        Any {
            type_url: format!("type.googleapis.com/{name}"),
            value: message.encode_to_vec(),
        }
    }

    #[test]
    fn a_status_with_error_info_reads_as_the_http_json_error() {
        let status = pb::Status {
            code: 5,
            message: "task not found".into(),
            details: vec![any(
                "google.rpc.ErrorInfo",
                &pb::ErrorInfo {
                    reason: "TASK_NOT_FOUND".into(),
                    domain: "a2a-protocol.org".into(),
                    metadata: [("taskId".to_string(), "t-1".to_string())].into(),
                },
            )],
        };
        let json = decode_status(&status.encode_to_vec()).unwrap();
        assert_eq!(
            json,
            json!({"code": 5, "message": "task not found", "details": [{
                "@type": "type.googleapis.com/google.rpc.ErrorInfo",
                "reason": "TASK_NOT_FOUND", "domain": "a2a-protocol.org",
                "metadata": {"taskId": "t-1"}}]})
        );
    }

    #[test]
    fn every_detail_type_decodes_and_unknown_ones_keep_their_bytes() {
        let violation = pb::bad_request::FieldViolation {
            field: "message.message_id".into(),
            description: "required".into(),
            ..Default::default()
        };
        let status = pb::Status {
            code: 3,
            message: String::new(),
            details: vec![
                any(
                    "google.rpc.BadRequest",
                    &pb::BadRequest {
                        field_violations: vec![violation],
                    },
                ),
                any(
                    "google.rpc.RetryInfo",
                    &pb::RetryInfo {
                        retry_delay: Some(prost_types::Duration {
                            seconds: 1,
                            nanos: 500_000_000,
                        }),
                    },
                ),
                any(
                    "google.rpc.LocalizedMessage",
                    &pb::LocalizedMessage {
                        locale: "en".into(),
                        message: "hi".into(),
                    },
                ),
                Any {
                    type_url: String::new(),
                    value: vec![1, 2],
                },
                Any {
                    type_url: "example.com/acme.Thing".into(),
                    value: vec![1, 2],
                },
            ],
        };
        let json = decode_status(&status.encode_to_vec()).unwrap();
        let details = json["details"].as_array().unwrap();
        assert_eq!(
            details[0]["fieldViolations"][0]["field"],
            "message.message_id"
        );
        assert_eq!(details[1]["retryDelay"], "1.5s");
        assert_eq!(details[2]["message"], "hi");
        assert_eq!(details[3], json!({"value": "AQI="}));
        assert_eq!(details[4]["@type"], "example.com/acme.Thing");
        assert!(json.get("message").is_none());
    }

    #[test]
    fn bytes_that_are_not_a_status_fail_with_the_type_named() {
        let failure = decode_status(b"\x0a\xff").unwrap_err();
        assert_eq!(failure.type_name, "google.rpc.Status");
        let bad_detail = pb::Status {
            code: 5,
            message: String::new(),
            details: vec![Any {
                type_url: "type.googleapis.com/google.rpc.ErrorInfo".into(),
                value: vec![0x0a, 0x50],
            }],
        };
        let failure = decode_status(&bad_detail.encode_to_vec()).unwrap_err();
        assert!(failure.reason.contains("google.rpc.ErrorInfo"));
    }
}
