//! What a client should do next after an answer, following the error semantics of the
//! spec (A2A §3.3.2 categories, §3.3.4 capabilities, §5.4 errors).

use serde_json::Value;

use crate::classify::ErrorView;

/// The next step, in words a client author acts on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Advice {
    /// Success: nothing to do.
    Proceed,
    /// Temporary failure (internal, unavailable, dropped connection): retry with
    /// backoff, honouring `Retry-After`.
    RetryWithBackoff,
    /// 401: get fresh credentials, then retry.
    RefreshCredentials,
    /// The request itself is wrong: invalid request or params, unsupported content
    /// type, version, missing extension.
    FixTheRequest,
    /// The task is unknown or not the caller's: stop asking about it.
    Stop,
    /// The task is final: start a new task instead.
    StartNewTask,
    /// A capability is off: read the agent card again before choosing what to call.
    RereadAgentCard,
    /// UnsupportedOperation without saying which case: read the task first.
    ReadTaskFirst,
    /// 403: the caller lacks permission.
    CheckPermissions,
}

impl Advice {
    pub fn describe(self) -> &'static str {
        match self {
            Advice::Proceed => "proceed",
            Advice::RetryWithBackoff => "retry with backoff, honouring Retry-After",
            Advice::RefreshCredentials => "refresh credentials, then retry",
            Advice::FixTheRequest => "fix the request; retrying it unchanged fails again",
            Advice::Stop => "stop: the task does not exist or is not visible to this caller",
            Advice::StartNewTask => "start a new task: this one is already final",
            Advice::RereadAgentCard => {
                "re-read the agent card: the capability is off or not configured"
            }
            Advice::ReadTaskFirst => {
                "read the task first: the answer does not say why the operation is unsupported"
            }
            Advice::CheckPermissions => "check permissions: the caller may not do this",
        }
    }
}

/// Advice for an answer: its status, and the error it carries if any.
pub fn advise(status: Option<u16>, error: Option<&ErrorView<'_>>) -> Advice {
    let Some(status) = status else {
        return Advice::RetryWithBackoff;
    };
    if let Some(error) = error {
        if let Some(a2a) = error.a2a_error() {
            return match a2a.reason.as_str() {
                "TASK_NOT_FOUND" => Advice::Stop,
                "TASK_NOT_CANCELABLE" => Advice::StartNewTask,
                "PUSH_NOTIFICATION_NOT_SUPPORTED" | "EXTENDED_AGENT_CARD_NOT_CONFIGURED" => {
                    Advice::RereadAgentCard
                }
                "UNSUPPORTED_OPERATION" => unsupported_operation(error),
                "INVALID_AGENT_RESPONSE" => Advice::RetryWithBackoff,
                _ => Advice::FixTheRequest,
            };
        }
        match (error.code(), error.status()) {
            (Some(-32603), _)
            | (_, Some("INTERNAL" | "UNAVAILABLE" | "UNKNOWN" | "DEADLINE_EXCEEDED")) => {
                return Advice::RetryWithBackoff;
            }
            (Some(-32700 | -32600 | -32601 | -32602), _)
            | (_, Some("INVALID_ARGUMENT" | "NOT_FOUND" | "UNIMPLEMENTED")) => {
                return Advice::FixTheRequest;
            }
            (_, Some("UNAUTHENTICATED")) => return Advice::RefreshCredentials,
            (_, Some("PERMISSION_DENIED")) => return Advice::CheckPermissions,
            _ => {}
        }
    }
    match status {
        200..=399 if error.is_none() => Advice::Proceed,
        401 => Advice::RefreshCredentials,
        403 => Advice::CheckPermissions,
        408 | 429 | 500..=599 => Advice::RetryWithBackoff,
        _ => Advice::FixTheRequest,
    }
}

/// UnsupportedOperation covers streaming off, extended card off and a terminal task
/// (§3.3.4); only ErrorInfo metadata can tell them apart.
fn unsupported_operation(error: &ErrorView<'_>) -> Advice {
    let metadata: Vec<String> = error
        .infos()
        .iter()
        .filter_map(|i| i.metadata.and_then(Value::as_object))
        .flat_map(|m| {
            m.iter()
                .map(|(k, v)| format!("{k}={}", v.as_str().unwrap_or_default()).to_lowercase())
        })
        .collect();
    let says = |word: &str| metadata.iter().any(|m| m.contains(word));
    if says("task_state") || says("taskstate") || says("terminal") {
        Advice::StartNewTask
    } else if says("capability") || says("streaming") || says("card") {
        Advice::RereadAgentCard
    } else {
        Advice::ReadTaskFirst
    }
}
