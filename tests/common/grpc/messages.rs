//! A2A v1 protobuf messages (`lf.a2a.v1`, from `a2a_pb`) for gRPC calls in tests.

use a2a_pb::protojson::{
    Artifact, CancelTaskRequest, GetTaskRequest, Message, Part, Role, SendMessageRequest,
    SendMessageResponse, StreamResponse, SubscribeToTaskRequest, Task, TaskArtifactUpdateEvent,
    TaskState, TaskStatus, TaskStatusUpdateEvent, part, send_message_response, stream_response,
};

/// The A2A gRPC service (A2A §10; the proto's `A2AService`).
pub const SERVICE: &str = "lf.a2a.v1.A2AService";

/// The `:path` of an rpc of [`SERVICE`]: `/lf.a2a.v1.A2AService/<method>` (the gRPC spec's
/// `/` Service-Name `/` method name).
pub fn method_path(method: &str) -> String {
    format!("/{SERVICE}/{method}")
}

/// A text part.
pub fn text_part(text: &str) -> Part {
    Part {
        content: Some(part::Content::Text(text.to_string())),
        ..Default::default()
    }
}

/// A message of one text part.
pub fn text_message(message_id: &str, role: Role, text: &str) -> Message {
    Message {
        message_id: message_id.to_string(),
        role: role.into(),
        parts: vec![text_part(text)],
        ..Default::default()
    }
}

/// A SendMessageRequest carrying a user's text message.
pub fn send_message(message_id: &str, text: &str) -> SendMessageRequest {
    SendMessageRequest {
        message: Some(text_message(message_id, Role::User, text)),
        ..Default::default()
    }
}

/// A SendMessageRequest whose message has an empty `message_id`, which A2A requires.
pub fn send_message_without_id(text: &str) -> SendMessageRequest {
    send_message("", text)
}

/// A GetTaskRequest for this task.
pub fn get_task(id: &str) -> GetTaskRequest {
    GetTaskRequest {
        id: id.to_string(),
        ..Default::default()
    }
}

/// A CancelTaskRequest for this task.
pub fn cancel_task(id: &str) -> CancelTaskRequest {
    CancelTaskRequest {
        id: id.to_string(),
        ..Default::default()
    }
}

/// A SubscribeToTaskRequest for this task.
pub fn subscribe_to_task(id: &str) -> SubscribeToTaskRequest {
    SubscribeToTaskRequest {
        id: id.to_string(),
        ..Default::default()
    }
}

/// A task in this state, without history or artifacts.
pub fn task(id: &str, context_id: &str, state: TaskState) -> Task {
    Task {
        id: id.to_string(),
        context_id: context_id.to_string(),
        status: Some(TaskStatus {
            state: state.into(),
            ..Default::default()
        }),
        ..Default::default()
    }
}

/// SendMessage's answer holding a task.
pub fn send_response_task(task: Task) -> SendMessageResponse {
    SendMessageResponse {
        payload: Some(send_message_response::Payload::Task(task)),
    }
}

/// SendMessage's answer holding a message.
pub fn send_response_message(message: Message) -> SendMessageResponse {
    SendMessageResponse {
        payload: Some(send_message_response::Payload::Message(message)),
    }
}

/// A stream event holding the task.
pub fn stream_task(task: Task) -> StreamResponse {
    StreamResponse {
        payload: Some(stream_response::Payload::Task(task)),
    }
}

/// A stream event holding a message.
pub fn stream_message(message: Message) -> StreamResponse {
    StreamResponse {
        payload: Some(stream_response::Payload::Message(message)),
    }
}

/// A stream event saying the task is now in `state`.
pub fn stream_status_update(task_id: &str, context_id: &str, state: TaskState) -> StreamResponse {
    let event = TaskStatusUpdateEvent {
        task_id: task_id.to_string(),
        context_id: context_id.to_string(),
        status: Some(TaskStatus {
            state: state.into(),
            ..Default::default()
        }),
        ..Default::default()
    };
    StreamResponse {
        payload: Some(stream_response::Payload::StatusUpdate(event)),
    }
}

/// A stream event carrying (a chunk of) an artifact of one text part.
pub fn stream_artifact_update(
    task_id: &str,
    context_id: &str,
    artifact_id: &str,
    text: &str,
    last_chunk: bool,
) -> StreamResponse {
    let event = TaskArtifactUpdateEvent {
        task_id: task_id.to_string(),
        context_id: context_id.to_string(),
        artifact: Some(Artifact {
            artifact_id: artifact_id.to_string(),
            parts: vec![text_part(text)],
            ..Default::default()
        }),
        last_chunk,
        ..Default::default()
    };
    StreamResponse {
        payload: Some(stream_response::Payload::ArtifactUpdate(event)),
    }
}
