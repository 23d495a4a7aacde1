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
   configuration a scenario needs, each behind its own recording proxy (proxy.py) and
   each under a host name of its own (agents.virtual_host: `a2a-python.example` for
   plain, `streaming.a2a-python.example`, `extcard.a2a-js.example`, ...), which its card
   advertises and the requests' `Host:` names. a2alint compares a card with what is
   answered at the authorities the card lists, so no two agents may share a name.
3. Runs every scenario of scenarios.py for both bindings and writes
   <out>/<sdk>/<binding>/<scenario>.http: the exact bytes of each exchange, request
   then response. A file with several exchanges has a `### title` line before each.
4. Stops the servers by their process id.
The other recorders run as their own processes, each with its install directory under
--env (or a temporary one) and the same --out.
"""

import argparse
import pathlib
import shutil
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # keep __pycache__ out of the repository

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import agents  # noqa: E402
import scenarios  # noqa: E402
from agents import capture_bytes, free_port  # noqa: E402,F401  (record_pcap.py uses both from here)

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
    for name in ('agent_js.mjs', 'agent_js_common.mjs'):
        shutil.copy(HERE / name, js)


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


class Server(agents.AgentProcess):
    """One agent process (agent_python.py or agent_js.mjs) in one configuration."""

    def __init__(self, sdk: str, config: str, env: pathlib.Path):
        port = free_port()
        host = agents.virtual_host(sdk, config)
        if sdk == 'a2a-python':
            cmd = [env / 'py' / 'bin' / 'python', HERE / 'agent_python.py']
            cwd = HERE
        else:
            cmd = ['node', 'agent_js.mjs']
            cwd = env / 'js'
        cmd += ['--port', str(port), '--config', config, '--host', host]
        super().__init__(cmd, cwd, env / f'{sdk}-{config}.log', port, name=f'{sdk}/{config}', host=host)


def record(env: pathlib.Path, out: pathlib.Path, sdks: tuple = SDKS) -> None:
    configs = sorted({scenarios.CONFIG.get(name, 'plain') for b in scenarios.BINDINGS.values() for name in b})
    servers = {}
    try:
        for sdk in sdks:
            for config in configs:
                servers[sdk, config] = Server(sdk, config, env)
        with agents.recording_proxies({key: server.port for key, server in servers.items()}) as proxies:
            for sdk in sdks:
                agents.record_bindings({config: proxies[sdk, config] for config in configs},
                                       {config: servers[sdk, config].host for config in configs},
                                       out / sdk, label=f'{sdk}/')
    finally:
        agents.stop_all(servers.values())


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
