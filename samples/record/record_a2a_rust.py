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
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # keep __pycache__ out of the repository

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import agents  # noqa: E402
import record_grpc  # noqa: E402
import sdk_a2a_rust as sdk  # noqa: E402
from record_pcap import tcpdump_version  # noqa: E402

CONFIGS = ('plain', 'streaming', 'extcard')


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
