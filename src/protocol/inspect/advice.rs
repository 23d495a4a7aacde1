//! What a client should do next after an answer, following the error semantics of the
//! spec (A2A §3.3.2 categories, §3.3.4 capabilities, §5.4 errors) and, for status codes,
//! what each google.rpc.Code means (google/rpc/code.proto, gRPC's status code guide).

use serde_json::Value;

use crate::protocol::classify::{ErrorForm, ErrorView};
use crate::protocol::table::A2aError;

/// The next step, in words a client author acts on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Advice {
    /// Success: nothing to do.
    Proceed,
    /// Temporary failure (internal, unavailable, exhausted, dropped connection): retry
    /// with backoff, honouring `Retry-After` (HTTP) or RetryInfo's `retryDelay` (gRPC).
    RetryWithBackoff,
    /// 401 or UNAUTHENTICATED: get fresh credentials, then retry.
    RefreshCredentials,
    /// The request itself is wrong: invalid request or params, unsupported content
    /// type, version, missing extension, an rpc the agent does not serve.
    FixTheRequest,
    /// The task is unknown or not the caller's: stop asking about it.
    Stop,
    /// The task is final: start a new task instead.
    StartNewTask,
    /// A capability is off: read the agent card again before choosing what to call.
    RereadAgentCard,
    /// UnsupportedOperation without saying which case: read the task first.
    ReadTaskFirst,
    /// 403 or PERMISSION_DENIED: the caller lacks permission.
    CheckPermissions,
    /// CANCELLED: the call was cancelled, as a rule by the caller itself.
    Cancelled,
    /// DEADLINE_EXCEEDED: the call may have taken effect even so; a resent message keeps
    /// its `messageId` so the agent can tell it is the same one (A2A §3.3.1).
    CheckThenRetry,
    /// FAILED_PRECONDITION without a reason: not until the state changes.
    CheckState,
    /// ABORTED: a concurrent change got in the way; redo the read-modify-write.
    RetrySequence,
    /// DATA_LOSS: nothing a client can do about it.
    ReportToOperator,
}

impl Advice {
    /// The advice in words, as over HTTP (JSON-RPC, HTTP+JSON).
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
            Advice::Cancelled => {
                "cancelled, usually by the caller: call again only if the answer is still wanted"
            }
            Advice::CheckThenRetry => {
                "it may have taken effect: read the task, or resend with the same messageId"
            }
            Advice::CheckState => {
                "do not retry unchanged: the task or agent is not in the state this call needs"
            }
            Advice::RetrySequence => {
                "aborted by a concurrent change: read the task again, then retry"
            }
            Advice::ReportToOperator => {
                "report it to the agent's operator: data was lost; retrying will not help"
            }
        }
    }

    /// The advice in words for an answer over gRPC, where the server's delay is
    /// RetryInfo's rather than a `Retry-After` header (A2A §10.6).
    pub fn describe_for_grpc(self) -> &'static str {
        match self {
            Advice::RetryWithBackoff => "retry with backoff, honouring RetryInfo",
            other => other.describe(),
        }
    }
}

/// What an answer said, as far as advice goes.
#[derive(Clone, Copy, Default)]
pub struct Answer<'e, 'v> {
    /// The HTTP status; none when no response came.
    pub http_status: Option<u16>,
    /// The first error the response carries.
    pub error: Option<&'e ErrorView<'v>>,
    /// The A2A error the error stands for: named by code or reason, or by a status only
    /// that error maps to.
    pub a2a: Option<&'static A2aError>,
    /// A gRPC response that came without `grpc-status`.
    pub grpc_without_status: bool,
    /// A gRPC call the server cancelled at the deadline the client set (`grpc-timeout`).
    pub deadline_expired: bool,
}

/// Advice for an answer: its status, and the error it carries if any.
pub fn advise(status: Option<u16>, error: Option<&ErrorView<'_>>) -> Advice {
    advise_answer(&Answer {
        http_status: status,
        error,
        a2a: error.and_then(ErrorView::a2a_error),
        grpc_without_status: false,
        deadline_expired: false,
    })
}

/// Advice for an answer, A2A error first, then its status code, then the HTTP status.
pub fn advise_answer(answer: &Answer<'_, '_>) -> Advice {
    // What a client sees as DEADLINE_EXCEEDED: the call may have taken effect.
    if answer.deadline_expired {
        return Advice::CheckThenRetry;
    }
    let Some(status) = answer.http_status else {
        return Advice::RetryWithBackoff;
    };
    if let (Some(error), Some(a2a)) = (answer.error, answer.a2a) {
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
    if let Some(error) = answer.error {
        if let Some(advice) = error.status().and_then(by_code_name) {
            return advice;
        }
        match (error.form, error.code()) {
            (ErrorForm::JsonRpc, Some(-32603)) => return Advice::RetryWithBackoff,
            (ErrorForm::JsonRpc, Some(-32700 | -32600 | -32601 | -32602)) => {
                return Advice::FixTheRequest;
            }
            // A code outside the seventeen, or no number at all, is read as UNKNOWN
            // (gRPC status codes: an unrecognised code maps to UNKNOWN).
            (ErrorForm::Grpc, _) => return Advice::RetryWithBackoff,
            _ => {}
        }
    }
    if answer.grpc_without_status {
        return without_status(status);
    }
    match status {
        200..=399 if answer.error.is_none() => Advice::Proceed,
        401 => Advice::RefreshCredentials,
        403 => Advice::CheckPermissions,
        408 | 429 | 500..=599 => Advice::RetryWithBackoff,
        _ => Advice::FixTheRequest,
    }
}

/// What a google.rpc.Code name calls for; the same names are `error.status` over
/// HTTP+JSON (A2A §11.6) and `grpc-status` over gRPC (A2A §10.6).
fn by_code_name(name: &str) -> Option<Advice> {
    Some(match name {
        // Cancelled, typically by the caller: nothing went wrong at the agent.
        "CANCELLED" => Advice::Cancelled,
        // Transient: UNAVAILABLE is the code meant to be retried with backoff;
        // RESOURCE_EXHAUSTED (a quota, rate limit) passes once the delay RetryInfo gives
        // has; UNKNOWN and INTERNAL are an agent's unexpected failures.
        "UNAVAILABLE" | "RESOURCE_EXHAUSTED" | "UNKNOWN" | "INTERNAL" => Advice::RetryWithBackoff,
        // The deadline passed; a call that changes state may still have completed.
        "DEADLINE_EXCEEDED" => Advice::CheckThenRetry,
        // Wrong whatever the state: the arguments, the entity, the range, the rpc.
        "INVALID_ARGUMENT" | "NOT_FOUND" | "ALREADY_EXISTS" | "OUT_OF_RANGE" | "UNIMPLEMENTED" => {
            Advice::FixTheRequest
        }
        "UNAUTHENTICATED" => Advice::RefreshCredentials,
        "PERMISSION_DENIED" => Advice::CheckPermissions,
        // code.proto's test: FAILED_PRECONDITION if the client should not retry until the
        // state is fixed, ABORTED if it should retry at a higher level (read again, then
        // write), UNAVAILABLE if it can retry just the call.
        "FAILED_PRECONDITION" => Advice::CheckState,
        "ABORTED" => Advice::RetrySequence,
        "DATA_LOSS" => Advice::ReportToOperator,
        _ => return None,
    })
}

/// A gRPC response without `grpc-status`: what a gRPC client makes of its HTTP status
/// (gRPC's HTTP to gRPC status mapping: 401 UNAUTHENTICATED, 403 PERMISSION_DENIED, 404
/// UNIMPLEMENTED, 429 and 502 to 504 UNAVAILABLE, anything else UNKNOWN). A 200 without
/// trailers is a call cut short: the stream ended, was reset, or the capture stopped.
fn without_status(status: u16) -> Advice {
    match status {
        401 => Advice::RefreshCredentials,
        403 => Advice::CheckPermissions,
        404 => Advice::FixTheRequest,
        _ => Advice::RetryWithBackoff,
    }
}

/// UnsupportedOperation covers streaming off, extended card off and a terminal task
/// (§3.3.4); only ErrorInfo metadata can tell them apart.
fn unsupported_operation(error: &ErrorView<'_>) -> Advice {
    let metadata: Vec<String> = error
        .infos()
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
