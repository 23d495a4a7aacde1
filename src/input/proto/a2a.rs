//! The rpcs of `lf.a2a.v1.A2AService` (A2A §10.4, the proto's `service` block): for each,
//! its request and response types and whether the server streams, decoded with the
//! official `a2a-pb` types.

use a2a_pb::protojson as pb;
use serde_json::Value;

use crate::input::proto::{DecodeFailure, decode_as};

type Decoder = fn(&[u8]) -> Result<Value, DecodeFailure>;

/// One rpc of the A2A service.
#[derive(Debug)]
pub struct Rpc {
    /// The rpc name, which is also the 1.0 JSON-RPC method name (A2A §9.1).
    pub name: &'static str,
    /// Server-streaming: the response is a stream of `StreamResponse` (A2A §10.5).
    pub server_streaming: bool,
    request: Decoder,
    response: Decoder,
}

impl Rpc {
    /// The request message as proto3 JSON.
    pub fn decode_request(&self, bytes: &[u8]) -> Result<Value, DecodeFailure> {
        (self.request)(bytes)
    }

    /// One response message as proto3 JSON.
    pub fn decode_response(&self, bytes: &[u8]) -> Result<Value, DecodeFailure> {
        (self.response)(bytes)
    }
}

macro_rules! decoder {
    ($type:ident) => {
        |bytes| decode_as::<pb::$type>(concat!("lf.a2a.v1.", stringify!($type)), bytes)
    };
}

/// `google.protobuf.Empty`: any bytes are fields it does not have, which proto3 skips.
fn empty(bytes: &[u8]) -> Result<Value, DecodeFailure> {
    decode_as::<()>("google.protobuf.Empty", bytes).map(|_| Value::Object(Default::default()))
}

const RPCS: &[Rpc] = &[
    Rpc {
        name: "SendMessage",
        server_streaming: false,
        request: decoder!(SendMessageRequest),
        response: decoder!(SendMessageResponse),
    },
    Rpc {
        name: "SendStreamingMessage",
        server_streaming: true,
        request: decoder!(SendMessageRequest),
        response: decoder!(StreamResponse),
    },
    Rpc {
        name: "GetTask",
        server_streaming: false,
        request: decoder!(GetTaskRequest),
        response: decoder!(Task),
    },
    Rpc {
        name: "ListTasks",
        server_streaming: false,
        request: decoder!(ListTasksRequest),
        response: decoder!(ListTasksResponse),
    },
    Rpc {
        name: "CancelTask",
        server_streaming: false,
        request: decoder!(CancelTaskRequest),
        response: decoder!(Task),
    },
    Rpc {
        name: "SubscribeToTask",
        server_streaming: true,
        request: decoder!(SubscribeToTaskRequest),
        response: decoder!(StreamResponse),
    },
    Rpc {
        name: "CreateTaskPushNotificationConfig",
        server_streaming: false,
        request: decoder!(TaskPushNotificationConfig),
        response: decoder!(TaskPushNotificationConfig),
    },
    Rpc {
        name: "GetTaskPushNotificationConfig",
        server_streaming: false,
        request: decoder!(GetTaskPushNotificationConfigRequest),
        response: decoder!(TaskPushNotificationConfig),
    },
    Rpc {
        name: "ListTaskPushNotificationConfigs",
        server_streaming: false,
        request: decoder!(ListTaskPushNotificationConfigsRequest),
        response: decoder!(ListTaskPushNotificationConfigsResponse),
    },
    Rpc {
        name: "GetExtendedAgentCard",
        server_streaming: false,
        request: decoder!(GetExtendedAgentCardRequest),
        response: decoder!(AgentCard),
    },
    Rpc {
        name: "DeleteTaskPushNotificationConfig",
        server_streaming: false,
        request: decoder!(DeleteTaskPushNotificationConfigRequest),
        response: empty,
    },
];

/// The 1.0 service (A2A §10.1).
pub const SERVICE: &str = "lf.a2a.v1.A2AService";
/// The 0.3 service, package `a2a.v1` (A2A 0.3 §3.2.2).
pub const LEGACY_SERVICE: &str = "a2a.v1.A2AService";

/// What a gRPC `:path` (`/<service>/<method>`) names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GrpcMethod<'p> {
    /// An rpc of the 1.0 service.
    Current(&'static Rpc),
    /// A method the 1.0 service does not have.
    UnknownMethod(&'p str),
    /// A method of the 0.3 service.
    Legacy(&'p str),
    /// Another service altogether (health checks, reflection).
    OtherService,
}

impl PartialEq for Rpc {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}

impl Eq for Rpc {}

/// Reads a gRPC `:path`; a query string is not part of a gRPC path and makes it another
/// service's.
pub fn grpc_method(path: &str) -> GrpcMethod<'_> {
    let Some((service, method)) = path.strip_prefix('/').and_then(|p| p.split_once('/')) else {
        return GrpcMethod::OtherService;
    };
    match service {
        SERVICE => RPCS
            .iter()
            .find(|rpc| rpc.name == method)
            .map_or(GrpcMethod::UnknownMethod(method), GrpcMethod::Current),
        LEGACY_SERVICE => GrpcMethod::Legacy(method),
        _ => GrpcMethod::OtherService,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use prost::Message;

    #[test]
    fn paths_name_rpcs_of_the_current_and_legacy_services() {
        let GrpcMethod::Current(rpc) = grpc_method("/lf.a2a.v1.A2AService/SendStreamingMessage")
        else {
            panic!("a current rpc");
        };
        assert!(rpc.server_streaming);
        assert_eq!(
            grpc_method("/lf.a2a.v1.A2AService/Nope"),
            GrpcMethod::UnknownMethod("Nope")
        );
        assert_eq!(
            grpc_method("/a2a.v1.A2AService/SendMessage"),
            GrpcMethod::Legacy("SendMessage")
        );
        assert_eq!(
            grpc_method("/grpc.health.v1.Health/Check"),
            GrpcMethod::OtherService
        );
        assert_eq!(grpc_method("GetTask"), GrpcMethod::OtherService);
        assert_eq!(RPCS.len(), 11, "one rpc per A2A operation (§3.1)");
    }

    #[test]
    fn messages_decode_to_proto3_json() {
        let request = pb::SendMessageRequest {
            message: Some(pb::Message {
                message_id: "m-1".into(),
                role: pb::Role::User as i32,
                ..Default::default()
            }),
            ..Default::default()
        };
        let GrpcMethod::Current(rpc) = grpc_method("/lf.a2a.v1.A2AService/SendMessage") else {
            panic!("a current rpc");
        };
        let json = rpc.decode_request(&request.encode_to_vec()).unwrap();
        assert_eq!(json["message"]["messageId"], "m-1");
        assert_eq!(json["message"]["role"], "ROLE_USER");
    }

    #[test]
    fn malformed_bytes_are_a_failure_not_a_panic() {
        let GrpcMethod::Current(rpc) = grpc_method("/lf.a2a.v1.A2AService/GetTask") else {
            panic!("a current rpc");
        };
        // Field 1, length-delimited, claiming 100 bytes that are not there.
        let failure = rpc.decode_request(&[0x0a, 100, b'x']).unwrap_err();
        assert_eq!(failure.type_name, "lf.a2a.v1.GetTaskRequest");
        // A varint that never ends.
        assert!(rpc.decode_request(&[0x08, 0xff, 0xff, 0xff]).is_err());
        // A group (wire type 3) opened and never closed.
        assert!(rpc.decode_request(&[0x0b]).is_err());
        // Groups of an unknown field nested deeper than prost's recursion limit.
        let mut nested = vec![0x7b; 200];
        nested.extend([0x7c; 200]);
        assert!(rpc.decode_request(&nested).is_err());
    }
}
