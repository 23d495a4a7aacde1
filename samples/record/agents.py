"""What the recorders have in common: agent processes, HTTP recordings, gRPC captures.

- virtual_host: the host name each agent of each SDK and configuration is recorded
  under (its card advertises it, the client addresses it).
- AgentProcess: one agent started on loopback ports, waited for until it accepts
  connections on each of them, and stopped by its process id (SIGTERM, then SIGKILL).
- record_http: every scenario of scenarios.BINDINGS for one SDK, each agent behind a
  proxy.RecordingProxy, into <out>/<binding>/<scenario>.http (recording_proxies and
  record_bindings are its two halves, for a caller that records several SDKs).
- capture_grpc: one pcap, with record_pcap.Tcpdump on one port around a client's calls.
"""

import contextlib
import os
import pathlib
import signal
import socket
import subprocess
import time

import scenarios
from proxy import RecordingProxy


def virtual_host(sdk: str, config: str) -> str:
    """The public host name of `sdk`'s agent in configuration `config`: `<sdk>.example`
    for plain, `<config>.<sdk>.example` for the others (`streaming.a2a-go.example`).

    The agent is started with it (its card's interface URLs name it) and the client sends
    it (`Host:`, the gRPC `:authority`), so card and requests agree. Each agent gets a name
    of its own because a2alint compares an agent card with the answers given at the
    authorities the card's interfaces list: under one shared name the card of one SDK's
    plain agent would be taken to describe another SDK's streaming agent.
    """
    return f'{sdk}.example' if config == 'plain' else f'{config}.{sdk}.example'


def free_port() -> int:
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


class AgentProcess:
    """`cmd` run in `cwd`, output to `log`; ready once `port` (and `grpc_port`) accept.

    `host` is the public host name the agent was given on its command line (see
    virtual_host), for the client to address it by. Readiness is a bare TCP connect and
    close to each port in turn, which happens before any tcpdump runs. `timeout` seconds
    are allowed for each port.
    """

    def __init__(self, cmd: list, cwd: pathlib.Path, log: pathlib.Path, port: int,
                 grpc_port: int | None = None, *, name: str, host: str | None = None,
                 timeout: float = 60, poll: float = 0.2):
        self.name = name
        self.host = host
        self.port = port
        self.grpc_port = grpc_port
        self.log = open(log, 'wb')
        self.proc = subprocess.Popen(cmd, cwd=cwd, stdout=self.log, stderr=subprocess.STDOUT)
        for each in (port, grpc_port):
            if each is not None:
                self._wait(each, timeout, poll)

    def _wait(self, port: int, timeout: float, poll: float) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f'{self.name} exited with {self.proc.returncode}; see {self.log.name}')
            try:
                socket.create_connection(('127.0.0.1', port), timeout=1).close()
                return
            except OSError:
                time.sleep(poll)
        raise RuntimeError(f'{self.name} did not listen on port {port}')

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.kill(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        self.log.close()


def start_sdk_agent(sdk, env: pathlib.Path, config: str, grpc: bool = True, **kw) -> AgentProcess:
    """The echo agent of an sdk_a2a_*.py module in one configuration, on a free HTTP port and
    (with `grpc`) a free gRPC port, under the host virtual_host(sdk.NAME, config), logging
    to <env>/<sdk.NAME>-<config>.log."""
    port = free_port()
    grpc_port = free_port() if grpc else None
    host = virtual_host(sdk.NAME, config)
    cmd, cwd = sdk.command(env, port, config, host, grpc_port=grpc_port)
    return AgentProcess(cmd, cwd, env / f'{sdk.NAME}-{config}.log', port, grpc_port,
                        name=f'agent {config}', host=host, **kw)


def stop_all(agents) -> None:
    for agent in agents:
        agent.stop()


# --- HTTP bindings ------------------------------------------------------------------------


def capture_bytes(exchanges: list[tuple[str, bytes, bytes]]) -> bytes:
    """A .http file: request then response; several exchanges each get a `### title` line."""
    if len(exchanges) == 1:
        _, request, response = exchanges[0]
        return request + response
    data = b''
    for title, request, response in exchanges:
        if data and not data.endswith(b'\n'):
            data += b'\n'  # the title line must start a line; the body's framing is unchanged
        data += f'### {title}\n'.encode() + request + response
    return data


@contextlib.contextmanager
def recording_proxies(ports: dict):
    """A started RecordingProxy in front of each port of `ports`, under the same keys."""
    proxies = {}
    try:
        for key, port in ports.items():
            proxies[key] = RecordingProxy(('127.0.0.1', port)).start()
        yield proxies
    finally:
        for proxy in proxies.values():
            proxy.shutdown()
            proxy.server_close()


def record_bindings(proxies: dict, hosts: dict, out: pathlib.Path, label: str = '',
                    keep_partial: bool = False) -> None:
    """Every scenario of scenarios.BINDINGS through `proxies` (configuration -> proxy), with
    the `Host:` of `hosts` (configuration -> the agent's host name), into
    <out>/<binding>/<scenario>.http, after removing the .http files already there.

    With keep_partial, a scenario that fails on what an earlier answer lacked (KeyError,
    TypeError, ValueError: no task id, say) keeps the exchanges that did happen.
    """
    for binding, table in scenarios.BINDINGS.items():
        target = out / binding
        target.mkdir(parents=True, exist_ok=True)
        for stale in target.glob('*.http'):
            stale.unlink()
        for name, scenario in table.items():
            config = scenarios.CONFIG.get(name, 'plain')
            proxy = proxies[config]
            session = scenarios.Session(proxy.port, proxy, hosts[config])
            try:
                scenario(session)
            except (KeyError, TypeError, ValueError) as error:
                if not keep_partial:
                    raise
                print(f'  {label}{binding}/{name}: stopped after {len(session.exchanges)} exchanges ({error!r})')
            (target / f'{name}.http').write_bytes(capture_bytes(session.exchanges))
            print(f'  {label}{binding}/{name}.http ({len(session.exchanges)} exchanges)', flush=True)


def record_http(running: dict, out: pathlib.Path, **kw) -> None:
    """record_bindings with one proxy per agent of `running` (configuration ->
    AgentProcess), in front of its HTTP port, addressed by its host."""
    with recording_proxies({c: a.port for c, a in running.items()}) as proxies:
        record_bindings(proxies, {c: a.host for c, a in running.items()}, out, **kw)


# --- gRPC ---------------------------------------------------------------------------------


def capture_grpc(pcap: pathlib.Path, port: int, calls: list, client, title: str | None = None) -> None:
    """tcpdump on `port` into `pcap` while a fresh `client(port)` makes `calls` in order
    (`client` gives the channel the authority of the agent on that port)."""
    from record_pcap import Tcpdump  # record_pcap imports record_all, which imports this

    print(f'== {title or pcap.name}', flush=True)
    dump = Tcpdump(pcap, [port])
    try:
        channel = client(port)
        try:
            for call in calls:
                call(channel)
        finally:
            channel.close()
    finally:
        dump.stop()


def clear(folder: pathlib.Path, pattern: str) -> None:
    """Makes `folder` and removes the files of an earlier run that match `pattern`."""
    folder.mkdir(parents=True, exist_ok=True)
    for stale in folder.glob(pattern):
        stale.unlink()
