#!/usr/bin/env python3
"""Records the gRPC binding of @a2a-js/sdk (grpcService on @grpc/grpc-js) as pcap files.

    python3 samples/record/record_a2a_js_grpc.py [--env DIR] [--out DIR]

Run as root (tcpdump captures on `lo`), with Node >= 20 and npm, tcpdump and
Python >= 3.11 on PATH. Without --env everything goes into a fresh temporary directory,
removed at the end; --env DIR creates or reuses DIR and keeps it, server logs included.
The HTTP bindings of @a2a-js/sdk are recorded by record_all.py, not here.

Steps:
1. npm installs package-grpc.json (package.json's pins plus @grpc/grpc-js and
   @bufbuild/protobuf, exact versions) into <env>/js, next to copies of
   agent_js_grpc.mjs and client_js_grpc.mjs; record_grpc.install puts grpcio, the
   a2a-sdk stubs and a2a-sdk's gRPC server into <env>/py, and this script runs itself
   again with that interpreter.
2. agent_js_grpc.mjs is started once per configuration (plain, streaming, extcard), each
   on a free port of 127.0.0.1 and under a host name of its own (agents.virtual_host:
   `a2a-js.example`, `streaming.a2a-js.example`, `extcard.a2a-js.example`), which its
   card's GRPC interface names and the clients send as `:authority`; each is stopped by
   its process id at the end.
3. With tcpdump on the agent's port (record_pcap.Tcpdump), record_grpc.py's grpcio client
   and scenario functions write, into <out>/a2a-js/grpc/:
   - grpc.pcap: record_grpc.MAIN on one channel, to the streaming agent (it has the
     capabilities of record_grpc.py's own "plain" agent);
   - <scenario>.pcap for each scenario of record_grpc.ALONE (the extcard agent for
     extended-card-not-configured, the streaming one otherwise);
   - deadline.pcap (SendMessage "slow", which takes five seconds, with a one second
     deadline), streaming-unsupported.pcap (SendStreamingMessage to the plain agent),
     stream-republished-task.pcap (the text "twice");
   - grpc-js-client.pcap: client_js_grpc.mjs (a @grpc/grpc-js client: GetTask of an
     unknown task, SendMessage, SendStreamingMessage) against the streaming agent.
   No "-base64" twin: grpc-js never sends true-binary metadata, whatever the client
   announces, so every -bin trailer here is base64 already.
4. The same client_js_grpc.mjs against a2a-python's gRPC agent (agent_python_grpc.py,
   config plain, started with record_grpc.Agent) into
   <out>/a2a-python/grpc/grpc-js-client.pcap: grpc C-core answering a client that does
   not announce true binary metadata.
5. <out>/a2a-js/grpc/versions.txt: npm packages, Node, the Python side, tcpdump.
"""

import argparse
import datetime
import json
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
from record_pcap import Tcpdump, tcpdump_version  # noqa: E402

NAME = 'a2a-js'
CONFIGS = ('plain', 'streaming', 'extcard')
NPM_REPORTED = ('@a2a-js/sdk', '@grpc/grpc-js', '@bufbuild/protobuf')
JS_FILES = ('agent_js_grpc.mjs', 'agent_js_common.mjs', 'client_js_grpc.mjs')


# --- install ------------------------------------------------------------------------------


def install_js(env: pathlib.Path) -> pathlib.Path:
    js = env / 'js'
    js.mkdir(parents=True, exist_ok=True)
    shutil.copy(HERE / 'package-grpc.json', js / 'package.json')
    npm_env = {**os.environ, 'npm_config_cache': str(env / 'npm-cache')}
    subprocess.run(['npm', 'install', '--silent', '--no-audit', '--no-fund', '--no-package-lock'],
                   cwd=js, env=npm_env, check=True)
    for name in JS_FILES:  # next to node_modules, so that Node resolves the packages
        shutil.copy(HERE / name, js)
    return js


def js_versions(env: pathlib.Path) -> list[str]:
    lines = []
    for name in NPM_REPORTED:
        package = env / 'js' / 'node_modules' / name / 'package.json'
        lines.append(f'{name} {json.loads(package.read_text())["version"]} (npm)')
    node = subprocess.run(['node', '--version'], capture_output=True, text=True, check=True)
    lines.append(f'Node {node.stdout.strip().lstrip("v")}')
    return lines


def python_versions() -> list[str]:
    from importlib import metadata

    return [f'{n} {metadata.version(n)} (PyPI)' for n in record_grpc.REPORTED] + [
        f'Python {platform.python_version()}']


# --- the agent and the captures ------------------------------------------------------------


def start_agent(env: pathlib.Path, config: str) -> agents.AgentProcess:
    """agent_js_grpc.mjs in one configuration, under its host name; stopped by its process id."""
    port = agents.free_port()
    host = agents.virtual_host(NAME, config)
    cmd = ['node', 'agent_js_grpc.mjs', '--port', str(port), '--config', config, '--host', host]
    return agents.AgentProcess(cmd, env / 'js', env / f'a2a-js-grpc-{config}.log', port,
                               name=f'agent {config}', host=host, timeout=30)


def grpc_js_capture(pcap: pathlib.Path, agent: agents.AgentProcess, env: pathlib.Path) -> None:
    print(f'== {pcap.name} (the @grpc/grpc-js client)', flush=True)
    dump = Tcpdump(pcap, [agent.port])
    try:
        result = subprocess.run(['node', 'client_js_grpc.mjs', '--port', str(agent.port),
                                 '--authority', agent.host], cwd=env / 'js', timeout=60)
    finally:
        dump.stop()
    if result.returncode != 0:
        raise RuntimeError(f'client_js_grpc.mjs exited with {result.returncode} ({pcap})')


def record_js(running: dict, out: pathlib.Path, env: pathlib.Path) -> None:
    # linger 4.5 s after the expired deadline: stay on the connection until the agent has
    # finished the task, to capture whatever it still sends on the expired stream.
    record_grpc.record_sdk_pcaps({c: a.port for c, a in running.items()},
                                 {c: a.host for c, a in running.items()}, out, linger=4.5)
    grpc_js_capture(out / 'grpc-js-client.pcap', running['streaming'], env)


# --- driver ---------------------------------------------------------------------------------


def inner(args) -> int:
    def timed_out(signum, frame):
        raise TimeoutError('the recording took more than 300 s')

    signal.signal(signal.SIGALRM, timed_out)
    signal.alarm(300)  # a call that never returns must not hang the run (the servers still stop)
    out = args.out / NAME / 'grpc'
    running = {}
    try:
        for config in CONFIGS:
            running[config] = start_agent(args.env, config)
        record_js(running, out, args.env)
    finally:
        agents.stop_all(running.values())
    python_agent = record_grpc.Agent('plain', args.env)
    try:
        grpc_js_capture(args.out / 'a2a-python' / 'grpc' / 'grpc-js-client.pcap', python_agent, args.env)
    finally:
        python_agent.stop()
    lines = js_versions(args.env) + python_versions() + tcpdump_version()
    (out / 'versions.txt').write_text(
        '# Written by samples/record/record_a2a_js_grpc.py: the npm packages of the agent and of\n'
        '# the grpc-js client (client_js_grpc.mjs) in these captures and in\n'
        '# ../../a2a-python/grpc/grpc-js-client.pcap, the Python side (grpcio client of the other\n'
        '# pcaps; a2a-python agent of that one pcap), and the capture tools.\n'
        + '\n'.join(lines) + f'\nrecorded {datetime.date.today().isoformat()}\n')
    print('recorded with', ', '.join(lines))
    return 0


def outer(args) -> int:
    missing = [tool for tool in ('node', 'npm', 'tcpdump') if shutil.which(tool) is None]
    if missing:
        sys.exit(f'record_a2a_js_grpc.py needs {", ".join(missing)} on PATH')
    env = args.env or pathlib.Path(tempfile.mkdtemp(prefix='a2alint-record-js-grpc-'))
    env.mkdir(parents=True, exist_ok=True)
    try:
        install_js(env)
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
