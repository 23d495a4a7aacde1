"""A minimal a2a-sdk (Python) agent exposing JSON-RPC and HTTP+JSON on 127.0.0.1.

Run by record_all.py with the throwaway virtual environment's interpreter:

    python agent_python.py --port 8001 --config plain|streaming|extcard

Configurations (the agent card's `capabilities`):
  plain      streaming, push notifications and the extended card all off
  streaming  streaming on (push and extended card off)
  extcard    the card declares an extended card, but none is configured

The agent answers every message with a task: submitted -> working -> an artifact
echoing the text -> completed. Two texts drive the stream error scenarios:
  "fail"      the executor raises after the task started working
  "twice"     the executor publishes the task a second time mid-stream
"""

import argparse

import uvicorn

from starlette.applications import Starlette

from a2a.helpers.proto_helpers import new_task_from_user_message, new_text_part
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.events import EventQueue
from a2a.server.request_handlers import DefaultRequestHandler
from a2a.server.routes import (
    create_agent_card_routes,
    create_jsonrpc_routes,
    create_rest_routes,
)
from a2a.server.tasks import InMemoryTaskStore, TaskUpdater
from a2a.types import (
    AgentCapabilities,
    AgentCard,
    AgentInterface,
    AgentSkill,
)

# Stable, machine-independent URLs: the recordings never show a real port.
PUBLIC_BASE = 'http://agent.example'
JSONRPC_PATH = '/a2a/jsonrpc'
REST_PATH = '/a2a/rest'


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
        if text == 'twice':
            await event_queue.enqueue_event(task)
        await updater.add_artifact([new_text_part(f'echo: {text}')], name='echo')
        await updater.complete()

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        task = context.current_task
        if task is not None:
            await TaskUpdater(event_queue, task.id, task.context_id).cancel()


def agent_card(config: str) -> AgentCard:
    return AgentCard(
        name='Echo agent (a2a-sdk)',
        description='Echoes the text it receives; used to record real A2A traffic.',
        version='1.0.0',
        supported_interfaces=[
            AgentInterface(
                url=PUBLIC_BASE + JSONRPC_PATH,
                protocol_binding='JSONRPC',
                protocol_version='1.0',
            ),
            AgentInterface(
                url=PUBLIC_BASE + REST_PATH,
                protocol_binding='HTTP+JSON',
                protocol_version='1.0',
            ),
        ],
        capabilities=AgentCapabilities(
            streaming=config == 'streaming',
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


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument('--port', type=int, required=True)
    parser.add_argument(
        '--config', choices=['plain', 'streaming', 'extcard'], required=True
    )
    args = parser.parse_args()

    card = agent_card(args.config)
    handler = DefaultRequestHandler(
        agent_executor=EchoExecutor(),
        task_store=InMemoryTaskStore(),
        agent_card=card,
    )
    app = Starlette(
        routes=[
            *create_agent_card_routes(card),
            *create_jsonrpc_routes(handler, rpc_url=JSONRPC_PATH),
            *create_rest_routes(handler, path_prefix=REST_PATH),
        ]
    )
    uvicorn.run(app, host='127.0.0.1', port=args.port, log_level='warning')


if __name__ == '__main__':
    main()
