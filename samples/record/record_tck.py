#!/usr/bin/env python3
"""Records the A2A test kit (a2a-tck, branch 1.0-dev) running against an a2a-sdk server.

    python3 samples/record/record_tck.py [--tck DIR] [--tck-commit SHA] [--env DIR] [--out DIR]

Must run as root (or with what tcpdump needs to capture on `lo`), with tcpdump on PATH.

1. The kit: `--tck DIR` is an existing checkout of a2a-tck; without it the kit is cloned
   (`git clone --branch 1.0-dev https://github.com/a2aproject/a2a-tck`) into the install
   directory. Its commit (`git rev-parse HEAD`, or --tck-commit for a tree that is not a
   git checkout) goes into versions.txt. Nothing of the kit is copied into this repository.
2. Installs the pins of tck_requirements.txt (the kit's dependencies and the SUT's,
   a2a-sdk[http-server,grpc] 1.3.0) into a virtual environment, <env>/py. Without --env
   that is a fresh temporary directory, removed at the end; with --env it is created or
   reused and kept, with the logs. The script then runs itself again with that
   environment's interpreter.
3. For each transport of the kit (jsonrpc, http_json, grpc), one run:
   - the kit's own SUT, sut/a2a-python/sut_agent.py, is started from the checkout with
     its own configuration, SUT_HOST=127.0.0.1:P and GRPC_PORT=G, so that its agent card
     says JSON-RPC at http://127.0.0.1:P, HTTP+JSON at http://127.0.0.1:P/a2a/rest and
     gRPC at 127.0.0.1:G. P is the port of a recording proxy (proxy.RecordingProxy with
     keep_alive, since the kit's httpx clients keep connections open); the SUT's uvicorn
     listens on another port, Q, behind it. The SUT runs under `--run-sut` below, which
     adapts it to a2a-sdk 1.3.0 (see tck_sut.py) and makes uvicorn bind 127.0.0.1:Q;
   - tcpdump captures the gRPC port G on `lo` (-B 65536; a run whose tcpdump reports
     dropped packets fails);
   - the kit runs as its README says, `run_tck.py --sut-host http://127.0.0.1:P
     --transport T -v`, with `-p tck_plugin -p no:cacheprovider` passed on to pytest:
     tck_plugin.py logs when each test starts and stops;
   - its JUnit report, reports/junitreport.xml in the checkout, becomes <out>/junit-T.xml
     (with the install directory's and the checkout's paths replaced by {env} and {tck}).
4. Output, in <out> (default samples/real/a2a-tck/):
   - T/<module>__<test>__NN.http: every HTTP exchange of run T (agent card fetches,
     JSON-RPC, HTTP+JSON), one per file, named after the test that was running when its
     request arrived (NN counts that test's exchanges); _between-tests__NN.http for any
     that arrived while no test ran;
   - T/grpc.pcap: the run's gRPC traffic (kept only when there is some);
   - junit-T.xml, manifest.json (which test has which .http files and which frames of
     the pcap), versions.txt.
5. Every server is stopped by its process id (SIGTERM, then SIGKILL).

This file drives the run; tck_sut.py is what `--run-sut` runs (the SUT on a2a-sdk 1.3.0),
tck_manifest.py reads the kit's reports and the plugin's log and lays out manifest.json.
"""

import argparse
import datetime
import os
import pathlib
import platform
import shutil
import subprocess
import sys
import tempfile
import threading

sys.dont_write_bytecode = True  # keep __pycache__ out of the repository

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from tck_manifest import (  # noqa: E402
    file_stem, junit_cases, junit_summary, manifest_text, pcap_times, read_events, test_at)

TCK_REPO = 'https://github.com/a2aproject/a2a-tck'
TCK_BRANCH = '1.0-dev'
TRANSPORTS = ('jsonrpc', 'http_json', 'grpc')
SUT_AGENT = pathlib.Path('sut') / 'a2a-python' / 'sut_agent.py'
REPORTED = ('a2a-sdk', 'grpcio', 'protobuf', 'googleapis-common-protos', 'uvicorn', 'starlette',
            'sse-starlette', 'h11', 'httpx', 'httpcore', 'pytest', 'pytest-asyncio', 'jsonschema')
KIT_TIMEOUT = 1200  # seconds one run of the kit may take


def run(cmd, **kw) -> str:
    print('+', ' '.join(str(c) for c in cmd), flush=True)
    return subprocess.run([str(c) for c in cmd], check=True, text=True, stdout=subprocess.PIPE, **kw).stdout


# --- outer half: the kit, the install, then the environment's interpreter -----------------


def kit_checkout(args, env: pathlib.Path) -> pathlib.Path:
    if args.tck is not None:
        tck = args.tck.resolve()
    else:
        tck = env / 'a2a-tck'
        if not (tck / '.git').exists():
            run(['git', 'clone', '--quiet', '--branch', TCK_BRANCH, TCK_REPO, tck])
    if not (tck / 'run_tck.py').exists() or not (tck / SUT_AGENT).exists():
        sys.exit(f'{tck} does not look like an a2a-tck checkout (no run_tck.py or {SUT_AGENT})')
    return tck


def kit_commit(tck: pathlib.Path, given: str | None) -> str:
    if given:
        return given
    try:
        top = run(['git', '-C', tck, 'rev-parse', '--show-toplevel'], stderr=subprocess.DEVNULL).strip()
        if pathlib.Path(top).resolve() == tck.resolve():  # not a tree inside some other repository
            return run(['git', '-C', tck, 'rev-parse', 'HEAD'], stderr=subprocess.DEVNULL).strip()
    except (subprocess.CalledProcessError, FileNotFoundError):
        pass
    return 'unknown (not a git checkout; pass --tck-commit)'


def install(env: pathlib.Path) -> pathlib.Path:
    py = env / 'py'
    if not (py / 'bin' / 'python').exists():
        run([sys.executable, '-m', 'venv', py])
    run([py / 'bin' / 'pip', 'install', '--quiet', '-r', HERE / 'tck_requirements.txt'])
    return py / 'bin' / 'python'


def outer(args) -> int:
    if shutil.which('tcpdump') is None:
        sys.exit('record_tck.py needs tcpdump')
    env = args.env or pathlib.Path(tempfile.mkdtemp(prefix='a2alint-record-tck-'))
    env.mkdir(parents=True, exist_ok=True)
    env = env.resolve()
    try:
        tck = kit_checkout(args, env)
        commit = kit_commit(tck, args.tck_commit)
        python = install(env)
        cmd = [python, pathlib.Path(__file__).resolve(), '--inside', '--tck', tck, '--tck-commit', commit,
               '--env', env, '--out', args.out]
        print('+', ' '.join(str(c) for c in cmd), flush=True)
        return subprocess.run([str(c) for c in cmd], env={**os.environ, 'PYTHONDONTWRITEBYTECODE': '1'}).returncode
    finally:
        if args.env is None:
            shutil.rmtree(env, ignore_errors=True)
        else:
            print(f'install, kit logs and server logs kept in {env}')


# --- inner half: SUT, proxy, tcpdump, the kit ---------------------------------------------


def make_proxy_class():
    from proxy import RecordingProxy

    class TimedProxy(RecordingProxy):
        """keep_alive RecordingProxy keeping each exchange with the time its request came."""

        def __init__(self, upstream, port=0):
            super().__init__(upstream, port, keep_alive=True)
            self.timed: list[tuple[float, bytes, bytes]] = []
            self._timed_lock = threading.Lock()

        def record(self, request, response, started=None):
            with self._timed_lock:
                self.timed.append((started, request, response))

    return TimedProxy


def run_transport(transport: str, tck: pathlib.Path, env: pathlib.Path, out: pathlib.Path) -> dict:
    """One run of the kit for `transport`; writes <out>/<transport>/ and <out>/junit-<transport>.xml."""
    import agents
    from record_pcap import Tcpdump

    print(f'== {transport}', flush=True)
    proxy_port, bind_port, grpc_port = agents.free_port(), agents.free_port(), agents.free_port()
    proxy = make_proxy_class()(('127.0.0.1', bind_port), proxy_port).start()
    events = env / f'events-{transport}.jsonl'
    events.unlink(missing_ok=True)
    pcap = env / 'pcap' / f'{transport}.pcap'
    plugin_dir = env / 'plugin'
    plugin_dir.mkdir(exist_ok=True)
    shutil.copy(HERE / 'tck_plugin.py', plugin_dir)
    report = tck / 'reports' / 'junitreport.xml'
    report.unlink(missing_ok=True)
    sut = dump = None
    try:
        sut_cmd = [sys.executable, pathlib.Path(__file__).resolve(), '--run-sut', tck / SUT_AGENT,
                   '--sut-host', f'127.0.0.1:{proxy_port}', '--grpc-port', str(grpc_port),
                   '--bind-port', str(bind_port)]
        sut = agents.AgentProcess([str(c) for c in sut_cmd], tck / SUT_AGENT.parent, env / f'sut-{transport}.log',
                                  bind_port, grpc_port, name=f'SUT ({transport})')
        dump = Tcpdump(pcap, [grpc_port])
        kit_env = {**os.environ, 'PYTHONDONTWRITEBYTECODE': '1', 'A2ALINT_TCK_EVENTS': str(events),
                   'PYTHONPATH': os.pathsep.join([str(plugin_dir), *filter(None, [os.environ.get('PYTHONPATH')])])}
        kit_cmd = [sys.executable, 'run_tck.py', '--sut-host', f'http://127.0.0.1:{proxy_port}',
                   '--transport', transport, '-v', '--', '-p', 'tck_plugin', '-p', 'no:cacheprovider']
        print('+', ' '.join(kit_cmd), f'(in {tck}, log {env / f"tck-{transport}.log"})', flush=True)
        with open(env / f'tck-{transport}.log', 'wb') as log:
            status = subprocess.run(kit_cmd, cwd=tck, env=kit_env, stdout=log, stderr=subprocess.STDOUT,
                                    timeout=KIT_TIMEOUT).returncode
        print(f'  kit exited with {status}', flush=True)
    finally:
        if dump is not None:
            dump.stop()
        proxy.shutdown()
        proxy.server_close()
        if sut is not None:
            sut.stop()
    if not report.exists():
        raise RuntimeError(f'the kit wrote no {report}; see {env / f"tck-{transport}.log"}')

    # The JUnit report, with this machine's paths replaced.
    text = report.read_text(encoding='utf-8')
    for path, mark in sorted(((env, '{env}'), (tck, '{tck}')), key=lambda pair: -len(str(pair[0]))):
        text = text.replace(str(path), mark)  # the longer first: by default the kit is inside env
    junit = out / f'junit-{transport}.xml'
    junit.write_text(text, encoding='utf-8')

    # The .http files, named after the test running when each request arrived.
    target = out / transport
    agents.clear(target, '*.http')
    for stale in target.glob('*.pcap'):
        stale.unlink()
    tests = read_events(events)
    cases = junit_cases(junit)
    by_key = {(t['classname'], t['name']): t for t in tests}
    http: dict = {}
    counts: dict = {}
    for started, request, response in sorted(proxy.timed, key=lambda item: item[0]):
        test = test_at(tests, started)
        key = (test['classname'], test['name']) if test else None
        stem = file_stem(*key) if key else '_between-tests'
        counts[stem] = counts.get(stem, 0) + 1
        name = f'{stem}__{counts[stem]:02}.http'
        (target / name).write_bytes(request + response)
        http.setdefault(key, []).append(f'{transport}/{name}')

    # The pcap, and the frames of each test.
    times = pcap_times(pcap)
    pcap_name = None
    if times:
        pcap_name = f'{transport}/grpc.pcap'
        shutil.copy(pcap, out / pcap_name)
    frames: dict = {}
    for number, when in enumerate(times, start=1):
        test = test_at(tests, when)
        key = (test['classname'], test['name']) if test else None
        first, last = frames.get(key, (number, number))
        frames[key] = (min(first, number), max(last, number))

    entries = []
    for case in cases:
        key = (case['classname'], case['name'])
        entry = dict(case)
        if key not in by_key:
            entry['note'] = 'no start/stop from tck_plugin for this testcase'
        entry['http'] = http.get(key, [])
        entry['pcap'] = {'file': pcap_name, 'frames': list(frames[key])} if key in frames else None
        entries.append(entry)
    unmatched = sorted({k for k in list(http) + list(frames) if k is not None} - {(c['classname'], c['name']) for c in cases})
    if unmatched:
        print(f'  warning: exchanges of tests missing from the JUnit report: {unmatched}', flush=True)
    between = {'http': http.get(None, []),
               'pcap': {'file': pcap_name, 'frames': list(frames[None])} if None in frames else None}
    summary = junit_summary(junit)
    print(f'  {transport}: {summary}; {len(proxy.timed)} HTTP exchanges, {len(times)} gRPC frames', flush=True)
    return {
        'junit': junit.name,
        'summary': summary,
        'pcap': pcap_name,
        'http_exchanges': len(proxy.timed),
        'pcap_frames': len(times),
        'tests': entries,
        'between_tests': between,
    }


def installed_versions() -> list[str]:
    from importlib import metadata

    from record_pcap import tcpdump_version

    lines = [f'{name} {metadata.version(name)} (PyPI)' for name in REPORTED]
    lines.append(f'Python {platform.python_version()}')
    return lines + tcpdump_version() + ['captured on lo, the Linux loopback interface']


def inner(args) -> int:
    tck, env, out = args.tck, args.env, args.out
    out.mkdir(parents=True, exist_ok=True)
    (env / 'pcap').mkdir(exist_ok=True)
    runs = {}
    for transport in TRANSPORTS:
        runs[transport] = run_transport(transport, tck, env, out)
    manifest = {
        'description': 'Which recorded exchanges belong to which test of the A2A test kit. '
                       'Per run of the kit (one per transport): its JUnit report, and for every '
                       '<testcase> (classname and name as in that report) its outcome, the .http files '
                       'whose request arrived while the test ran (setup and teardown included), and the '
                       'first and last frame (1-based, as tshark numbers them) of the run\'s gRPC pcap '
                       'captured while it ran. between_tests: what arrived while no test ran.',
        'kit': {'repository': TCK_REPO, 'branch': TCK_BRANCH, 'commit': args.tck_commit},
        'sut': f'{SUT_AGENT} of the kit, on a2a-sdk 1.3.0 (see samples/record/record_tck.py)',
        'runs': runs,
    }
    (out / 'manifest.json').write_text(manifest_text(manifest))
    versions = installed_versions()
    (out / 'versions.txt').write_text(
        '# Written by samples/record/record_tck.py: the test kit, the packages of its client and of\n'
        '# the system under test (one virtual environment for both), and the capture tools.\n'
        f'a2a-tck {TCK_BRANCH} commit {args.tck_commit} ({TCK_REPO})\n'
        + '\n'.join(versions)
        + f'\nrecorded {datetime.date.today().isoformat()}\n'
    )
    print('recorded with', ', '.join(versions))
    return 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--tck', type=pathlib.Path, help='an existing checkout of a2a-tck (default: clone 1.0-dev)')
    parser.add_argument('--tck-commit', help='the commit of --tck, when it is not a git checkout')
    parser.add_argument('--env', type=pathlib.Path, help='install directory to create or reuse (kept)')
    parser.add_argument('--out', type=pathlib.Path, default=HERE.parent / 'real' / 'a2a-tck')
    parser.add_argument('--inside', action='store_true', help=argparse.SUPPRESS)
    parser.add_argument('--run-sut', type=pathlib.Path, help=argparse.SUPPRESS)
    parser.add_argument('--sut-host', help=argparse.SUPPRESS)
    parser.add_argument('--grpc-port', type=int, help=argparse.SUPPRESS)
    parser.add_argument('--bind-port', type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.run_sut is not None:
        from tck_sut import run_sut  # in the SUT's own process, with a2a-sdk's interpreter
        run_sut(args)
        return
    args.out = args.out.resolve()
    sys.exit(inner(args) if args.inside else outer(args))


if __name__ == '__main__':
    main()
