//! Facts about an exchange's protocol shape: whether it is A2A 0.3 or 1.0, which task it
//! is about, and the message a send carries (A2A §3.6, §5.3, Appendix A).

use serde_json::Value;

use crate::protocol::classify::{Binding, ExchangeView, MethodName, Operation, method_name};

/// Which protocol generation an exchange looks like.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Generation {
    /// Nothing says which.
    Unknown,
    /// A2A 0.3: slash method names, `/v1/` paths, `kind` members, lowercase enums, or
    /// `A2A-Version: 0.3`.
    V0_3,
    /// A2A 1.0: PascalCase methods, 1.0 paths, `ROLE_*` / `TASK_STATE_*` values, or a
    /// declared 1.x version.
    V1_0,
}

impl ExchangeView<'_, '_> {
    /// The protocol generation, from the declared version first, then the shapes.
    pub(super) fn detect_generation(&self) -> Generation {
        match self.declared_version() {
            Some((v, _)) if v.starts_with("1.") => return Generation::V1_0,
            Some((v, _)) if v.starts_with("0.") => return Generation::V0_3,
            _ => {}
        }
        let request_body = self.request.as_ref().and_then(|r| r.json.value());
        match self.binding {
            Binding::JsonRpc => match self.rpc().and_then(|rpc| rpc.method).map(method_name) {
                Some(MethodName::Legacy(_)) => return Generation::V0_3,
                Some(MethodName::Current(_)) => return Generation::V1_0,
                _ => {}
            },
            Binding::HttpJson => {
                // 0.3 routes sat right under `/v1/`; a 1.0 base path may contain `v1` elsewhere.
                let under_v1 = self
                    .exchange
                    .request
                    .as_ref()
                    .is_some_and(|r| match r.start_line {
                        crate::input::capture::StartLine::Request { method, target } => {
                            super::route::http_json_route(method, target)
                                .is_some_and(|route| route.under_v1)
                        }
                        crate::input::capture::StartLine::Response { .. } => false,
                    });
                return if under_v1 {
                    Generation::V0_3
                } else {
                    Generation::V1_0
                };
            }
            _ => {}
        }
        match request_body.map(body_generation) {
            Some(generation) => generation,
            None => Generation::Unknown,
        }
    }

    /// The task the operation is about: the path's `{id}` over HTTP+JSON, `params.id` or
    /// `params.taskId` over JSON-RPC, or the sent message's `taskId`.
    pub fn task_id(&self) -> Option<String> {
        let operation = self.operation?;
        if self.binding == Binding::HttpJson {
            let request = self.exchange.request.as_ref()?;
            let crate::input::capture::StartLine::Request { target, .. } = request.start_line
            else {
                return None;
            };
            let path = target.split(['?', '#']).next()?;
            let mut segments = path.split('/').skip_while(|s| *s != "tasks").skip(1);
            let id = segments.next()?.split(':').next()?;
            return (!id.is_empty()).then(|| id.to_string());
        }
        let body = self.request.as_ref()?.json.value()?;
        // A gRPC request message is what JSON-RPC's `params` holds (A2A §10.4).
        let params = match self.binding {
            Binding::Grpc => body,
            _ => body.get("params")?,
        };
        let id = match operation {
            Operation::SendMessage | Operation::SendStreamingMessage => {
                params.get("message").and_then(|m| m.get("taskId"))
            }
            Operation::GetTask | Operation::CancelTask | Operation::SubscribeToTask => {
                params.get("id")
            }
            _ => params.get("taskId"),
        };
        id.and_then(Value::as_str).map(str::to_string)
    }

    /// For SendMessage and SendStreamingMessage: the JSON pointer of the message in the
    /// request body, and the message.
    pub fn sent_message(&self) -> Option<(&'static str, &Value)> {
        if !matches!(
            self.operation,
            Some(Operation::SendMessage | Operation::SendStreamingMessage)
        ) {
            return None;
        }
        let pointer = match self.binding {
            Binding::JsonRpc => "/params/message",
            _ => "/message",
        };
        // `Value::pointer` allocates for every step; the path is fixed.
        let body = self.request.as_ref()?.json.value()?;
        let message = match self.binding {
            Binding::JsonRpc => body.get("params")?.get("message")?,
            _ => body.get("message")?,
        };
        message.is_object().then_some((pointer, message))
    }
}

/// 0.3 bodies carry `kind` discriminators and lowercase enums; 1.0 bodies `ROLE_*`.
fn body_generation(body: &Value) -> Generation {
    let message = body
        .get("params")
        .and_then(|params| params.get("message"))
        .or_else(|| body.get("message"));
    let Some(message) = message else {
        return Generation::Unknown;
    };
    let role = message.get("role").and_then(Value::as_str);
    if message.get("kind").is_some() || matches!(role, Some("user" | "agent")) {
        Generation::V0_3
    } else if role.is_some_and(|r| r.starts_with("ROLE_")) {
        Generation::V1_0
    } else {
        Generation::Unknown
    }
}
