"""A minimal a2a-sdk (Python) agent exposing JSON-RPC and HTTP+JSON on 127.0.0.1.

Run by record_all.py with the throwaway virtual environment's interpreter:

    python agent_python.py --port 8001 --config plain|streaming|extcard --host a2a-python.example

--host is the public host name the card's interface URLs advertise (http://HOST/...),
the one the recorder's requests send as `Host:` (agents.virtual_host: one per SDK and
configuration, since a2alint compares a card with the answers at the hosts it lists).

Configurations (the agent card's `capabilities`):
  plain      streaming, push notifications and the extended card all off
  streaming  streaming on (push and extended card off)
  extcard    the card declares an extended card, but none is configured

The agent (agent_python_common.EchoExecutor) answers every message with a task:
submitted -> working -> an artifact echoing the text -> completed. Two texts drive the
stream error scenarios:
  "fail"      the executor raises after the task started working
  "twice"     the executor publishes the task a second time mid-stream
"""

import argparse
import sys

sys.dont_write_bytecode = True  # keep __pycache__ out of the repository

import uvicorn  # noqa: E402

from starlette.applications import Starlette  # noqa: E402

from a2a.server.request_handlers import DefaultRequestHandler  # noqa: E402
from a2a.server.routes import (  # noqa: E402
    create_agent_card_routes,
    create_jsonrpc_routes,
    create_rest_routes,
)
from a2a.server.tasks import InMemoryTaskStore  # noqa: E402
from a2a.types import AgentCard, AgentInterface  # noqa: E402

from agent_python_common import EchoExecutor, echo_card  # noqa: E402

JSONRPC_PATH = '/a2a/jsonrpc'
REST_PATH = '/a2a/rest'


def agent_card(config: str, host: str) -> AgentCard:
    # Stable, machine-independent URLs on the recorder's host name: no real port shows.
    base = f'http://{host}'
    return echo_card(
        'Echo agent (a2a-sdk)',
        'Echoes the text it receives; used to record real A2A traffic.',
        [
            AgentInterface(url=base + JSONRPC_PATH, protocol_binding='JSONRPC', protocol_version='1.0'),
            AgentInterface(url=base + REST_PATH, protocol_binding='HTTP+JSON', protocol_version='1.0'),
        ],
        streaming=config == 'streaming',
        extended_agent_card=config == 'extcard',
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument('--port', type=int, required=True)
    parser.add_argument(
        '--config', choices=['plain', 'streaming', 'extcard'], required=True
    )
    parser.add_argument('--host', required=True, help='public host name the card advertises')
    args = parser.parse_args()

    card = agent_card(args.config, args.host)
    handler = DefaultRequestHandler(
        agent_executor=EchoExecutor(twice=True),
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
