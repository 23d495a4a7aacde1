//! Which A2A operation an exchange is: JSON-RPC method names (1.0 and 0.3) and HTTP+JSON
//! routes by method and path suffix under any prefix (A2A §5.3, §9.1, §11.3).

/// The eleven A2A operations (A2A §3.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operation {
    SendMessage,
    SendStreamingMessage,
    GetTask,
    ListTasks,
    CancelTask,
    SubscribeToTask,
    CreateTaskPushNotificationConfig,
    GetTaskPushNotificationConfig,
    ListTaskPushNotificationConfigs,
    DeleteTaskPushNotificationConfig,
    GetExtendedAgentCard,
}

/// (operation, 1.0 JSON-RPC method, 0.3 JSON-RPC method if it had one)
const METHODS: &[(Operation, &str, Option<&str>)] = &[
    (Operation::SendMessage, "SendMessage", Some("message/send")),
    (
        Operation::SendStreamingMessage,
        "SendStreamingMessage",
        Some("message/stream"),
    ),
    (Operation::GetTask, "GetTask", Some("tasks/get")),
    (Operation::ListTasks, "ListTasks", None),
    (Operation::CancelTask, "CancelTask", Some("tasks/cancel")),
    (
        Operation::SubscribeToTask,
        "SubscribeToTask",
        Some("tasks/resubscribe"),
    ),
    (
        Operation::CreateTaskPushNotificationConfig,
        "CreateTaskPushNotificationConfig",
        Some("tasks/pushNotificationConfig/set"),
    ),
    (
        Operation::GetTaskPushNotificationConfig,
        "GetTaskPushNotificationConfig",
        Some("tasks/pushNotificationConfig/get"),
    ),
    (
        Operation::ListTaskPushNotificationConfigs,
        "ListTaskPushNotificationConfigs",
        Some("tasks/pushNotificationConfig/list"),
    ),
    (
        Operation::DeleteTaskPushNotificationConfig,
        "DeleteTaskPushNotificationConfig",
        Some("tasks/pushNotificationConfig/delete"),
    ),
    (
        Operation::GetExtendedAgentCard,
        "GetExtendedAgentCard",
        Some("agent/getAuthenticatedExtendedCard"),
    ),
];

impl Operation {
    /// The 1.0 JSON-RPC method name, which is also the gRPC rpc name (A2A §9.1).
    pub fn method_name(self) -> &'static str {
        METHODS
            .iter()
            .find(|(op, ..)| *op == self)
            .map_or("", |(_, name, _)| name)
    }

    /// Is the operation answered with a stream (A2A §3.1.2, §3.1.6)?
    pub fn is_streaming(self) -> bool {
        matches!(
            self,
            Operation::SendStreamingMessage | Operation::SubscribeToTask
        )
    }

    /// Is the operation about one task, so that an unknown or foreign task must be
    /// answered with TaskNotFound (A2A §3.3.2, §13.1)?
    pub fn is_task_scoped(self) -> bool {
        !matches!(
            self,
            Operation::SendMessage
                | Operation::SendStreamingMessage
                | Operation::ListTasks
                | Operation::GetExtendedAgentCard
        )
    }
}

/// How a JSON-RPC method name reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MethodName {
    /// A 1.0 PascalCase name.
    Current(Operation),
    /// An A2A 0.3 `category/action` name.
    Legacy(Operation),
    Unknown,
}

pub fn method_name(method: &str) -> MethodName {
    for &(op, current, legacy) in METHODS {
        if method == current {
            return MethodName::Current(op);
        }
        if Some(method) == legacy {
            return MethodName::Legacy(op);
        }
    }
    MethodName::Unknown
}

/// A matched HTTP+JSON route.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Route {
    pub operation: Operation,
    /// The 0.3 routes lived under `/v1/` (A2A 1.0 removed the prefix).
    pub under_v1: bool,
}

/// The HTTP+JSON operation a request targets: the route suffix decides, whatever prefix
/// (base path, tenant) comes before it.
pub fn http_json_route(method: &str, target: &str) -> Option<Route> {
    let path = target.split(['?', '#']).next().unwrap_or("");
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    let (operation, used) = match_suffix(method, &segments)?;
    let under_v1 = segments.len() > used && segments[segments.len() - used - 1] == "v1";
    Some(Route {
        operation,
        under_v1,
    })
}

/// Matches the last segments of a path; returns the operation and how many segments the
/// route used.
fn match_suffix(method: &str, s: &[&str]) -> Option<(Operation, usize)> {
    let n = s.len();
    let last = *s.last()?;
    let from_end = |i: usize| if i < n { Some(s[n - 1 - i]) } else { None };
    let is_tasks = |i: usize| from_end(i) == Some("tasks");
    let op = match (method, last) {
        ("POST", "message:send") => (Operation::SendMessage, 1),
        ("POST", "message:stream") => (Operation::SendStreamingMessage, 1),
        ("GET", "tasks") => (Operation::ListTasks, 1),
        ("GET", "extendedAgentCard") => (Operation::GetExtendedAgentCard, 1),
        ("POST" | "GET", "pushNotificationConfigs") if is_tasks(2) => {
            let op = if method == "POST" {
                Operation::CreateTaskPushNotificationConfig
            } else {
                Operation::ListTaskPushNotificationConfigs
            };
            (op, 3)
        }
        ("GET" | "DELETE", _) if from_end(1) == Some("pushNotificationConfigs") && is_tasks(3) => {
            let op = if method == "GET" {
                Operation::GetTaskPushNotificationConfig
            } else {
                Operation::DeleteTaskPushNotificationConfig
            };
            (op, 4)
        }
        (_, task) if is_tasks(1) => {
            let op = match (method, task.rsplit_once(':').map(|(_, verb)| verb)) {
                ("GET", None) => Operation::GetTask,
                ("POST", Some("cancel")) => Operation::CancelTask,
                // The spec text says POST, the proto annotation GET; SDKs accept both
                // (A2A §3.1.6, §11.3).
                ("GET" | "POST", Some("subscribe")) => Operation::SubscribeToTask,
                _ => return None,
            };
            (op, 2)
        }
        _ => return None,
    };
    Some(op)
}

/// Is this the agent card discovery request (A2A §8.2)?
pub fn is_agent_card(method: &str, target: &str) -> bool {
    let path = target.split(['?', '#']).next().unwrap_or("");
    method == "GET"
        && (path.ends_with("/.well-known/agent-card.json")
            || path.ends_with("/.well-known/agent.json"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes_match_by_suffix_under_any_prefix() {
        let cases = [
            ("POST", "/message:send", Some(Operation::SendMessage)),
            (
                "POST",
                "/api/a2a/message:stream",
                Some(Operation::SendStreamingMessage),
            ),
            ("GET", "/tasks?pageSize=5", Some(Operation::ListTasks)),
            ("GET", "/tenant-7/tasks/t-1", Some(Operation::GetTask)),
            ("POST", "/tasks/t-1:cancel", Some(Operation::CancelTask)),
            (
                "GET",
                "/tasks/t-1:subscribe",
                Some(Operation::SubscribeToTask),
            ),
            (
                "POST",
                "/tasks/t-1:subscribe",
                Some(Operation::SubscribeToTask),
            ),
            (
                "POST",
                "/tasks/t-1/pushNotificationConfigs",
                Some(Operation::CreateTaskPushNotificationConfig),
            ),
            (
                "GET",
                "/tasks/t-1/pushNotificationConfigs",
                Some(Operation::ListTaskPushNotificationConfigs),
            ),
            (
                "GET",
                "/tasks/t-1/pushNotificationConfigs/c-1",
                Some(Operation::GetTaskPushNotificationConfig),
            ),
            (
                "DELETE",
                "/tasks/t-1/pushNotificationConfigs/c-1",
                Some(Operation::DeleteTaskPushNotificationConfig),
            ),
            (
                "GET",
                "/extendedAgentCard",
                Some(Operation::GetExtendedAgentCard),
            ),
            ("DELETE", "/tasks/t-1", None),
            ("GET", "/favicon.ico", None),
            ("POST", "/tasks/t-1:archive", None),
            ("GET", "/", None),
        ];
        for (method, target, expected) in cases {
            assert_eq!(
                http_json_route(method, target).map(|r| r.operation),
                expected,
                "{method} {target}"
            );
        }
        assert!(http_json_route("GET", "/v1/tasks/t-1").unwrap().under_v1);
        assert!(!http_json_route("GET", "/tasks/t-1").unwrap().under_v1);
    }

    #[test]
    fn method_names_current_and_legacy() {
        assert_eq!(
            method_name("GetTask"),
            MethodName::Current(Operation::GetTask)
        );
        assert_eq!(
            method_name("tasks/get"),
            MethodName::Legacy(Operation::GetTask)
        );
        assert_eq!(method_name("tasks/list"), MethodName::Unknown);
        assert_eq!(Operation::CancelTask.method_name(), "CancelTask");
    }
}
