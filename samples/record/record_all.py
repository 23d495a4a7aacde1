#!/usr/bin/env python3
"""Re-records samples/real/ from the two reference A2A SDKs.

    python3 samples/record/record_all.py [--env DIR] [--out DIR]

1. Installs a2a-sdk (PyPI) and @a2a-js/sdk (npm) with the pins in requirements.txt and
   package.json into a throwaway directory outside the repository (a fresh temporary
   directory, deleted afterwards, unless --env names one to create or reuse).
2. Starts each SDK's agent (agent_python.py, agent_js.mjs) on 127.0.0.1 in each
   configuration a scenario needs, each behind its own recording proxy (proxy.py).
3. Runs every scenario of scenarios.py for both bindings and writes
   <out>/<sdk>/<binding>/<scenario>.http: the exact bytes of each exchange, request
   then response. A file with several exchanges has a `### title` line before each.
4. Stops the servers by their process id.
"""

import argparse
import os
import pathlib
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

import scenarios  # noqa: E402
from proxy import RecordingProxy  # noqa: E402

SDKS = ('a2a-python', 'a2a-js')
PY_PACKAGES = ('a2a-sdk', 'starlette', 'sse-starlette', 'uvicorn', 'h11', 'protobuf')
JS_PACKAGES = ('@a2a-js/sdk', 'express')


def run(cmd, **kw) -> str:
    print('+', ' '.join(str(c) for c in cmd), flush=True)
    return subprocess.run(cmd, check=True, text=True, stdout=subprocess.PIPE, **kw).stdout


def install(env: pathlib.Path) -> None:
    install_python(env)
    install_js(env)


def install_python(env: pathlib.Path) -> None:
    py = env / 'py'
    if not (py / 'bin' / 'python').exists():
        run([sys.executable, '-m', 'venv', py])
    run([py / 'bin' / 'pip', 'install', '--quiet', '-r', HERE / 'requirements.txt'])


def install_js(env: pathlib.Path) -> None:
    js = env / 'js'
    js.mkdir(exist_ok=True)
    shutil.copy(HERE / 'package.json', js)
    run(['npm', 'install', '--silent', '--no-audit', '--no-fund', '--no-package-lock'], cwd=js)
    # Node resolves packages next to the script, so the agent runs from the install.
    shutil.copy(HERE / 'agent_js.mjs', js)


def installed_versions(env: pathlib.Path) -> list[str]:
    freeze = run([env / 'py' / 'bin' / 'pip', 'freeze']).splitlines()
    pins = dict(line.split('==', 1) for line in freeze if '==' in line)
    lines = [f'{name} {pins[name]} (PyPI)' for name in PY_PACKAGES]
    for name in JS_PACKAGES:
        package = env / 'js' / 'node_modules' / name / 'package.json'
        version = scenarios.json.loads(package.read_text())['version']
        lines.append(f'{name} {version} (npm)')
    return lines


def free_port() -> int:
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


class Server:
    """One agent process in one configuration, stopped by its process id."""

    def __init__(self, sdk: str, config: str, env: pathlib.Path):
        self.name = f'{sdk}/{config}'
        self.port = free_port()
        if sdk == 'a2a-python':
            cmd = [env / 'py' / 'bin' / 'python', HERE / 'agent_python.py']
            cwd = HERE
        else:
            cmd = ['node', 'agent_js.mjs']
            cwd = env / 'js'
        cmd += ['--port', str(self.port), '--config', config]
        self.log = open(env / f'{sdk}-{config}.log', 'wb')
        self.proc = subprocess.Popen(cmd, cwd=cwd, stdout=self.log, stderr=subprocess.STDOUT)
        self._wait_ready()

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f'{self.name} exited with {self.proc.returncode}; see {self.log.name}')
            try:
                socket.create_connection(('127.0.0.1', self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError(f'{self.name} did not listen on port {self.port}')

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.kill(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        self.log.close()


def capture_bytes(exchanges: list[tuple[str, bytes, bytes]]) -> bytes:
    if len(exchanges) == 1:
        _, request, response = exchanges[0]
        return request + response
    data = b''
    for title, request, response in exchanges:
        if data and not data.endswith(b'\n'):
            data += b'\n'  # the title line must start a line; the body's framing is unchanged
        data += f'### {title}\n'.encode() + request + response
    return data


def record(env: pathlib.Path, out: pathlib.Path) -> None:
    configs = sorted({scenarios.CONFIG.get(name, 'plain') for b in scenarios.BINDINGS.values() for name in b})
    servers, proxies = [], {}
    try:
        for sdk in SDKS:
            for config in configs:
                server = Server(sdk, config, env)
                servers.append(server)
                proxies[sdk, config] = RecordingProxy(('127.0.0.1', server.port)).start()
        for sdk in SDKS:
            for binding, table in scenarios.BINDINGS.items():
                target = out / sdk / binding
                target.mkdir(parents=True, exist_ok=True)
                for stale in target.glob('*.http'):
                    stale.unlink()
                for name, scenario in table.items():
                    proxy = proxies[sdk, scenarios.CONFIG.get(name, 'plain')]
                    session = scenarios.Session(proxy.port, proxy)
                    scenario(session)
                    (target / f'{name}.http').write_bytes(capture_bytes(session.exchanges))
                    print(f'  {sdk}/{binding}/{name}.http ({len(session.exchanges)} exchanges)')
    finally:
        for proxy in proxies.values():
            proxy.shutdown()
            proxy.server_close()
        for server in servers:
            server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--env', type=pathlib.Path, help='install directory to create or reuse (kept)')
    parser.add_argument('--out', type=pathlib.Path, default=HERE.parent / 'real')
    args = parser.parse_args()
    env = args.env or pathlib.Path(tempfile.mkdtemp(prefix='a2alint-record-'))
    env.mkdir(parents=True, exist_ok=True)
    try:
        install(env)
        versions = installed_versions(env)
        record(env, args.out)
        (args.out / 'versions.txt').write_text(
            '# Written by samples/record/record_all.py: the packages that served these recordings.\n'
            + '\n'.join(versions)
            + '\n'
        )
        print('recorded with', ', '.join(versions))
    finally:
        if args.env is None:
            shutil.rmtree(env, ignore_errors=True)
        else:
            print(f'install and server logs kept in {env}')


if __name__ == '__main__':
    main()
