#!/usr/bin/env python3
"""Records real gRPC traffic of a2a-python (a2a-sdk[grpc]) as pcap files, with tcpdump on `lo`.

    python3 samples/record/record_grpc.py [--env DIR] [--out DIR]

Must run as root (or with what tcpdump needs to capture on `lo`), with tcpdump on PATH.

How it goes:

1. The Python packages of PINS below are installed with pip into a virtual environment,
   `<env>/py`. Without --env this is a fresh temporary directory, removed at the end;
   with --env the directory is created or reused and kept (server logs included).
   The script then runs itself again with that environment's interpreter, because the
   client half needs grpcio and the SDK's generated stubs.
2. agent_python_grpc.py is started twice, each on a free port of 127.0.0.1: `plain`
   (streaming on, push notifications off, no extended card) for nearly everything, and
   `extcard` (an extended card declared, none configured) for one scenario. Each is
   given a host name of its own for its card's GRPC interface (HOST:443), the name of
   the HTTP configuration with the same capabilities (AS_CONFIG):
   `streaming.a2a-python.example` and `extcard.a2a-python.example`.
3. For each pcap, tcpdump is started as
       tcpdump -i lo -U --immediate-mode -s 0 -B 65536 -w - 'tcp port P'
   with standard output going to the pcap file this script opened (run as root,
   tcpdump switches to its own user before writing, so it would otherwise own, or
   fail to create, the file). Once tcpdump says it is listening, a new grpcio
   channel is opened, the scenarios are run over it, the channel is closed, and
   tcpdump is stopped with SIGINT so that the file ends on a whole packet. A pcap whose
   tcpdump statistics report packets dropped by the kernel fails the run.
4. Output, in <out> (default samples/real/a2a-python/grpc/):
   - grpc.pcap: every scenario of MAIN in order, on one channel (one TCP connection);
     HTTP/2 stream 1 is the first call, 3 the second, and so on;
   - <scenario>.pcap: each scenario of ALONE on its own channel, for small samples;
   - get-task-unknown-base64.pcap: get-task-unknown once more, from a client that
     does not offer grpc C-core's "true binary" metadata (see below);
   - versions.txt: the installed packages, Python, tcpdump and libpcap, and the date.
5. The servers are stopped by their process id (SIGTERM, then SIGKILL).

The client is grpcio with the stubs generated into the SDK (a2a.types.a2a_pb2_grpc).
Every call carries `a2a-version: 1.0` unless the scenario is about that header. The
channel's authority is the agent's host name (agents.virtual_host), so the captures do
not name a port in headers, and every agent, of every SDK and configuration, is reached
under its own name: a2alint compares an agent card with the answers given at the
authorities its interfaces list, and one name shared by differently configured agents
would make one agent's card describe another's answers.
Task, context and artifact ids and timestamps are the server's and change per run.

True binary metadata: grpc C-core (grpcio on both sides here) announces the HTTP/2
setting 0xfe03 and, when the peer announced it too, sends `-bin` metadata such as
`grpc-status-details-bin` as a 0x00 byte followed by the raw bytes instead of base64.
The main pcaps are recorded with grpcio's defaults, so the server's error trailers
use that form. The base64 pcap sets the client channel argument
`grpc.http2.true_binary` to 0: the client then does not announce the setting, and the
server falls back to base64.

Every call and its outcome (status, message, decoded grpc-status-details-bin) is
printed while recording.
"""

import argparse
import datetime
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

import agents  # noqa: E402
from agents import free_port  # noqa: E402
from record_pcap import tcpdump_version  # noqa: E402

# What the virtual environment gets: the SDK with its gRPC extra, and the packages that
# decide the bytes on the wire (grpc C-core inside grpcio, the protobuf runtime, and
# the google.rpc messages of the status details).
PINS = (
    'a2a-sdk[grpc]==1.3.0',
    'grpcio==1.85.3',
    'protobuf==7.36.2',
    'googleapis-common-protos==1.76.0',
)
REPORTED = ('a2a-sdk', 'grpcio', 'protobuf', 'googleapis-common-protos')

SERVICE = '/lf.a2a.v1.A2AService/'
LEGACY_SERVICE = '/a2a.v1.A2AService/'  # the A2A 0.3 package name
WEBHOOK = 'https://client.example/a2a-webhook'
FAKE_BEARER = 'Bearer fake-token-for-a2alint-not-a-real-secret'


# --- outer half: install, then hand over to the environment's interpreter -----------------


def install(env: pathlib.Path) -> pathlib.Path:
    py = env / 'py'
    python = py / 'bin' / 'python'
    if not python.exists():
        subprocess.run([sys.executable, '-m', 'venv', str(py)], check=True)
    subprocess.run([str(py / 'bin' / 'pip'), 'install', '--quiet', *PINS], check=True)
    return python


def outer(args: argparse.Namespace) -> int:
    if shutil.which('tcpdump') is None:
        sys.exit('record_grpc.py needs tcpdump')
    env = args.env or pathlib.Path(tempfile.mkdtemp(prefix='a2alint-record-grpc-'))
    env.mkdir(parents=True, exist_ok=True)
    try:
        python = install(env)
        cmd = [str(python), str(pathlib.Path(__file__).resolve()), '--inside',
               '--env', str(env), '--out', str(args.out)]
        return subprocess.run(cmd, env={**os.environ, 'PYTHONDONTWRITEBYTECODE': '1'}).returncode
    finally:
        if args.env is None:
            shutil.rmtree(env, ignore_errors=True)
        else:
            print(f'install and server logs kept in {env}')


# --- inner half: servers, tcpdump, client -------------------------------------------------


class Agent(agents.AgentProcess):
    """agent_python_grpc.py in one configuration, stopped by its process id."""

    def __init__(self, config: str, env: pathlib.Path):
        self.config = config
        port = free_port()
        host = agents.virtual_host('a2a-python', AS_CONFIG[config])
        cmd = [sys.executable, str(HERE / 'agent_python_grpc.py'), '--port', str(port), '--config', config,
               '--host', host]
        super().__init__(cmd, HERE, env / f'a2a-python-grpc-{config}.log', port, name=f'agent ({config})',
                         host=host)


class Client:
    """One grpcio channel to one agent, with the agent's host name as `:authority`, and
    the calls the scenarios make on it."""

    def __init__(self, port: int, authority: str, true_binary: bool = True):
        import grpc

        from a2a.types import a2a_pb2, a2a_pb2_grpc

        self.grpc = grpc
        self.pb = a2a_pb2
        options = [
            ('grpc.default_authority', authority),
            ('grpc.enable_http_proxy', 0),  # straight to 127.0.0.1, whatever the environment says
        ]
        if not true_binary:
            options.append(('grpc.http2.true_binary', 0))
        self.channel = grpc.insecure_channel(f'127.0.0.1:{port}', options=options)
        self.stub = a2a_pb2_grpc.A2AServiceStub(self.channel)
        self.last_task_id = None
        self.stream_id = 1

    def close(self) -> None:
        # After the last response the server still sends a PING (grpc C-core's bandwidth
        # probe). Closing at once would have the client's kernel answer it with a RST;
        # a short pause lets the PING and its ACK pass, so that both sides end with FIN.
        time.sleep(0.3)
        self.channel.close()

    # Each call returns the response (or the list of stream responses), or None after
    # an error; it prints what came back either way.
    def call(self, title: str, method: str, request, *, version: str | None = '1.0',
             extra: tuple = (), raw_path: str | None = None):
        metadata = []
        if version is not None:
            metadata.append(('a2a-version', version))
        metadata.extend(extra)
        stream_id, self.stream_id = self.stream_id, self.stream_id + 2
        print(f'  [stream {stream_id}] {title}', flush=True)
        try:
            if raw_path is not None:
                result = self.channel.unary_unary(raw_path)(request, metadata=metadata)
            else:
                answer = getattr(self.stub, method)(request, metadata=metadata)
                result = list(answer) if method in ('SendStreamingMessage', 'SubscribeToTask') else answer
        except self.grpc.RpcError as error:
            describe_error(error)
            return None
        if isinstance(result, list):
            print(f'      OK, {len(result)} stream responses: '
                  + ', '.join(r.WhichOneof('payload') for r in result))
        elif isinstance(result, bytes):
            print(f'      OK, {len(result)} bytes')
        else:
            print(f'      OK {type(result).__name__}')
        return result

    def message(self, message_id: str, text: str | None = 'hello'):
        parts = [] if text is None else [self.pb.Part(text=text)]
        return self.pb.Message(message_id=message_id, role=self.pb.ROLE_USER, parts=parts)

    def send(self, title: str, message_id: str, text: str | None = 'hello', **kw):
        request = self.pb.SendMessageRequest(message=self.message(message_id, text))
        answer = self.call(title, 'SendMessage', request, **kw)
        if answer is not None and answer.HasField('task'):
            self.last_task_id = answer.task.id
        return answer


def describe_error(error) -> None:
    from google.rpc import error_details_pb2, status_pb2

    print(f'      {error.code().name} {error.details()!r}')
    for key, value in error.trailing_metadata() or ():
        if key != 'grpc-status-details-bin':
            print(f'      trailer {key}: {value!r}')
            continue
        status = status_pb2.Status.FromString(value)
        print(f'      grpc-status-details-bin: code {status.code}, message {status.message!r}')
        for detail in status.details:
            if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
                info = error_details_pb2.ErrorInfo()
                detail.Unpack(info)
                print(f'        ErrorInfo reason={info.reason} domain={info.domain} metadata={dict(info.metadata)}')
            elif detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
                bad = error_details_pb2.BadRequest()
                detail.Unpack(bad)
                for v in bad.field_violations:
                    print(f'        BadRequest field={v.field!r} description={v.description!r}')
            else:
                print(f'        {detail.type_url}')


# --- the scenarios ------------------------------------------------------------------------
# A scenario is a function (client) -> None making one or more calls on the channel.


def send_message(c: Client) -> None:
    c.send('SendMessage', 'msg-send')


def get_task(c: Client) -> None:
    if c.last_task_id is None:
        c.send('SendMessage: create a task for the next call', 'msg-get')
    c.call('GetTask: the task just created', 'GetTask', c.pb.GetTaskRequest(id=c.last_task_id))


def list_tasks(c: Client) -> None:
    c.call('ListTasks', 'ListTasks', c.pb.ListTasksRequest())


def get_task_unknown(c: Client) -> None:
    c.call('GetTask: a task that does not exist', 'GetTask', c.pb.GetTaskRequest(id='no-such-task'))


def cancel_task_completed(c: Client) -> None:
    c.send('SendMessage: create a task for the next call', 'msg-cancel')
    c.call('CancelTask: a task that already completed', 'CancelTask',
           c.pb.CancelTaskRequest(id=c.last_task_id))


def send_message_without_message_id(c: Client) -> None:
    c.send('SendMessage whose message_id is empty', '')


def send_message_empty_parts(c: Client) -> None:
    c.send('SendMessage whose message has no parts', 'msg-no-parts', text=None)


def version_99(c: Client) -> None:
    c.send('SendMessage with a2a-version: 99.0', 'msg-v99', version='99.0')


def version_missing(c: Client) -> None:
    c.send('SendMessage without a2a-version', 'msg-v-none', version=None)


def push_config_create(c: Client) -> None:
    c.send('SendMessage: create a task for the next call', 'msg-push')
    c.call('CreateTaskPushNotificationConfig while the card says pushNotifications: false',
           'CreateTaskPushNotificationConfig',
           c.pb.TaskPushNotificationConfig(task_id=c.last_task_id, url=WEBHOOK))


def extended_card(c: Client) -> None:
    c.call('GetExtendedAgentCard', 'GetExtendedAgentCard', c.pb.GetExtendedAgentCardRequest())


def stream(c: Client) -> None:
    c.call('SendStreamingMessage', 'SendStreamingMessage',
           c.pb.SendMessageRequest(message=c.message('msg-stream')))


def stream_error(c: Client) -> None:
    c.call('SendStreamingMessage: the executor raises once the task is working',
           'SendStreamingMessage', c.pb.SendMessageRequest(message=c.message('msg-fail', 'fail')))


def subscribe_unknown(c: Client) -> None:
    c.call('SubscribeToTask: a task that does not exist', 'SubscribeToTask',
           c.pb.SubscribeToTaskRequest(id='no-such-task'))


def list_tasks_page_size(c: Client) -> None:
    c.call('ListTasks with page_size 1000', 'ListTasks', c.pb.ListTasksRequest(page_size=1000))
    c.call('ListTasks with page_size 0 (set, so present on the wire)', 'ListTasks',
           c.pb.ListTasksRequest(page_size=0))


def legacy_package(c: Client) -> None:
    # The bytes of the send-message request, sent to the A2A 0.3 service name.
    body = c.pb.SendMessageRequest(message=c.message('msg-send')).SerializeToString()
    c.call('SendMessage under the 0.3 package a2a.v1', None, body,
           raw_path=LEGACY_SERVICE + 'SendMessage')


def unknown_method(c: Client) -> None:
    c.call('A method the service does not have', None, b'', raw_path=SERVICE + 'NoSuchMethod')


def authorization(c: Client) -> None:
    c.send('SendMessage with an authorization: Bearer ... metadata entry', 'msg-auth',
           extra=(('authorization', FAKE_BEARER),))


# Scenario name -> (function, agent configuration).
SCENARIOS = {
    'send-message': (send_message, 'plain'),
    'get-task': (get_task, 'plain'),
    'list-tasks': (list_tasks, 'plain'),
    'get-task-unknown': (get_task_unknown, 'plain'),
    'cancel-task-completed': (cancel_task_completed, 'plain'),
    'send-message-without-message-id': (send_message_without_message_id, 'plain'),
    'send-message-empty-parts': (send_message_empty_parts, 'plain'),
    'version-99': (version_99, 'plain'),
    'version-missing': (version_missing, 'plain'),
    'push-config-create': (push_config_create, 'plain'),
    'extended-card': (extended_card, 'plain'),
    'stream': (stream, 'plain'),
    'stream-error': (stream_error, 'plain'),
    'subscribe-unknown': (subscribe_unknown, 'plain'),
    'list-tasks-page-size': (list_tasks_page_size, 'plain'),
    'legacy-package': (legacy_package, 'plain'),
    'unknown-method': (unknown_method, 'plain'),
    'authorization': (authorization, 'plain'),
    'extended-card-not-configured': (extended_card, 'extcard'),
}

# grpc.pcap: these, in this order, on one channel to the plain agent.
MAIN = [name for name, (_, config) in SCENARIOS.items() if config == 'plain']
# One small pcap each.
ALONE = [
    'get-task-unknown',
    'cancel-task-completed',
    'send-message-without-message-id',
    'send-message-empty-parts',
    'version-99',
    'version-missing',
    'push-config-create',
    'extended-card',
    'extended-card-not-configured',
    'stream-error',
    'subscribe-unknown',
    'list-tasks-page-size',
    'legacy-package',
    'unknown-method',
    'authorization',
]


def capture(pcap: pathlib.Path, agent: Agent, names: list[str], true_binary: bool = True) -> None:
    agents.capture_grpc(pcap, agent.port, [SCENARIOS[name][0] for name in names],
                        lambda port: Client(port, agent.host, true_binary=true_binary),
                        title=f'{pcap.name}: {", ".join(names)}')


# --- the same scenarios against another SDK's agent (record_a2a_go.py, record_a2a_rust.py,
# record_a2a_js_grpc.py) ------------------------------------------------------------------

# Which configuration of such an agent (plain, streaming, extcard) stands in for each
# configuration of agent_python_grpc.py: its "plain" agent has streaming on.
AS_CONFIG = {'plain': 'streaming', 'extcard': 'extcard'}


def expired_deadline(c: Client, linger: float) -> None:
    """SendMessage "slow" (the agent takes five seconds) with a one second deadline, then
    `linger` seconds more on the connection for whatever the server still sends."""
    request = c.pb.SendMessageRequest(message=c.message('msg-slow', 'slow'))
    stream_id, c.stream_id = c.stream_id, c.stream_id + 2
    print(f'  [stream {stream_id}] SendMessage "slow" with a 1 s deadline', flush=True)
    try:
        c.stub.SendMessage(request, metadata=[('a2a-version', '1.0')], timeout=1.0)
        print('      OK (the deadline did not expire)')
    except c.grpc.RpcError as error:
        describe_error(error)
    time.sleep(linger)


def stream_republished(c: Client) -> None:
    c.call('SendStreamingMessage: the executor publishes the task twice', 'SendStreamingMessage',
           c.pb.SendMessageRequest(message=c.message('msg-twice', 'twice')))


def record_sdk_pcaps(ports: dict, hosts: dict, out: pathlib.Path, linger: float = 0.5) -> None:
    """Into `out` (its old pcaps removed): grpc.pcap (MAIN on one channel), one pcap per
    scenario of ALONE, and deadline.pcap, streaming-unsupported.pcap and
    stream-republished-task.pcap; `ports` maps each configuration to its gRPC port,
    `hosts` to the agent's host name, the channel's authority."""
    agents.clear(out, '*.pcap')

    def capture(pcap: pathlib.Path, config: str, functions: list) -> None:
        agents.capture_grpc(pcap, ports[config], functions, lambda port: Client(port, hosts[config]))

    capture(out / 'grpc.pcap', AS_CONFIG['plain'], [SCENARIOS[name][0] for name in MAIN])
    for name in ALONE:
        function, config = SCENARIOS[name]
        capture(out / f'{name}.pcap', AS_CONFIG[config], [function])
    extra = {  # name -> (function, configuration of THAT agent)
        'deadline': (lambda c: expired_deadline(c, linger), 'streaming'),
        'streaming-unsupported': (stream, 'plain'),
        'stream-republished-task': (stream_republished, 'streaming'),
    }
    for name, (function, config) in extra.items():
        capture(out / f'{name}.pcap', config, [function])


def installed_versions() -> list[str]:
    from importlib import metadata

    lines = [f'{name} {metadata.version(name)} (PyPI)' for name in REPORTED]
    lines.append(f'Python {platform.python_version()}')
    return lines


def inner(args: argparse.Namespace) -> int:
    def timed_out(signum, frame):
        raise TimeoutError('the recording took more than 300 s')

    signal.signal(signal.SIGALRM, timed_out)
    signal.alarm(300)  # a call that never returns must not hang the run (the servers still stop)
    out = args.out
    out.mkdir(parents=True, exist_ok=True)
    agents = {}
    try:
        for config in ('plain', 'extcard'):
            agents[config] = Agent(config, args.env)
        capture(out / 'grpc.pcap', agents['plain'], MAIN)
        for name in ALONE:
            capture(out / f'{name}.pcap', agents[SCENARIOS[name][1]], [name])
        capture(out / 'get-task-unknown-base64.pcap', agents['plain'], ['get-task-unknown'],
                true_binary=False)
    finally:
        for agent in agents.values():
            agent.stop()
    versions = installed_versions()
    tools = tcpdump_version() + ['captured on lo, the Linux loopback interface']
    (out / 'versions.txt').write_text(
        '# Written by samples/record/record_grpc.py: the packages that served and made the\n'
        '# calls in these captures (grpcio on both sides), and the capture tools.\n'
        + '\n'.join(versions + tools)
        + f'\nrecorded {datetime.date.today().isoformat()}\n'
    )
    print('recorded with', ', '.join(versions), '; captured with', ', '.join(tools))
    return 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--env', type=pathlib.Path, help='install directory to create or reuse (kept)')
    parser.add_argument('--out', type=pathlib.Path, default=HERE.parent / 'real' / 'a2a-python' / 'grpc')
    parser.add_argument('--inside', action='store_true', help=argparse.SUPPRESS)
    args = parser.parse_args()
    args.out = args.out.resolve()
    sys.exit(inner(args) if args.inside else outer(args))


if __name__ == '__main__':
    main()
