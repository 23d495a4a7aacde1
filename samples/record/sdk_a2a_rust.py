"""How to build and start the Rust SDK's echo agent (samples/record/rust/).

A helper module for record_a2a_rust.py, not a script:

    import sdk_a2a_rust
    sdk_a2a_rust.install(env)                       # cargo build --release, outside the repository
    cmd, cwd = sdk_a2a_rust.command(env, 8001, 'plain', 'a2a-rust.example', grpc_port=50051)

install() copies rust/Cargo.toml and rust/src/ into <env>/rust-src and builds there
with CARGO_TARGET_DIR=<env>/target, so Cargo.lock and target/ never land in the
repository. versions() reads the exact crate versions back from that Cargo.lock.
"""

import os
import pathlib
import shutil
import subprocess
import sys
import tomllib

sys.dont_write_bytecode = True  # keep __pycache__ out of the repository

HERE = pathlib.Path(__file__).resolve().parent
SOURCE = HERE / 'rust'
NAME = 'a2a-rust'
BINARY = 'a2a-echo-agent-rust'
# The SDK's crates first, then the ones that shape the bytes on the wire.
REPORTED = ('a2a-lf', 'a2a-server-lf', 'a2a-grpc', 'a2a-pb', 'axum', 'hyper', 'tonic', 'h2',
            'prost', 'tonic-types', 'serde_json')


def _build_dir(env: pathlib.Path) -> pathlib.Path:
    return env / 'rust-src'


def install(env: pathlib.Path) -> None:
    build = _build_dir(env)
    (build / 'src').mkdir(parents=True, exist_ok=True)
    shutil.copy(SOURCE / 'Cargo.toml', build / 'Cargo.toml')
    shutil.copytree(SOURCE / 'src', build / 'src', dirs_exist_ok=True)
    cmd = ['cargo', 'build', '--release', '--quiet']
    print('+', ' '.join(cmd), f'(in {build}, target {env / "target"})', flush=True)
    subprocess.run(cmd, cwd=build, check=True,
                   env={**os.environ, 'CARGO_TARGET_DIR': str(env / 'target')})


def versions(env: pathlib.Path) -> list[str]:
    lock = tomllib.loads((_build_dir(env) / 'Cargo.lock').read_text())
    found = {}
    for package in lock['package']:
        found.setdefault(package['name'], []).append(package['version'])
    lines = [f'{name} {", ".join(found[name])} (crates.io)' for name in REPORTED if name in found]
    rustc = subprocess.run(['rustc', '--version'], check=True, text=True,
                           stdout=subprocess.PIPE).stdout.strip()
    return lines + [rustc]


def command(env: pathlib.Path, port: int, config: str, host: str, grpc_port: int | None = None):
    cmd = [str(env / 'target' / 'release' / BINARY), '--port', str(port), '--config', config,
           '--host', host]
    if grpc_port is not None:
        cmd += ['--grpc-port', str(grpc_port)]
    return cmd, env
