//! A minimal echo agent on the Rust A2A SDK (crates a2a-lf, a2a-server-lf, a2a-grpc),
//! used by `samples/record/record_rust.py` to record what this SDK puts on the wire.
//!
//!     a2a-echo-agent-rust --port 8001 [--grpc-port 50051] --config plain|streaming|extcard --host a2a-rust.example
//!
//! `--host` is the public host name the card advertises (`http://HOST/a2a/...` and, with
//! gRPC, `HOST:443`); the recorder addresses the agent by it, one name per configuration,
//! because a2alint compares a card with the answers at the authorities it lists.
//!
//! On 127.0.0.1:<port> it serves the agent card at `/.well-known/agent-card.json`, the
//! JSON-RPC binding at `/a2a/jsonrpc` and the HTTP+JSON binding under `/a2a/rest`; with
//! `--grpc-port` it also serves the gRPC binding (tonic) on that port, sharing one
//! request handler and so one task store.
//!
//! Configurations (the card's `capabilities`, which the SDK's handler enforces too):
//!   plain      streaming, push notifications and the extended card all off
//!   streaming  streaming on; push and extended card off
//!   extcard    an extended card is declared, but none is configured
//!
//! Every message gets a task: submitted -> working -> an artifact echoing the text ->
//! completed. Special texts:
//!   fail   the executor yields an error once the task is working
//!   twice  the executor yields the task object a second time after working
//!   slow   the executor waits 5 s before the artifact (for gRPC deadlines)

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use a2a::{
    A2AError, AgentCapabilities, AgentCard, AgentInterface, AgentSkill, Artifact, Part,
    StreamResponse, Task, TaskArtifactUpdateEvent, TaskState, TaskStatus, TaskStatusUpdateEvent,
};
use a2a_server::{
    AgentExecutor, DefaultRequestHandler, ExecutorContext, InMemoryTaskStore, StaticAgentCard,
};
use futures::channel::mpsc;
use futures::stream::BoxStream;
use futures::{SinkExt, StreamExt};

const JSONRPC_PATH: &str = "/a2a/jsonrpc";
const REST_PATH: &str = "/a2a/rest";

type Events = BoxStream<'static, Result<StreamResponse, A2AError>>;

struct EchoExecutor;

fn status(task: &Task, state: TaskState) -> StreamResponse {
    StreamResponse::StatusUpdate(TaskStatusUpdateEvent {
        task_id: task.id.clone(),
        context_id: task.context_id.clone(),
        status: TaskStatus { state, message: None, timestamp: Some(chrono::Utc::now()) },
        metadata: None,
    })
}

impl AgentExecutor for EchoExecutor {
    fn execute(&self, ctx: ExecutorContext) -> Events {
        let text = ctx.message.as_ref().and_then(|m| m.text()).unwrap_or_default().to_string();
        // The handler has stored a submitted task already; on a streaming call the
        // executor is what tells the client about it, so it is always sent first.
        let task = ctx.stored_task.clone().unwrap_or_else(|| Task {
            id: ctx.task_id.clone(),
            context_id: ctx.context_id.clone(),
            status: TaskStatus {
                state: TaskState::Submitted,
                message: None,
                timestamp: Some(chrono::Utc::now()),
            },
            artifacts: None,
            history: ctx.message.clone().map(|m| vec![m]),
            metadata: None,
        });
        let (mut tx, rx) = mpsc::channel(8);
        tokio::spawn(async move {
            let _ = tx.send(Ok(StreamResponse::Task(task.clone()))).await;
            let _ = tx.send(Ok(status(&task, TaskState::Working))).await;
            match text.as_str() {
                "fail" => {
                    let _ = tx.send(Err(A2AError::internal("the echo agent failed on purpose"))).await;
                    return;
                }
                "twice" => {
                    let _ = tx.send(Ok(StreamResponse::Task(task.clone()))).await;
                }
                "slow" => tokio::time::sleep(Duration::from_secs(5)).await,
                _ => {}
            }
            let artifact = Artifact {
                artifact_id: a2a::new_artifact_id(),
                name: Some("echo".into()),
                description: None,
                parts: vec![Part::text(format!("echo: {text}"))],
                metadata: None,
                extensions: None,
            };
            let _ = tx
                .send(Ok(StreamResponse::ArtifactUpdate(TaskArtifactUpdateEvent {
                    task_id: task.id.clone(),
                    context_id: task.context_id.clone(),
                    artifact,
                    append: None,
                    last_chunk: None,
                    metadata: None,
                })))
                .await;
            let _ = tx.send(Ok(status(&task, TaskState::Completed))).await;
        });
        rx.boxed()
    }

    fn cancel(&self, ctx: ExecutorContext) -> Events {
        let event = StreamResponse::StatusUpdate(TaskStatusUpdateEvent {
            task_id: ctx.task_id.clone(),
            context_id: ctx.context_id.clone(),
            status: TaskStatus {
                state: TaskState::Canceled,
                message: None,
                timestamp: Some(chrono::Utc::now()),
            },
            metadata: None,
        });
        futures::stream::iter([Ok(event)]).boxed()
    }
}

fn interface(url: String, binding: &str) -> AgentInterface {
    let mut interface = AgentInterface::new(url, binding);
    interface.protocol_version = "1.0".into();
    interface
}

/// The card advertises addresses on the recorder's host name: stable, and free of this
/// machine's port.
fn agent_card(config: &str, host: &str, grpc: bool) -> AgentCard {
    let mut interfaces = vec![
        interface(format!("http://{host}{JSONRPC_PATH}"), "JSONRPC"),
        interface(format!("http://{host}{REST_PATH}"), "HTTP+JSON"),
    ];
    if grpc {
        interfaces.push(interface(format!("{host}:443"), "GRPC"));
    }
    AgentCard {
        name: "Echo agent (a2a-rust)".into(),
        description: "Echoes the text it receives; used to record real A2A traffic.".into(),
        version: "1.0.0".into(),
        supported_interfaces: interfaces,
        capabilities: AgentCapabilities {
            streaming: Some(config == "streaming"),
            push_notifications: Some(false),
            extensions: None,
            extended_agent_card: Some(config == "extcard"),
        },
        default_input_modes: vec!["text/plain".into()],
        default_output_modes: vec!["text/plain".into()],
        skills: vec![AgentSkill {
            id: "echo".into(),
            name: "Echo".into(),
            description: "Repeats the text of the message.".into(),
            tags: vec!["echo".into()],
            examples: None,
            input_modes: None,
            output_modes: None,
            security_requirements: None,
        }],
        provider: None,
        documentation_url: None,
        icon_url: None,
        security_schemes: None,
        security_requirements: None,
        signatures: None,
    }
}

struct Args {
    port: u16,
    grpc_port: Option<u16>,
    config: String,
    host: String,
}

fn parse_args() -> Args {
    let usage =
        "usage: a2a-echo-agent-rust --port P [--grpc-port G] --config plain|streaming|extcard --host NAME";
    let mut args = std::env::args().skip(1);
    let (mut port, mut grpc_port, mut config, mut host) = (None, None, None, None);
    while let Some(flag) = args.next() {
        let value = args.next().unwrap_or_else(|| panic!("{flag} needs a value; {usage}"));
        match flag.as_str() {
            "--port" => port = Some(value.parse().expect("--port: a number")),
            "--grpc-port" => grpc_port = Some(value.parse().expect("--grpc-port: a number")),
            "--config" => config = Some(value),
            "--host" => host = Some(value),
            _ => panic!("unknown option {flag}; {usage}"),
        }
    }
    let config = config.unwrap_or_else(|| panic!("{usage}"));
    assert!(["plain", "streaming", "extcard"].contains(&config.as_str()), "{usage}");
    Args {
        port: port.unwrap_or_else(|| panic!("{usage}")),
        grpc_port,
        config,
        host: host.unwrap_or_else(|| panic!("{usage}")),
    }
}

#[tokio::main]
async fn main() {
    let args = parse_args();
    let card = agent_card(&args.config, &args.host, args.grpc_port.is_some());
    let handler = Arc::new(
        DefaultRequestHandler::new(EchoExecutor, InMemoryTaskStore::new())
            .with_capabilities(card.capabilities.clone()),
    );

    let app = axum::Router::new()
        .merge(a2a_server::agent_card::agent_card_router(Arc::new(StaticAgentCard::new(card))))
        .nest(JSONRPC_PATH, a2a_server::jsonrpc::jsonrpc_router(handler.clone()))
        .nest(REST_PATH, a2a_server::rest::rest_router(handler.clone()));
    let listener = tokio::net::TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], args.port)))
        .await
        .expect("bind the HTTP port");
    let http = tokio::spawn(async move { axum::serve(listener, app).await });

    if let Some(grpc_port) = args.grpc_port {
        let service = a2a_pb::proto::a2a_service_server::A2aServiceServer::new(
            a2a_grpc::GrpcHandler::new(handler.clone()),
        );
        let addr = SocketAddr::from(([127, 0, 0, 1], grpc_port));
        tokio::spawn(async move {
            tonic::transport::Server::builder()
                .add_service(service)
                .serve(addr)
                .await
                .expect("serve gRPC");
        });
    }
    println!("listening on 127.0.0.1:{} ({}), gRPC {:?}", args.port, args.config, args.grpc_port);
    let _ = http.await;
}
