"""A minimal a2a-sdk (Python) agent serving the A2A gRPC binding on 127.0.0.1.

Started by record_grpc.py with the interpreter of the virtual environment that holds
`a2a-sdk[grpc]`:

    python agent_python_grpc.py --port 50051 [--config plain|extcard]

The agent card lists one GRPC interface (protocol version 1.0) and says
streaming: true, pushNotifications: false. With `--config plain` (the default) it
declares no extended card; with `--config extcard` it declares one but none is
configured, so GetExtendedAgentCard fails in the other possible way.

Every message is answered with a task: submitted -> working -> an artifact echoing the
text -> completed. The text "fail" makes the executor raise once the task is working,
which, on a SendStreamingMessage call, is an error in the middle of a stream.

The server is plain grpc.aio with the SDK's GrpcHandler as the A2AService servicer; no
HTTP agent card endpoint, no reflection, no 0.3 compatibility service. It runs until it
receives SIGTERM or SIGINT.
"""

import argparse
import asyncio
import signal

import grpc
import grpc.aio

from a2a.helpers.proto_helpers import new_task_from_user_message, new_text_part
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.events import EventQueue
from a2a.server.request_handlers import DefaultRequestHandler, GrpcHandler
from a2a.server.tasks import InMemoryTaskStore, TaskUpdater
from a2a.types import (
    AgentCapabilities,
    AgentCard,
    AgentInterface,
    AgentSkill,
    a2a_pb2_grpc,
)

# What the card advertises; never sent over gRPC unless an extended card is returned,
# and in any case free of this machine's address and port.
PUBLIC_TARGET = 'agent.example:443'


class EchoExecutor(AgentExecutor):
    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        text = context.get_user_input()
        task = context.current_task
        if task is None:
            task = new_task_from_user_message(context.message)
            await event_queue.enqueue_event(task)
        updater = TaskUpdater(event_queue, task.id, task.context_id)
        await updater.start_work()
        if text == 'fail':
            raise RuntimeError('the echo agent failed on purpose')
        await updater.add_artifact([new_text_part(f'echo: {text}')], name='echo')
        await updater.complete()

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        task = context.current_task
        if task is not None:
            await TaskUpdater(event_queue, task.id, task.context_id).cancel()


def agent_card(config: str) -> AgentCard:
    return AgentCard(
        name='Echo agent (a2a-sdk, gRPC)',
        description='Echoes the text it receives; used to record real A2A gRPC traffic.',
        version='1.0.0',
        supported_interfaces=[
            AgentInterface(
                url=PUBLIC_TARGET,
                protocol_binding='GRPC',
                protocol_version='1.0',
            ),
        ],
        capabilities=AgentCapabilities(
            streaming=True,
            push_notifications=False,
            extended_agent_card=config == 'extcard',
        ),
        default_input_modes=['text/plain'],
        default_output_modes=['text/plain'],
        skills=[
            AgentSkill(
                id='echo',
                name='Echo',
                description='Repeats the text of the message.',
                tags=['echo'],
            )
        ],
    )


async def serve(port: int, config: str) -> None:
    card = agent_card(config)
    handler = DefaultRequestHandler(
        agent_executor=EchoExecutor(),
        task_store=InMemoryTaskStore(),
        agent_card=card,
    )
    server = grpc.aio.server()
    a2a_pb2_grpc.add_A2AServiceServicer_to_server(GrpcHandler(handler), server)
    bound = server.add_insecure_port(f'127.0.0.1:{port}')
    if bound != port:
        raise SystemExit(f'could not listen on 127.0.0.1:{port}')
    await server.start()
    print(f'listening on 127.0.0.1:{port} ({config})', flush=True)

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    await server.stop(grace=1)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument('--port', type=int, required=True)
    parser.add_argument('--config', choices=['plain', 'extcard'], default='plain')
    args = parser.parse_args()
    asyncio.run(serve(args.port, args.config))


if __name__ == '__main__':
    main()
