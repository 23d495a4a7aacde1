#!/usr/bin/env python3
"""Records the a2a-go (Go SDK, v2) echo agent: HTTP captures and gRPC pcaps.

    python3 samples/record/record_a2a_go.py [--env DIR] [--out DIR]

Run as root (tcpdump captures on `lo`), with Go, tcpdump and Python >= 3.11 on PATH.
Without --env everything is installed into a fresh temporary directory that is removed
afterwards; --env DIR creates or reuses DIR and keeps it, server logs included.

Steps:
1. sdk_a2a_go.install builds samples/record/go/ into <env>/bin (Go caches in <env>);
   record_grpc.install puts grpcio and the a2a-sdk stubs into <env>/py, and this script
   runs itself again with that interpreter, since the gRPC client needs them.
2. One agent per configuration (plain, streaming, extcard), each on two free ports of
   127.0.0.1: HTTP (card, JSON-RPC, HTTP+JSON) and gRPC.
3. HTTP: each agent sits behind a proxy.RecordingProxy and every scenario of
   scenarios.BINDINGS runs as in record_all.py, into
   <out>/a2a-go/<binding>/<scenario>.http.
4. gRPC: record_grpc.py's grpcio client and scenario functions, with tcpdump on the
   agent's gRPC port (record_pcap.Tcpdump), into <out>/a2a-go/grpc/:
   grpc.pcap (record_grpc.MAIN on one channel, against the streaming agent, which has
   the capabilities record_grpc.py's own "plain" agent has), one pcap per scenario of
   record_grpc.ALONE, and three of this script's own: deadline.pcap (a call with a
   one second deadline to the text "slow", which takes five), streaming-unsupported.pcap
   (SendStreamingMessage to the plain agent) and stream-republished-task.pcap.
   No base64 twin: grpc-go never sends true-binary metadata, so every -bin trailer is
   base64 whatever the client announces.
5. <out>/a2a-go/versions.txt; the agents are stopped by process id.
"""

import argparse
import datetime
import os
import pathlib
import platform
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # keep __pycache__ out of the repository

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import record_all  # noqa: E402
import record_grpc  # noqa: E402
import scenarios  # noqa: E402
import sdk_a2a_go as sdk  # noqa: E402
from proxy import RecordingProxy  # noqa: E402
from record_pcap import Tcpdump, tcpdump_version  # noqa: E402

CONFIGS = ('plain', 'streaming', 'extcard')
# Which of this SDK's configurations stands in for record_grpc.py's configurations.
GRPC_CONFIG = {'plain': 'streaming', 'extcard': 'extcard'}


class Agent:
    """The Go echo agent in one configuration; stopped by its process id."""

    def __init__(self, env: pathlib.Path, config: str):
        self.config = config
        self.port = record_all.free_port()
        self.grpc_port = record_all.free_port()
        cmd, cwd = sdk.command(env, self.port, config, grpc_port=self.grpc_port)
        self.log = open(env / f'{sdk.NAME}-{config}.log', 'wb')
        self.proc = subprocess.Popen(cmd, cwd=cwd, stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        for port in (self.port, self.grpc_port):
            while True:
                if self.proc.poll() is not None:
                    raise RuntimeError(f'agent {config} exited with {self.proc.returncode}; see {self.log.name}')
                try:
                    socket.create_connection(('127.0.0.1', port), timeout=1).close()
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        raise RuntimeError(f'agent {config} did not listen on {port}')
                    time.sleep(0.2)

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.kill(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        self.log.close()


# --- HTTP bindings, as record_all.record does for one SDK -----------------------------


def record_http(agents: dict, out: pathlib.Path) -> None:
    proxies = {c: RecordingProxy(('127.0.0.1', a.port)).start() for c, a in agents.items()}
    try:
        for binding, table in scenarios.BINDINGS.items():
            target = out / binding
            target.mkdir(parents=True, exist_ok=True)
            for stale in target.glob('*.http'):
                stale.unlink()
            for name, scenario in table.items():
                proxy = proxies[scenarios.CONFIG.get(name, 'plain')]
                session = scenarios.Session(proxy.port, proxy)
                scenario(session)
                (target / f'{name}.http').write_bytes(record_all.capture_bytes(session.exchanges))
                print(f'  {binding}/{name}.http ({len(session.exchanges)} exchanges)', flush=True)
    finally:
        for proxy in proxies.values():
            proxy.shutdown()
            proxy.server_close()


# --- gRPC -------------------------------------------------------------------------------


def deadline(c) -> None:
    """A unary call whose one second deadline runs out while the agent is still busy."""
    request = c.pb.SendMessageRequest(message=c.message('msg-slow', 'slow'))
    stream_id, c.stream_id = c.stream_id, c.stream_id + 2
    print(f'  [stream {stream_id}] SendMessage "slow" with a 1 s deadline', flush=True)
    try:
        c.stub.SendMessage(request, metadata=[('a2a-version', '1.0')], timeout=1.0)
        print('      OK (the deadline did not expire)')
    except c.grpc.RpcError as error:
        record_grpc.describe_error(error)
    time.sleep(0.5)  # whatever the server still sends on that stream


def stream_republished(c) -> None:
    c.call('SendStreamingMessage: the executor publishes the task twice', 'SendStreamingMessage',
           c.pb.SendMessageRequest(message=c.message('msg-twice', 'twice')))


# name -> (function, configuration of THIS agent)
EXTRA = {
    'deadline': (deadline, 'streaming'),
    'streaming-unsupported': (record_grpc.stream, 'plain'),
    'stream-republished-task': (stream_republished, 'streaming'),
}


def grpc_capture(pcap: pathlib.Path, port: int, calls: list) -> None:
    print(f'== {pcap.name}', flush=True)
    dump = Tcpdump(pcap, [port])
    try:
        client = record_grpc.Client(port)
        try:
            for call in calls:
                call(client)
        finally:
            client.close()
    finally:
        dump.stop()


def record_grpc_pcaps(agents: dict, out: pathlib.Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for stale in out.glob('*.pcap'):
        stale.unlink()

    def of(name):
        function, config = record_grpc.SCENARIOS[name]
        return function, agents[GRPC_CONFIG[config]].grpc_port

    port = agents[GRPC_CONFIG['plain']].grpc_port
    grpc_capture(out / 'grpc.pcap', port, [of(name)[0] for name in record_grpc.MAIN])
    for name in record_grpc.ALONE:
        function, port = of(name)
        grpc_capture(out / f'{name}.pcap', port, [function])
    for name, (function, config) in EXTRA.items():
        grpc_capture(out / f'{name}.pcap', agents[config].grpc_port, [function])


# --- driver -----------------------------------------------------------------------------


def client_versions() -> list[str]:
    from importlib import metadata

    names = ('grpcio', 'a2a-sdk', 'protobuf', 'googleapis-common-protos')
    return [f'{n} {metadata.version(n)} (PyPI, gRPC client only)' for n in names] + [
        f'Python {platform.python_version()}']


def inner(args) -> int:
    def timed_out(signum, frame):
        raise TimeoutError('the recording took more than 300 s')

    signal.signal(signal.SIGALRM, timed_out)
    signal.alarm(300)
    out = args.out / sdk.NAME
    agents = {}
    try:
        for config in CONFIGS:
            agents[config] = Agent(args.env, config)
        record_http(agents, out)
        record_grpc_pcaps(agents, out / 'grpc')
    finally:
        for agent in agents.values():
            agent.stop()
    lines = sdk.versions(args.env) + client_versions() + tcpdump_version()
    (out / 'versions.txt').write_text(
        '# Written by samples/record/record_a2a_go.py: the Go modules of the agent that served\n'
        '# these captures, the grpcio client of the gRPC pcaps, and the capture tools.\n'
        + '\n'.join(lines) + f'\nrecorded {datetime.date.today().isoformat()}\n')
    print('recorded with', ', '.join(lines))
    return 0


def outer(args) -> int:
    if shutil.which('tcpdump') is None or shutil.which('go') is None:
        sys.exit('record_a2a_go.py needs go and tcpdump on PATH')
    env = args.env or pathlib.Path(tempfile.mkdtemp(prefix='a2alint-record-go-'))
    env.mkdir(parents=True, exist_ok=True)
    try:
        sdk.install(env)
        python = record_grpc.install(env)
        cmd = [str(python), str(pathlib.Path(__file__).resolve()), '--inside',
               '--env', str(env), '--out', str(args.out)]
        return subprocess.run(cmd, env={**os.environ, 'PYTHONDONTWRITEBYTECODE': '1'}).returncode
    finally:
        if args.env is None:
            shutil.rmtree(env, ignore_errors=True)
        else:
            print(f'install and server logs kept in {env}')


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--env', type=pathlib.Path, help='install directory to create or reuse (kept)')
    parser.add_argument('--out', type=pathlib.Path, default=HERE.parent / 'real')
    parser.add_argument('--inside', action='store_true', help=argparse.SUPPRESS)
    args = parser.parse_args()
    args.out = args.out.resolve()
    if args.env is not None:
        args.env = args.env.resolve()
    sys.exit(inner(args) if args.inside else outer(args))


if __name__ == '__main__':
    main()
