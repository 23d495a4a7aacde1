"""The driver the Go and Rust recorders share: install the agent and the gRPC client,
run again inside the client's virtual environment, start one agent per configuration
(each under its own host name, agents.virtual_host: `a2a-go.example`,
`streaming.a2a-go.example`, `extcard.a2a-go.example`, advertised by its card for all
three bindings), record the HTTP bindings and the gRPC pcaps, write versions.txt, stop
the agents.

Not run on its own: record_a2a_go.py and record_a2a_rust.py call `main` with their SDK's
module (sdk_a2a_go, sdk_a2a_rust), the toolchain it builds with, and what its versions
are called.
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
from record_pcap import tcpdump_version  # noqa: E402

CONFIGS = ('plain', 'streaming', 'extcard')


def client_versions() -> list[str]:
    """The gRPC client's packages, as this (the client's) interpreter has them."""
    from importlib import metadata

    names = ('grpcio', 'a2a-sdk', 'protobuf', 'googleapis-common-protos')
    return [f'{n} {metadata.version(n)} (PyPI, gRPC client only)' for n in names] + [
        f'Python {platform.python_version()}']


def inner(args, sdk, script: str, packages: str) -> int:
    def timed_out(signum, frame):
        raise TimeoutError('the recording took more than 300 s')

    signal.signal(signal.SIGALRM, timed_out)
    signal.alarm(300)
    out = args.out / sdk.NAME
    running = {}
    try:
        for config in CONFIGS:
            running[config] = agents.start_sdk_agent(sdk, args.env, config, timeout=30)
        agents.record_http(running, out)
        record_grpc.record_sdk_pcaps({c: a.grpc_port for c, a in running.items()},
                                     {c: a.host for c, a in running.items()}, out / 'grpc')
    finally:
        agents.stop_all(running.values())
    lines = sdk.versions(args.env) + client_versions() + tcpdump_version()
    (out / 'versions.txt').write_text(
        f'# Written by samples/record/{script}: the {packages} of the agent that served\n'
        '# these captures, the grpcio client of the gRPC pcaps, and the capture tools.\n'
        + '\n'.join(lines) + f'\nrecorded {datetime.date.today().isoformat()}\n')
    print('recorded with', ', '.join(lines))
    return 0


def outer(args, sdk, script: str, tool: str) -> int:
    if shutil.which('tcpdump') is None or shutil.which(tool) is None:
        sys.exit(f'{script} needs {tool} and tcpdump on PATH')
    env = args.env or pathlib.Path(tempfile.mkdtemp(prefix=f'a2alint-record-{tool}-'))
    env.mkdir(parents=True, exist_ok=True)
    try:
        sdk.install(env)
        python = record_grpc.install(env)
        cmd = [str(python), str(HERE / script), '--inside',
               '--env', str(env), '--out', str(args.out)]
        return subprocess.run(cmd, env={**os.environ, 'PYTHONDONTWRITEBYTECODE': '1'}).returncode
    finally:
        if args.env is None:
            shutil.rmtree(env, ignore_errors=True)
        else:
            print(f'install and server logs kept in {env}')


def main(sdk, doc: str, script: str, tool: str, packages: str) -> None:
    """The command line of `script`, which records `sdk` built with `tool`."""
    parser = argparse.ArgumentParser(description=doc.split('\n\n')[0])
    parser.add_argument('--env', type=pathlib.Path, help='install directory to create or reuse (kept)')
    parser.add_argument('--out', type=pathlib.Path, default=HERE.parent / 'real')
    parser.add_argument('--inside', action='store_true', help=argparse.SUPPRESS)
    args = parser.parse_args()
    args.out = args.out.resolve()
    if args.env is not None:
        args.env = args.env.resolve()
    if args.inside:
        sys.exit(inner(args, sdk, script, packages))
    sys.exit(outer(args, sdk, script, tool))
