#!/usr/bin/env python3
"""Records the Rust SDK's echo agent (crates a2a-lf, a2a-server-lf, a2a-grpc).

    python3 samples/record/record_a2a_rust.py [--env DIR] [--out DIR]

Needs cargo (Rust 1.95), tcpdump, Python >= 3.11 and root (tcpdump on `lo`). Without
--env the build and the client's virtual environment go to a new temporary directory,
deleted at the end; with --env DIR that directory is made or reused and kept, with one
log per agent.

What happens:
1. sdk_a2a_rust.install builds rust/ in <env> (never in the repository);
   record_grpc.install puts grpcio and a2a-sdk's stubs into <env>/py, and the script
   re-runs itself under that interpreter for the gRPC client.
2. Three agents start, one per configuration (plain, streaming, extcard), each with an
   HTTP port (card, JSON-RPC, HTTP+JSON) and a gRPC port on 127.0.0.1.
3. HTTP: a proxy.RecordingProxy in front of each agent; every scenario of
   scenarios.BINDINGS runs the way record_all.py runs it, and lands in
   <out>/a2a-rust/<binding>/<scenario>.http.
4. gRPC: tcpdump (record_pcap.Tcpdump) on one agent's gRPC port while record_grpc.py's
   client runs its scenarios, into <out>/a2a-rust/grpc/:
   - grpc.pcap: record_grpc.MAIN in order on one channel, against the `streaming`
     agent (the capabilities record_grpc.py's "plain" agent has);
   - <scenario>.pcap for each of record_grpc.ALONE (extended-card-not-configured
     against the extcard agent);
   - deadline.pcap: SendMessage "slow" (five seconds of work) with a one second
     deadline; streaming-unsupported.pcap: SendStreamingMessage to the plain agent;
     stream-republished-task.pcap: the text "twice" on a stream.
   No twin without true binary: tonic is not grpc C-core. The grpcio client still
   announces HTTP/2 setting 0xfe03, tonic does not announce it back, so every -bin
   trailer in these pcaps is base64 already.
5. <out>/a2a-rust/versions.txt; the agents are stopped by process id.
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
import sdk_a2a_rust as sdk  # noqa: E402
from proxy import RecordingProxy  # noqa: E402
from record_pcap import Tcpdump, tcpdump_version  # noqa: E402

CONFIGS = ('plain', 'streaming', 'extcard')
# record_grpc.py's configurations, as configurations of this agent.
AS_GRPC = {'plain': 'streaming', 'extcard': 'extcard'}


class RustAgent:
    """One agent process (HTTP and gRPC port); stopped by its process id."""

    def __init__(self, env: pathlib.Path, config: str):
        self.config = config
        self.port, self.grpc_port = record_all.free_port(), record_all.free_port()
        cmd, cwd = sdk.command(env, self.port, config, grpc_port=self.grpc_port)
        self.log = open(env / f'{sdk.NAME}-{config}.log', 'wb')
        self.proc = subprocess.Popen(cmd, cwd=cwd, stdout=self.log, stderr=subprocess.STDOUT)
        give_up = time.monotonic() + 30
        for port in (self.port, self.grpc_port):
            while not self._accepts(port):
                if self.proc.poll() is not None:
                    raise RuntimeError(f'{config} agent exited ({self.proc.returncode}); see {self.log.name}')
                if time.monotonic() > give_up:
                    raise RuntimeError(f'{config} agent never listened on {port}')
                time.sleep(0.2)

    @staticmethod
    def _accepts(port: int) -> bool:
        try:
            socket.create_connection(('127.0.0.1', port), timeout=1).close()
            return True
        except OSError:
            return False

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.kill(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        self.log.close()


def record_http(agents: dict, out: pathlib.Path) -> None:
    """scenarios.BINDINGS through one recording proxy per agent, as record_all.record."""
    proxies = {name: RecordingProxy(('127.0.0.1', agent.port)).start() for name, agent in agents.items()}
    try:
        for binding, table in scenarios.BINDINGS.items():
            folder = out / binding
            folder.mkdir(parents=True, exist_ok=True)
            for old in folder.glob('*.http'):
                old.unlink()
            for name, scenario in table.items():
                proxy = proxies[scenarios.CONFIG.get(name, 'plain')]
                session = scenarios.Session(proxy.port, proxy)
                scenario(session)
                (folder / f'{name}.http').write_bytes(record_all.capture_bytes(session.exchanges))
                print(f'  {binding}/{name}.http ({len(session.exchanges)} exchanges)', flush=True)
    finally:
        for proxy in proxies.values():
            proxy.shutdown()
            proxy.server_close()


def expired_deadline(client) -> None:
    """SendMessage "slow" with a 1 s deadline; the agent needs about 5 s."""
    request = client.pb.SendMessageRequest(message=client.message('msg-slow', 'slow'))
    stream_id, client.stream_id = client.stream_id, client.stream_id + 2
    print(f'  [stream {stream_id}] SendMessage "slow", deadline 1 s', flush=True)
    try:
        client.stub.SendMessage(request, metadata=[('a2a-version', '1.0')], timeout=1.0)
        print('      OK: the deadline did not expire')
    except client.grpc.RpcError as error:
        record_grpc.describe_error(error)
    time.sleep(0.5)  # anything the server still sends for that stream


def republished_task(client) -> None:
    client.call('SendStreamingMessage: the executor sends the task twice', 'SendStreamingMessage',
                client.pb.SendMessageRequest(message=client.message('msg-twice', 'twice')))


# name -> (function, configuration of this agent)
OWN = {
    'deadline': (expired_deadline, 'streaming'),
    'streaming-unsupported': (record_grpc.stream, 'plain'),
    'stream-republished-task': (republished_task, 'streaming'),
}


def pcap(path: pathlib.Path, port: int, functions: list) -> None:
    print(f'== {path.name}', flush=True)
    dump = Tcpdump(path, [port])
    try:
        client = record_grpc.Client(port)
        try:
            for function in functions:
                function(client)
        finally:
            client.close()
    finally:
        dump.stop()


def record_grpc_pcaps(agents: dict, out: pathlib.Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob('*.pcap'):
        old.unlink()
    main_port = agents[AS_GRPC['plain']].grpc_port
    pcap(out / 'grpc.pcap', main_port, [record_grpc.SCENARIOS[n][0] for n in record_grpc.MAIN])
    for name in record_grpc.ALONE:
        function, config = record_grpc.SCENARIOS[name]
        pcap(out / f'{name}.pcap', agents[AS_GRPC[config]].grpc_port, [function])
    for name, (function, config) in OWN.items():
        pcap(out / f'{name}.pcap', agents[config].grpc_port, [function])


def client_versions() -> list[str]:
    from importlib import metadata

    names = ('grpcio', 'a2a-sdk', 'protobuf', 'googleapis-common-protos')
    return [f'{n} {metadata.version(n)} (PyPI; the gRPC client only)' for n in names] + [
        f'Python {platform.python_version()}']


def inner(args) -> int:
    def too_long(signum, frame):
        raise TimeoutError('recording took more than 300 s')

    signal.signal(signal.SIGALRM, too_long)
    signal.alarm(300)
    out = args.out / sdk.NAME
    agents = {}
    try:
        for config in CONFIGS:
            agents[config] = RustAgent(args.env, config)
        record_http(agents, out)
        record_grpc_pcaps(agents, out / 'grpc')
    finally:
        for agent in agents.values():
            agent.stop()
    lines = sdk.versions(args.env) + client_versions() + tcpdump_version()
    (out / 'versions.txt').write_text(
        '# Written by samples/record/record_a2a_rust.py: the crates of the agent that served\n'
        '# these captures, the grpcio client of the gRPC pcaps, and the capture tools.\n'
        + '\n'.join(lines) + f'\nrecorded {datetime.date.today().isoformat()}\n')
    print('recorded with', ', '.join(lines))
    return 0


def outer(args) -> int:
    if shutil.which('tcpdump') is None or shutil.which('cargo') is None:
        sys.exit('record_a2a_rust.py needs cargo and tcpdump on PATH')
    env = args.env or pathlib.Path(tempfile.mkdtemp(prefix='a2alint-record-rust-'))
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
