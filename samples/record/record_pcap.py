#!/usr/bin/env python3
"""Records real a2a-python traffic as pcap files, with tcpdump on the loopback interface.

    python3 samples/record/record_pcap.py [--env DIR] [--out DIR] [--samples DIR]

Runs as root (or with the capabilities tcpdump needs to capture on `lo`).

1. Installs a2a-sdk (PyPI) with the pins in requirements.txt, as record_all.py does
   (only the Python side: the pcaps are of a2a-python alone).
2. Starts the a2a-python agent (agent_python.py) in every configuration the scenarios
   need, each behind its recording proxy (proxy.py), exactly as record_all.py does.
3. For each binding, starts
       tcpdump -i lo -U --immediate-mode -s 0 -B 65536 -w - 'tcp port A or tcp port B or ...'
   on the agents' ports, waits until it is listening, runs every scenario of that
   binding, and stops tcpdump with SIGINT (by its process id) so the file ends on a
   whole packet. A run in which tcpdump reports dropped packets fails. The filter names only the agents' ports, so the pcap holds the
   proxy -> agent leg: the same bytes record_all.py writes to the `.http` files.
   Output: <out>/jsonrpc.pcap, <out>/http-json.pcap, <out>/versions.txt.
4. Captures the scenarios of SAMPLES alone, one small pcap each, into <samples>.
5. Stops the servers by their process id.

The proxy's own recording of the same run is written next to the install
(<env>/pcap-twins/<binding>/<scenario>.http), to compare the pcap with byte for byte.
"""

import argparse
import os
import pathlib
import platform
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # keep __pycache__ out of the repository

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import record_all  # noqa: E402
import scenarios  # noqa: E402
from proxy import RecordingProxy  # noqa: E402

SDK = 'a2a-python'

# Small single-scenario pcaps for samples/: file name -> (binding, scenario).
SAMPLES = {
    'jsonrpc-message-without-message-id.pcap': ('jsonrpc', 'message-without-message-id'),
}


def tcpdump_version() -> list[str]:
    out = subprocess.run(['tcpdump', '--version'], check=True, text=True,
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT).stdout
    # "tcpdump version 4.99.3", "libpcap version 1.10.3 (with TPACKET_V3)", then OpenSSL
    return [line.strip() for line in out.splitlines() if line.startswith(('tcpdump', 'libpcap'))]


class Tcpdump:
    """tcpdump on `lo` for some TCP ports, writing a pcap to `path`; stopped with SIGINT.

    tcpdump writes to its standard output (`-w -`), a file this script opened, rather than
    opening the file itself: run as root, tcpdump drops to its own user before it writes,
    and the file would belong to that user (or not be writable at all).
    """

    def __init__(self, path: pathlib.Path, ports: list[int]):
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        self.filter = ' or '.join(f'tcp port {port}' for port in ports)
        # -B: a 64 MiB kernel buffer. With the default 2 MiB and lo's 64 KiB MTU the ring
        # holds only a few dozen packets (each one is seen twice on lo), and a burst of
        # short connections overflows it: tcpdump then reports "packets dropped by kernel"
        # and a connection loses its last segments.
        self.cmd = ['tcpdump', '-i', 'lo', '-U', '--immediate-mode', '-s', '0', '-B', '65536',
                    '-w', '-', self.filter]
        print('+', ' '.join(self.cmd[:-1]), repr(self.filter), '>', path, flush=True)
        self.file = open(path, 'wb')
        self.proc = subprocess.Popen(self.cmd, stdout=self.file, stderr=subprocess.PIPE, text=True)
        # tcpdump prints "listening on lo, ..." once the filter is set and packets are
        # being kept; anything else on that first line is an error.
        first = self.proc.stderr.readline()
        if 'listening on' not in first:
            self.proc.wait()
            self.file.close()
            raise RuntimeError(f'tcpdump did not start: {first.strip()} {self.proc.stderr.read().strip()}')
        time.sleep(0.3)

    def stop(self) -> str:
        time.sleep(0.5)  # let the last connection's closing segments arrive
        os.kill(self.proc.pid, signal.SIGINT)
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
            raise RuntimeError('tcpdump did not stop on SIGINT')
        finally:
            self.file.close()
        stats = ' / '.join(line.strip() for line in self.proc.stderr.read().splitlines() if line.strip())
        self.proc.stderr.close()
        if 'packets dropped by kernel' in stats and ' 0 packets dropped by kernel' not in f' {stats}':
            raise RuntimeError(f'{self.path}: tcpdump dropped packets: {stats}')
        print(f'  {self.path} ({self.path.stat().st_size} bytes; {stats})')
        return stats


def run_scenarios(proxies, servers, binding, names, pcap: pathlib.Path, twins: pathlib.Path) -> None:
    """Captures the scenarios `names` of `binding` into `pcap`, one tcpdump around them all;
    `servers` maps each configuration to its record_all.Server (port and host name)."""
    table = scenarios.BINDINGS[binding]
    configs = {scenarios.CONFIG.get(name, 'plain') for name in names}
    dump = Tcpdump(pcap, sorted(servers[config].port for config in configs))
    try:
        for name in names:
            config = scenarios.CONFIG.get(name, 'plain')
            proxy = proxies[config]
            session = scenarios.Session(proxy.port, proxy, servers[config].host)
            table[name](session)
            twin = twins / binding / f'{name}.http'
            twin.parent.mkdir(parents=True, exist_ok=True)
            twin.write_bytes(record_all.capture_bytes(session.exchanges))
    finally:
        dump.stop()


def record(env: pathlib.Path, out: pathlib.Path, samples: pathlib.Path) -> None:
    configs = sorted({scenarios.CONFIG.get(name, 'plain') for b in scenarios.BINDINGS.values() for name in b})
    servers, proxies = {}, {}
    twins = env / 'pcap-twins'
    shutil.rmtree(twins, ignore_errors=True)
    try:
        for config in configs:
            server = record_all.Server(SDK, config, env)  # under agents.virtual_host(SDK, config)
            servers[config] = server
            proxies[config] = RecordingProxy(('127.0.0.1', server.port)).start()
        for binding, table in scenarios.BINDINGS.items():
            run_scenarios(proxies, servers, binding, list(table), out / f'{binding}.pcap', twins)
        for file_name, (binding, name) in SAMPLES.items():
            run_scenarios(proxies, servers, binding, [name], samples / file_name, twins / 'samples')
    finally:
        for proxy in proxies.values():
            proxy.shutdown()
            proxy.server_close()
        for server in servers.values():
            server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--env', type=pathlib.Path, help='install directory to create or reuse (kept)')
    parser.add_argument('--out', type=pathlib.Path, default=HERE.parent / 'real' / SDK / 'pcap')
    parser.add_argument('--samples', type=pathlib.Path, default=HERE.parent,
                        help='where the single-scenario pcaps of SAMPLES go (default: samples/)')
    args = parser.parse_args()
    if shutil.which('tcpdump') is None:
        sys.exit('record_pcap.py needs tcpdump')
    env = args.env or pathlib.Path(tempfile.mkdtemp(prefix='a2alint-record-'))
    env.mkdir(parents=True, exist_ok=True)
    try:
        record_all.install_python(env)
        freeze = record_all.run([env / 'py' / 'bin' / 'pip', 'freeze']).splitlines()
        pins = dict(line.split('==', 1) for line in freeze if '==' in line)
        versions = [f'{name} {pins[name]} (PyPI)' for name in record_all.PY_PACKAGES]
        versions.append(f'Python {platform.python_version()}')
        captured_with = tcpdump_version() + ['captured on lo, the Linux loopback interface']
        record(env, args.out, args.samples)
        (args.out / 'versions.txt').write_text(
            '# Written by samples/record/record_pcap.py: the packages that served these captures,\n'
            '# and the capture tools.\n'
            + '\n'.join(versions + captured_with)
            + '\n'
        )
        print('recorded with', ', '.join(versions), 'captured with', ', '.join(captured_with))
    finally:
        if args.env is None:
            shutil.rmtree(env, ignore_errors=True)
        else:
            print(f'install, server logs and the proxy\'s .http twins kept in {env}')


if __name__ == '__main__':
    main()
