#!/usr/bin/env python3
"""Re-records samples/real/ from every A2A SDK that installs from the package registries.

    python3 samples/record/record_all.py [--sdk NAME]... [--env DIR] [--out DIR]

--sdk picks the SDKs to record (repeat it for several); without it, all of them:

    a2a-python   a2a-sdk (PyPI): JSON-RPC and HTTP+JSON here; gRPC by record_grpc.py
    a2a-js       @a2a-js/sdk (npm): JSON-RPC and HTTP+JSON here; gRPC by record_a2a_js_grpc.py
    a2a-go       a2a-go (Go modules): record_a2a_go.py, all three bindings
    a2a-rust     a2a-lf / a2a-server-lf / a2a-grpc (crates): record_a2a_rust.py
    a2a-java     the Java SDK (Maven): record_a2a_java.py

What each needs beyond Python is checked first: Node for a2a-js, Go, Cargo or Maven and
a JDK for the others, and tcpdump (run as root) for every gRPC capture. An SDK whose
tools are missing is skipped with a line saying what is missing, and the run ends with
a non-zero status; the others are still recorded.

For a2a-python and a2a-js:
1. Installs a2a-sdk and @a2a-js/sdk with the pins in requirements.txt and package.json
   into a throwaway directory outside the repository (a fresh temporary directory,
   deleted afterwards, unless --env names one to create or reuse).
2. Starts each SDK's agent (agent_python.py, agent_js.mjs) on 127.0.0.1 in each
   configuration a scenario needs, each behind its own recording proxy (proxy.py).
3. Runs every scenario of scenarios.py for both bindings and writes
   <out>/<sdk>/<binding>/<scenario>.http: the exact bytes of each exchange, request
   then response. A file with several exchanges has a `### title` line before each.
4. Stops the servers by their process id.
The other recorders run as their own processes, each with its install directory under
--env (or a temporary one) and the same --out.
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
# SDKs recorded by a script of their own: (script, tools it needs on PATH, --out it takes).
OWN_RECORDERS = {
    'a2a-go': ('record_a2a_go.py', ('go', 'tcpdump'), ''),
    'a2a-rust': ('record_a2a_rust.py', ('cargo', 'tcpdump'), ''),
    'a2a-java': ('record_a2a_java.py', ('mvn', 'java', 'tcpdump'), 'a2a-java'),
}
ALL_SDKS = SDKS + tuple(OWN_RECORDERS)
PY_PACKAGES = ('a2a-sdk', 'starlette', 'sse-starlette', 'uvicorn', 'h11', 'protobuf')
JS_PACKAGES = ('@a2a-js/sdk', 'express')


def run(cmd, **kw) -> str:
    print('+', ' '.join(str(c) for c in cmd), flush=True)
    return subprocess.run(cmd, check=True, text=True, stdout=subprocess.PIPE, **kw).stdout


def install(env: pathlib.Path, sdks: tuple) -> None:
    if 'a2a-python' in sdks:
        install_python(env)
    if 'a2a-js' in sdks:
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


def installed_versions(env: pathlib.Path, sdk: str) -> list[str]:
    """The packages that served `sdk` (a2a-python or a2a-js), as installed in `env`."""
    if sdk == 'a2a-python':
        freeze = run([env / 'py' / 'bin' / 'pip', 'freeze']).splitlines()
        pins = dict(line.split('==', 1) for line in freeze if '==' in line)
        return [f'{name} {pins[name]} (PyPI)' for name in PY_PACKAGES]
    lines = []
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


def record(env: pathlib.Path, out: pathlib.Path, sdks: tuple = SDKS) -> None:
    configs = sorted({scenarios.CONFIG.get(name, 'plain') for b in scenarios.BINDINGS.values() for name in b})
    servers, proxies = [], {}
    try:
        for sdk in sdks:
            for config in configs:
                server = Server(sdk, config, env)
                servers.append(server)
                proxies[sdk, config] = RecordingProxy(('127.0.0.1', server.port)).start()
        for sdk in sdks:
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


def missing_tools(sdk: str) -> list[str]:
    """The programs `sdk`'s recording needs that are not on PATH."""
    needs = {
        'a2a-python': ('tcpdump',),  # for its gRPC pcaps; the HTTP bindings need only Python
        'a2a-js': ('node', 'npm'),
    }.get(sdk) or OWN_RECORDERS[sdk][1]
    return [tool for tool in needs if shutil.which(tool) is None]


def run_own_recorder(sdk: str, env: pathlib.Path, out: pathlib.Path) -> None:
    script, _, subdir = OWN_RECORDERS[sdk]
    cmd = [sys.executable, HERE / script, '--env', env / sdk, '--out', out / subdir if subdir else out]
    run_logged(cmd)


def run_logged(cmd: list) -> None:
    print('+', ' '.join(str(c) for c in cmd), flush=True)
    subprocess.run([str(c) for c in cmd], check=True)


def write_versions(env: pathlib.Path, out: pathlib.Path, sdks: tuple) -> None:
    """<out>/versions.txt: per SDK, this run's versions if it was recorded, else the lines
    an earlier run wrote for it."""
    path = out / 'versions.txt'
    old = path.read_text().splitlines()[1:] if path.exists() else []

    def old_lines(sdk: str) -> list[str]:
        mark = {'a2a-python': ' (PyPI)', 'a2a-js': ' (npm)'}.get(sdk)
        if mark:
            return [line for line in old if line.endswith(mark)]
        return [line for line in old if line.startswith(f'{sdk}: ')]

    def new_lines(sdk: str) -> list[str]:
        if sdk in SDKS:
            return installed_versions(env, sdk)
        own = (out / sdk / 'versions.txt').read_text().splitlines()
        return [f'{sdk}: {line}' for line in own if line and not line.startswith('#')]

    lines = [line for sdk in ALL_SDKS for line in (new_lines(sdk) if sdk in sdks else old_lines(sdk))]
    path.write_text(
        '# Written by samples/record/record_all.py: the packages that served these recordings.\n'
        + '\n'.join(lines)
        + '\n'
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--sdk', action='append', choices=ALL_SDKS, help='an SDK to record (repeatable; default: all)')
    parser.add_argument('--env', type=pathlib.Path, help='install directory to create or reuse (kept)')
    parser.add_argument('--out', type=pathlib.Path, default=HERE.parent / 'real')
    args = parser.parse_args()
    wanted = tuple(args.sdk or ALL_SDKS)
    skipped = {sdk: missing_tools(sdk) for sdk in wanted}
    skipped = {sdk: tools for sdk, tools in skipped.items() if tools and sdk != 'a2a-python'}
    for sdk, tools in skipped.items():
        print(f'{sdk}: skipped, not installed: {", ".join(tools)}', flush=True)
    sdks = tuple(sdk for sdk in wanted if sdk not in skipped)
    env = args.env or pathlib.Path(tempfile.mkdtemp(prefix='a2alint-record-'))
    env.mkdir(parents=True, exist_ok=True)
    try:
        here = tuple(sdk for sdk in sdks if sdk in SDKS)
        if here:
            install(env, here)
            record(env, args.out, here)
        if 'a2a-python' in sdks:
            if missing_tools('a2a-python'):
                print('a2a-python gRPC: skipped, not installed: tcpdump', flush=True)
                skipped['a2a-python gRPC'] = ['tcpdump']
            else:
                run_logged([sys.executable, HERE / 'record_grpc.py', '--env', env / 'grpc-py',
                            '--out', args.out / 'a2a-python' / 'grpc'])
        if 'a2a-js' in sdks:
            if shutil.which('tcpdump') is None:
                print('a2a-js gRPC: skipped, not installed: tcpdump', flush=True)
                skipped['a2a-js gRPC'] = ['tcpdump']
            else:
                run_logged([sys.executable, HERE / 'record_a2a_js_grpc.py', '--env', env / 'js-grpc',
                            '--out', args.out])
        for sdk in sdks:
            if sdk in OWN_RECORDERS:
                run_own_recorder(sdk, env, args.out)
        write_versions(env, args.out, sdks)
        print('recorded:', ', '.join(sdks) or 'nothing')
    finally:
        if args.env is None:
            shutil.rmtree(env, ignore_errors=True)
        else:
            print(f'install and server logs kept in {env}')
    if skipped:
        sys.exit('not recorded: ' + '; '.join(f'{sdk} (needs {", ".join(t)})' for sdk, t in skipped.items()))


if __name__ == '__main__':
    main()
