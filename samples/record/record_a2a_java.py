#!/usr/bin/env python3
"""Records real traffic of the Java A2A SDK (a2a-java) into samples/real/a2a-java/.

    python3 samples/record/record_a2a_java.py [--env DIR] [--out DIR] [--no-grpc]

Needs a JDK 17 and Maven on PATH, Maven Central and PyPI, and, for the gRPC part, root
and tcpdump (use --no-grpc without them). Re-using an --env directory keeps the Maven
repository and the virtual environment between runs (any directory outside the repository).

Steps:

1. sdk_a2a_java.install() copies samples/record/java/ into <env>/java and builds it with
   Maven (local repository <env>/m2). The agent's DumpDescriptor class then writes the
   SDK's compiled gRPC schema to <env>/a2a-java.pb. A virtual environment <env>/py gets
   grpcio and protobuf (PINS), and the script runs itself again with its interpreter.
2. HTTP: the agent is started in the plain, streaming and extcard configurations on free
   ports of 127.0.0.1, each under a host name of its own (agents.virtual_host:
   `a2a-java.example`, `streaming.a2a-java.example`, `extcard.a2a-java.example`, which
   its card advertises and the requests address) and behind a proxy.RecordingProxy, and
   every scenario of scenarios.BINDINGS is sent as record_all.py sends it. Output:
   <out>/<binding>/<scenario>.http, the exact bytes of each exchange.
3. gRPC: the agent's gRPC port (streaming and extcard configurations) is captured with
   tcpdump while a grpcio client makes the calls of record_grpc.py's scenarios. This SDK
   release serves the A2A 0.3-era package `a2a.v1`, whose field numbers differ from the
   1.0 package `lf.a2a.v1`, so the client builds its messages from the server's own
   schema (<env>/a2a-java.pb) and calls /a2a.v1.A2AService/... . The scenarios that
   name lf.a2a.v1 types are replaced here (push-config-create, legacy-package,
   unknown-method) and three are added (x-version-99, deadline, final-package).
   Output: <out>/grpc/grpc.pcap (all calls on one channel) and one pcap per scenario of
   ALONE. grpc-java sends `-bin` trailers base64-encoded whatever the client offers
   (only grpc C-core has "true binary"), so no second, base64-only pcap is made.
4. <out>/versions.txt lists the Maven artifacts, the JDK, the client packages and tcpdump.
   Every agent is stopped by its process id.
"""

import argparse
import datetime
import os
import pathlib
import shutil
import signal
import subprocess
import sys
import tempfile
import types

sys.dont_write_bytecode = True  # keep __pycache__ out of the repository

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import agents  # noqa: E402
import sdk_a2a_java as sdk  # noqa: E402

PINS = ('grpcio==1.85.3', 'protobuf==7.36.2', 'googleapis-common-protos==1.76.0')
SERVICE = '/a2a.v1.A2AService/'
FINAL_SERVICE = '/lf.a2a.v1.A2AService/'  # the A2A 1.0 package, which this release does not serve
WEBHOOK = 'https://client.example/a2a-webhook'


# --- gRPC ---------------------------------------------------------------------------------


def load_schema(path: pathlib.Path):
    """Message classes for the server's a2a.v1 schema, in a pool of their own."""
    from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

    files = descriptor_pb2.FileDescriptorSet.FromString(path.read_bytes())
    pool = descriptor_pool.DescriptorPool()
    for file in files.file:
        pool.Add(file)
    a2a = pool.FindFileByName('a2a.proto')
    pb = types.SimpleNamespace()
    for name, descriptor in a2a.message_types_by_name.items():
        setattr(pb, name, message_factory.GetMessageClass(descriptor))
    for enum in a2a.enum_types_by_name.values():
        for value in enum.values:
            setattr(pb, value.name, value.number)
    return pb, a2a.services_by_name['A2AService']


def make_client_class():
    import grpc

    import record_grpc

    class JavaClient(record_grpc.Client):
        """record_grpc's client, on the a2a.v1 service and messages this server serves."""

        schema = None  # (pb, service), set before use

        def __init__(self, port: int, authority: str, true_binary: bool = True):
            self.grpc = grpc
            self.pb, service = self.schema
            options = [('grpc.default_authority', authority), ('grpc.enable_http_proxy', 0)]
            if not true_binary:
                options.append(('grpc.http2.true_binary', 0))
            self.channel = grpc.insecure_channel(f'127.0.0.1:{port}', options=options)
            self.stub = types.SimpleNamespace()
            for method in service.methods:
                request = getattr(self.pb, method.input_type.name, None)
                response = getattr(self.pb, method.output_type.name, None)
                if response is None:  # google.protobuf.Empty
                    from google.protobuf import empty_pb2
                    response = empty_pb2.Empty
                factory = self.channel.unary_stream if method.server_streaming else self.channel.unary_unary
                setattr(self.stub, method.name, factory(
                    SERVICE + method.name,
                    request_serializer=request.SerializeToString,
                    response_deserializer=response.FromString))
            self.last_task_id = None
            self.stream_id = 1

    return JavaClient


def push_config_create(c) -> None:
    c.send('SendMessage: create a task for the next call', 'msg-push')
    request = c.pb.CreateTaskPushNotificationConfigRequest(
        task_id=c.last_task_id, config_id='cfg-1', config=c.pb.PushNotificationConfig(url=WEBHOOK))
    c.call('CreateTaskPushNotificationConfig while the card says pushNotifications: false',
           'CreateTaskPushNotificationConfig', request)


def legacy_package(c) -> None:
    # This release *is* the a2a.v1 package; its "legacy" call is the plain SendMessage.
    c.send('SendMessage on a2a.v1 (the package this release serves)', 'msg-legacy')


def final_package(c) -> None:
    body = c.pb.SendMessageRequest(message=c.message('msg-final')).SerializeToString()
    c.call('SendMessage under the A2A 1.0 package lf.a2a.v1', None, body,
           raw_path=FINAL_SERVICE + 'SendMessage')


def unknown_method(c) -> None:
    c.call('A method the service does not have', None, b'', raw_path=SERVICE + 'NoSuchMethod')


def x_version_99(c) -> None:
    c.send('SendMessage with x-a2a-version: 99.0 (the header name this release reads)', 'msg-xv99',
           version=None, extra=(('x-a2a-version', '99.0'),))


def deadline(c) -> None:
    title = 'SendMessage "slow" (the agent sleeps 3 s) with a 1 s deadline'
    stream_id, c.stream_id = c.stream_id, c.stream_id + 2
    print(f'  [stream {stream_id}] {title}', flush=True)
    request = c.pb.SendMessageRequest(
        message=c.message('msg-slow', 'slow'),
        configuration=c.pb.SendMessageConfiguration(blocking=True))
    try:
        c.stub.SendMessage(request, metadata=[('a2a-version', '1.0')], timeout=1.0)
        print('      OK (the deadline did not expire)')
    except c.grpc.RpcError as error:
        print(f'      {error.code().name} {error.details()!r}')


def grpc_scenarios() -> dict:
    import record_grpc

    table = {name: fn for name, (fn, _) in record_grpc.SCENARIOS.items()}
    table.update({
        'push-config-create': push_config_create,
        'legacy-package': legacy_package,
        'unknown-method': unknown_method,
        'final-package': final_package,
        'x-version-99': x_version_99,
        'deadline': deadline,
    })
    return table


ALONE = [
    'get-task-unknown', 'cancel-task-completed', 'send-message-without-message-id',
    'send-message-empty-parts', 'version-99', 'x-version-99', 'version-missing',
    'push-config-create', 'extended-card', 'extended-card-not-configured', 'stream-error',
    'subscribe-unknown', 'list-tasks-page-size', 'final-package', 'unknown-method',
    'authorization', 'deadline',
]


def record_grpc_pcaps(ports: dict, hosts: dict, env: pathlib.Path, out: pathlib.Path) -> None:
    """`ports`: configuration -> the agent's gRPC port; `hosts`: configuration -> its host
    name, the channel's `:authority` (the name its card's GRPC interface gives)."""
    client_class = make_client_class()
    client_class.schema = load_schema(env / 'a2a-java.pb')
    table = grpc_scenarios()
    config_of = {name: 'streaming' for name in table}
    config_of['extended-card-not-configured'] = 'extcard'
    target = out / 'grpc'
    agents.clear(target, '*.pcap')

    def capture(pcap: pathlib.Path, names: list[str]) -> None:
        config = config_of[names[0]]
        agents.capture_grpc(pcap, ports[config], [table[name] for name in names],
                            lambda port: client_class(port, hosts[config]),
                            title=f'{pcap.name}: {", ".join(names)}')

    main = [name for name in table if config_of[name] == 'streaming' and name != 'deadline']
    capture(target / 'grpc.pcap', main)
    for name in ALONE:
        capture(target / f'{name}.pcap', [name])


# --- the two halves -----------------------------------------------------------------------


def inner(args: argparse.Namespace) -> int:
    def timed_out(signum, frame):
        raise TimeoutError('the recording took more than 600 s')

    signal.signal(signal.SIGALRM, timed_out)
    signal.alarm(600)  # a call that never returns must not hang the run (the agents still stop)
    out, env = args.out, args.env
    out.mkdir(parents=True, exist_ok=True)
    running = {}
    try:
        for config in ('plain', 'streaming', 'extcard'):
            running[config] = agents.start_sdk_agent(sdk, env, config, grpc=not args.no_grpc and config != 'plain',
                                                     timeout=90, poll=0.3)
        # keep_partial: a later request may need something an earlier answer did not give
        # (a task id); the exchanges that did happen are kept.
        agents.record_http(running, out, keep_partial=True)
        if not args.no_grpc:
            record_grpc_pcaps({c: a.grpc_port for c, a in running.items()},
                              {c: a.host for c, a in running.items()}, env, out)
    finally:
        agents.stop_all(running.values())
    lines = sdk.versions(env)
    if not args.no_grpc:
        from importlib import metadata

        from record_pcap import tcpdump_version

        lines += [f'{name} {metadata.version(name)} (PyPI, the gRPC test client)'
                  for name in ('grpcio', 'protobuf', 'googleapis-common-protos')]
        lines += tcpdump_version()
    (out / 'versions.txt').write_text(
        '# Written by samples/record/record_a2a_java.py: the SDK artifacts and libraries that\n'
        '# served these recordings (JDK HTTP server + grpc-java Netty), and the gRPC client.\n'
        '# The SDK is a pre-release: the 1.x releases of group org.a2aproject.sdk did not\n'
        '# resolve from the package registry when this was recorded.\n'
        + '\n'.join(lines)
        + f'\nrecorded {datetime.date.today().isoformat()}\n'
    )
    print('recorded with', ', '.join(lines))
    return 0


def outer(args: argparse.Namespace) -> int:
    env = args.env or pathlib.Path(tempfile.mkdtemp(prefix='a2alint-record-java-'))
    env.mkdir(parents=True, exist_ok=True)
    try:
        sdk.install(env)
        java, _ = sdk.command(env, 0, 'plain', agents.virtual_host(sdk.NAME, 'plain'))  # for its classpath
        classpath = java[java.index('-cp') + 1]
        subprocess.run(['java', '-cp', classpath, 'example.echo.DumpDescriptor', str(env / 'a2a-java.pb')],
                       check=True)
        python = sys.executable
        if not args.no_grpc:
            if shutil.which('tcpdump') is None:
                sys.exit('the gRPC part needs tcpdump (or pass --no-grpc)')
            venv = env / 'py'
            if not (venv / 'bin' / 'python').exists():
                subprocess.run([sys.executable, '-m', 'venv', str(venv)], check=True)
            subprocess.run([str(venv / 'bin' / 'pip'), 'install', '--quiet', *PINS], check=True)
            python = str(venv / 'bin' / 'python')
        cmd = [python, str(pathlib.Path(__file__).resolve()), '--inside', '--env', str(env), '--out', str(args.out)]
        if args.no_grpc:
            cmd.append('--no-grpc')
        return subprocess.run(cmd, env={**os.environ, 'PYTHONDONTWRITEBYTECODE': '1'}).returncode
    finally:
        if args.env is None:
            shutil.rmtree(env, ignore_errors=True)
        else:
            print(f'build, Maven repository and agent logs kept in {env}')


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--env', type=pathlib.Path, help='build directory to create or reuse (kept)')
    parser.add_argument('--out', type=pathlib.Path, default=HERE.parent / 'real' / sdk.NAME)
    parser.add_argument('--no-grpc', action='store_true', help='record the HTTP bindings only')
    parser.add_argument('--inside', action='store_true', help=argparse.SUPPRESS)
    args = parser.parse_args()
    args.out = args.out.resolve()
    if args.env is not None:
        args.env = args.env.resolve()
    sys.exit(inner(args) if args.inside else outer(args))


if __name__ == '__main__':
    main()
