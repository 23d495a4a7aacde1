"""A minimal a2a-sdk (Python) agent serving the A2A gRPC binding on 127.0.0.1.

Started by record_grpc.py with the interpreter of the virtual environment that holds
`a2a-sdk[grpc]`:

    python agent_python_grpc.py --port 50051 [--config plain|extcard] --host streaming.a2a-python.example

The agent card lists one GRPC interface, HOST:443 (protocol version 1.0), and says
streaming: true, pushNotifications: false. With `--config plain` (the default) it
declares no extended card; with `--config extcard` it declares one but none is
configured, so GetExtendedAgentCard fails in the other possible way. record_grpc.py
names the host after the HTTP configuration with the same capabilities (this "plain"
has streaming on: streaming.a2a-python.example) and sends it as the channel's
`:authority`.

Every message is answered with a task: submitted -> working -> an artifact echoing the
text -> completed (agent_python_common.EchoExecutor, without the "twice" text). The text
"fail" makes the executor raise once the task is working, which, on a
SendStreamingMessage call, is an error in the middle of a stream.

The server is plain grpc.aio with the SDK's GrpcHandler as the A2AService servicer; no
HTTP agent card endpoint, no reflection, no 0.3 compatibility service. It runs until it
receives SIGTERM or SIGINT.
"""

import argparse
import asyncio
import signal
import sys

sys.dont_write_bytecode = True  # keep __pycache__ out of the repository

import grpc  # noqa: E402
import grpc.aio  # noqa: E402

from a2a.server.request_handlers import DefaultRequestHandler, GrpcHandler  # noqa: E402
from a2a.server.tasks import InMemoryTaskStore  # noqa: E402
from a2a.types import AgentCard, AgentInterface, a2a_pb2_grpc  # noqa: E402

from agent_python_common import EchoExecutor, echo_card  # noqa: E402

def agent_card(config: str, host: str) -> AgentCard:
    # What the card advertises; never sent over gRPC unless an extended card is returned,
    # and in any case free of this machine's address and port.
    target = f'{host}:443'
    return echo_card(
        'Echo agent (a2a-sdk, gRPC)',
        'Echoes the text it receives; used to record real A2A gRPC traffic.',
        [AgentInterface(url=target, protocol_binding='GRPC', protocol_version='1.0')],
        streaming=True,
        extended_agent_card=config == 'extcard',
    )


async def serve(port: int, config: str, host: str) -> None:
    card = agent_card(config, host)
    handler = DefaultRequestHandler(
        agent_executor=EchoExecutor(twice=False),
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
    parser.add_argument('--host', required=True, help='public host name the card advertises')
    args = parser.parse_args()
    asyncio.run(serve(args.port, args.config, args.host))


if __name__ == '__main__':
    main()
