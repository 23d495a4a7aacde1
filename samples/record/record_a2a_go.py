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
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # keep __pycache__ out of the repository

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import agents  # noqa: E402
import record_grpc  # noqa: E402
import sdk_a2a_go as sdk  # noqa: E402
from record_pcap import tcpdump_version  # noqa: E402

CONFIGS = ('plain', 'streaming', 'extcard')


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
    running = {}
    try:
        for config in CONFIGS:
            running[config] = agents.start_sdk_agent(sdk, args.env, config, timeout=30)
        agents.record_http({c: a.port for c, a in running.items()}, out)
        record_grpc.record_sdk_pcaps({c: a.grpc_port for c, a in running.items()}, out / 'grpc')
    finally:
        agents.stop_all(running.values())
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
