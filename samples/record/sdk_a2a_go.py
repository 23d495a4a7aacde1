"""How to build and start the a2a-go echo agent (samples/record/go/) for the recorders.

Not run on its own; record_a2a_go.py imports it:

    install(env)                  builds the agent into <env>/bin with the Go toolchain,
                                  all Go caches under <env> (nothing under the repository)
    versions(env)                 the exact module versions compiled into that binary
    command(env, port, config, host, grpc_port=None)
                                  the command line (and working directory) of one agent,
                                  advertising `host` in its card

Module downloads go through GOPROXY (https://proxy.golang.org when it is unset); the
versions come from go/go.mod and go/go.sum, which the build may not change.
"""

import os
import pathlib
import subprocess
import sys

sys.dont_write_bytecode = True  # keep __pycache__ out of the repository

HERE = pathlib.Path(__file__).resolve().parent
AGENT_DIR = HERE / 'go'
NAME = 'a2a-go'
SDK_MODULE = 'github.com/a2aproject/a2a-go/v2'
# The modules whose versions decide the bytes on the wire.
REPORTED = (
    SDK_MODULE,
    'google.golang.org/grpc',
    'google.golang.org/protobuf',
    'golang.org/x/net',
    'google.golang.org/genproto/googleapis/rpc',
)


def binary(env: pathlib.Path) -> pathlib.Path:
    return env / 'bin' / 'echo-agent'


def go_env(env: pathlib.Path) -> dict:
    return {
        **os.environ,
        'GOMODCACHE': str(env / 'mod'),
        'GOPATH': str(env / 'gopath'),
        'GOCACHE': str(env / 'cache'),
        'GOPROXY': os.environ.get('GOPROXY', 'https://proxy.golang.org'),
        'GOFLAGS': '-mod=readonly -buildvcs=false',
        'GOTOOLCHAIN': 'local',
        'CGO_ENABLED': '0',
    }


def install(env: pathlib.Path) -> None:
    env.mkdir(parents=True, exist_ok=True)
    cmd = ['go', 'build', '-trimpath', '-o', str(binary(env)), '.']
    print('+', ' '.join(cmd), f'(in {AGENT_DIR})', flush=True)
    subprocess.run(cmd, cwd=AGENT_DIR, env=go_env(env), check=True)


def versions(env: pathlib.Path) -> list[str]:
    # `go version -m` prints the toolchain and every module linked into the binary.
    out = subprocess.run(['go', 'version', '-m', str(binary(env))], env=go_env(env),
                         check=True, text=True, stdout=subprocess.PIPE).stdout
    found, toolchain = {}, None
    for line in out.splitlines():
        fields = line.split()
        if toolchain is None and len(fields) == 2 and fields[1].startswith('go'):
            toolchain = fields[1]
        if len(fields) >= 3 and fields[0] == 'dep':
            found[fields[1]] = fields[2]
    lines = [f'{module} {found[module]} (Go module)' for module in REPORTED if module in found]
    lines.append(f'Go toolchain {toolchain}')
    return lines


def command(env: pathlib.Path, port: int, config: str, host: str, grpc_port: int | None = None):
    cmd = [str(binary(env)), '--port', str(port), '--config', config, '--host', host]
    if grpc_port is not None:
        cmd += ['--grpc-port', str(grpc_port)]
    return cmd, AGENT_DIR
