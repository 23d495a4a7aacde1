"""The recorded scenarios: raw HTTP/1.1 requests per binding, sent through the proxy.

Every request is written byte for byte here (no HTTP client library), so the
recordings do not depend on a client's version: a `Host:` naming the agent's own
virtual host (agents.virtual_host: `a2a-go.example`, `streaming.a2a-go.example`, ...,
the host its card advertises), fixed header order, `Connection: close`, JSON-RPC ids
and message ids fixed per scenario. Task ids, context ids, artifact ids and timestamps
come from the servers and differ per run.

A scenario is a function `(session) -> None` that sends one or more requests; its
entry in SCENARIOS names the server configuration it needs (see agent_python.py).
"""

import json
import socket
from dataclasses import dataclass, field

JSONRPC_PATH = '/a2a/jsonrpc'
REST_PATH = '/a2a/rest'
CARD_PATH = '/.well-known/agent-card.json'
A2A_JSON = 'application/a2a+json'
JSON = 'application/json'
WEBHOOK = 'https://client.example/a2a-webhook'


@dataclass
class Response:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self):
        return json.loads(self.body)


def parse_response(raw: bytes) -> Response:
    """Just enough HTTP/1.1 to read a JSON answer: head, Content-Length or chunked."""
    head, _, rest = raw.partition(b'\r\n\r\n')
    lines = head.decode('latin-1').split('\r\n')
    status = int(lines[0].split(' ', 2)[1])
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(':')
        headers[name.strip().lower()] = value.strip()
    if 'chunked' in headers.get('transfer-encoding', '').lower():
        body = bytearray()
        while True:
            size_line, _, rest = rest.partition(b'\r\n')
            size = int(size_line.split(b';')[0], 16)
            if size == 0:
                break
            body += rest[:size]
            rest = rest[size + 2 :]
        return Response(status, headers, bytes(body))
    if 'content-length' in headers:
        rest = rest[: int(headers['content-length'])]
    return Response(status, headers, rest)


def message(message_id: str | None, text: str) -> dict:
    msg = {'role': 'ROLE_USER', 'parts': [{'text': text}]}
    if message_id is not None:
        msg = {'messageId': message_id, **msg}
    return msg


@dataclass
class Session:
    """Sends requests to one server through its recording proxy, with `Host: <host>`."""

    proxy_port: int
    proxy: object  # RecordingProxy
    host: str  # the agent's public host name, as its card advertises it
    exchanges: list[tuple[str, bytes, bytes]] = field(default_factory=list)

    def send(
        self,
        title: str,
        method: str,
        target: str,
        body: bytes | None = None,
        content_type: str | None = None,
        version: str | None = '1.0',
        accept: str | None = None,
    ) -> Response:
        lines = [f'{method} {target} HTTP/1.1', f'Host: {self.host}']
        if accept:
            lines.append(f'Accept: {accept}')
        if content_type:
            lines.append(f'Content-Type: {content_type}')
        if version is not None:
            lines.append(f'A2A-Version: {version}')
        if body is not None:
            lines.append(f'Content-Length: {len(body)}')
        lines.append('Connection: close')
        request = ('\r\n'.join(lines) + '\r\n\r\n').encode() + (body or b'')
        with socket.create_connection(('127.0.0.1', self.proxy_port), timeout=60) as s:
            s.sendall(request)
            while s.recv(65536):
                pass  # the proxy closes the connection once the response is complete
        [(sent, received)] = self.proxy.take()
        self.exchanges.append((title, sent, received))
        return parse_response(received)


def dumps(value) -> bytes:
    return json.dumps(value, separators=(',', ':')).encode()


# --- JSON-RPC binding (A2A §9) -------------------------------------------------------


def rpc(s: Session, title, rpc_id, method, params, **kw) -> Response:
    kw.setdefault('content_type', JSON)
    envelope = {'jsonrpc': '2.0', 'id': rpc_id, 'method': method, 'params': params}
    return s.send(title, 'POST', JSONRPC_PATH, dumps(envelope), **kw)


def rpc_new_task(s: Session, message_id: str) -> str:
    answer = rpc(
        s,
        'SendMessage: create a task for the next request',
        1,
        'SendMessage',
        {'message': message(message_id, 'hello')},
    )
    return answer.json()['result']['task']['id']


def rpc_stream(s: Session, title, message_id, text):
    rpc(
        s,
        title,
        1,
        'SendStreamingMessage',
        {'message': message(message_id, text)},
        accept='text/event-stream',
    )


JSONRPC = {
    'agent-card': lambda s: s.send(
        'GET the agent card', 'GET', CARD_PATH, accept=JSON, version=None
    ),
    'send-message': lambda s: rpc(
        s, 'SendMessage', 1, 'SendMessage', {'message': message('msg-send', 'hello')}
    ),
    'get-task': lambda s: rpc(
        s, 'GetTask: the task just created', 2, 'GetTask', {'id': rpc_new_task(s, 'msg-get')}
    ),
    'get-task-unknown': lambda s: rpc(
        s, 'GetTask: a task that does not exist', 3, 'GetTask', {'id': 'no-such-task'}
    ),
    'cancel-completed-task': lambda s: rpc(
        s,
        'CancelTask: a task that already completed',
        4,
        'CancelTask',
        {'id': rpc_new_task(s, 'msg-cancel')},
    ),
    'message-without-message-id': lambda s: rpc(
        s, 'SendMessage without messageId', 5, 'SendMessage', {'message': message(None, 'hello')}
    ),
    'malformed-json': lambda s: s.send(
        'Truncated JSON body',
        'POST',
        JSONRPC_PATH,
        b'{"jsonrpc":"2.0","id":6,"method":"SendMessage","params":{"message":',
        content_type=JSON,
    ),
    'unknown-method': lambda s: rpc(
        s, 'A method that does not exist', 7, 'NoSuchMethod', {}
    ),
    'wrong-http-method': lambda s: s.send(
        'GET on the JSON-RPC endpoint', 'GET', JSONRPC_PATH, accept=JSON
    ),
    'streaming-unsupported': lambda s: rpc(
        s,
        'SendStreamingMessage while the card says streaming: false',
        8,
        'SendStreamingMessage',
        {'message': message('msg-stream-off', 'hello')},
        accept='text/event-stream',
    ),
    'push-config-unsupported': lambda s: rpc(
        s,
        'CreateTaskPushNotificationConfig while the card says pushNotifications: false',
        9,
        'CreateTaskPushNotificationConfig',
        {'taskId': rpc_new_task(s, 'msg-push'), 'url': WEBHOOK},
    ),
    'extended-card-unsupported': lambda s: rpc(
        s, 'GetExtendedAgentCard while the card says extendedAgentCard: false', 10,
        'GetExtendedAgentCard', {},
    ),
    'extended-card-not-configured': lambda s: rpc(
        s, 'GetExtendedAgentCard: declared in the card, none configured', 11,
        'GetExtendedAgentCard', {},
    ),
    'stream': lambda s: rpc_stream(s, 'SendStreamingMessage', 'msg-stream', 'hello'),
    'version-unsupported': lambda s: rpc(
        s, 'A2A-Version: 99.0', 12, 'SendMessage',
        {'message': message('msg-v99', 'hello')}, version='99.0',
    ),
    'version-missing': lambda s: rpc(
        s, 'No A2A-Version header', 13, 'SendMessage',
        {'message': message('msg-v-none', 'hello')}, version=None,
    ),
    'text-plain-request': lambda s: rpc(
        s, 'Content-Type: text/plain', 14, 'SendMessage',
        {'message': message('msg-text-plain', 'hello')}, content_type='text/plain',
    ),
    'a2a-json-request': lambda s: rpc(
        s, 'Content-Type: application/a2a+json on JSON-RPC', 15, 'SendMessage',
        {'message': message('msg-a2a-json', 'hello')}, content_type=A2A_JSON,
    ),
    'jsonrpc-member-missing': lambda s: s.send(
        'Request object without "jsonrpc"',
        'POST',
        JSONRPC_PATH,
        dumps({'id': 16, 'method': 'GetTask', 'params': {'id': 'no-such-task'}}),
        content_type=JSON,
    ),
    'batch-request': lambda s: s.send(
        'A JSON-RPC batch (an array of requests)',
        'POST',
        JSONRPC_PATH,
        dumps([{'jsonrpc': '2.0', 'id': 20, 'method': 'GetTask', 'params': {'id': 'no-such-task'}}]),
        content_type=JSON,
    ),
    'id-not-scalar': lambda s: s.send(
        'A request whose id is an object',
        'POST',
        JSONRPC_PATH,
        dumps({'jsonrpc': '2.0', 'id': {'n': 21}, 'method': 'GetTask', 'params': {'id': 'no-such-task'}}),
        content_type=JSON,
    ),
    'message-with-empty-parts': lambda s: rpc(
        s, 'SendMessage whose message has no parts', 22, 'SendMessage',
        {'message': {'messageId': 'msg-no-parts', 'role': 'ROLE_USER', 'parts': []}},
    ),
    'subscribe-completed-task': lambda s: rpc(
        s,
        'SubscribeToTask: a task that already completed',
        17,
        'SubscribeToTask',
        {'id': rpc_new_task(s, 'msg-subscribe')},
        accept='text/event-stream',
    ),
    'list-tasks-bad-page-size': lambda s: (
        rpc(s, 'ListTasks with pageSize "abc"', 18, 'ListTasks', {'pageSize': 'abc'}),
        rpc(s, 'ListTasks with pageSize 1000', 19, 'ListTasks', {'pageSize': 1000}),
    ),
    'stream-error': lambda s: rpc_stream(
        s, 'SendStreamingMessage: the executor raises mid-stream', 'msg-fail', 'fail'
    ),
    'stream-republished-task': lambda s: rpc_stream(
        s, 'SendStreamingMessage: the executor publishes the task twice', 'msg-twice', 'twice'
    ),
}


# --- HTTP+JSON binding (A2A §11) -----------------------------------------------------


def rest(s: Session, title, method, path, payload=None, **kw) -> Response:
    if payload is None:
        body = b'' if method == 'POST' else None  # a bodiless POST says Content-Length: 0
    else:
        body = payload if isinstance(payload, bytes) else dumps(payload)
        kw.setdefault('content_type', A2A_JSON)
    return s.send(title, method, REST_PATH + path, body, **kw)


def rest_new_task(s: Session, message_id: str) -> str:
    answer = rest(
        s,
        'SendMessage: create a task for the next request',
        'POST',
        '/message:send',
        {'message': message(message_id, 'hello')},
    )
    return answer.json()['task']['id']


def rest_stream(s: Session, title, message_id, text):
    rest(
        s, title, 'POST', '/message:stream', {'message': message(message_id, text)},
        accept='text/event-stream',
    )


HTTP_JSON = {
    'agent-card': JSONRPC['agent-card'],
    'send-message': lambda s: rest(
        s, 'SendMessage', 'POST', '/message:send', {'message': message('msg-send', 'hello')}
    ),
    'get-task': lambda s: rest(
        s, 'GetTask: the task just created', 'GET', f'/tasks/{rest_new_task(s, "msg-get")}'
    ),
    'get-task-unknown': lambda s: rest(
        s, 'GetTask: a task that does not exist', 'GET', '/tasks/no-such-task'
    ),
    'cancel-completed-task': lambda s: rest(
        s,
        'CancelTask: a task that already completed',
        'POST',
        f'/tasks/{rest_new_task(s, "msg-cancel")}:cancel',
        {},
    ),
    'message-without-message-id': lambda s: rest(
        s, 'SendMessage without messageId', 'POST', '/message:send',
        {'message': message(None, 'hello')},
    ),
    'malformed-json': lambda s: rest(
        s, 'Truncated JSON body', 'POST', '/message:send', b'{"message":{"messageId":'
    ),
    'unknown-path': lambda s: rest(
        s, 'A path that is no A2A route', 'GET', '/no-such-route', accept=A2A_JSON
    ),
    'wrong-http-method': lambda s: rest(
        s, 'DELETE on /message:send', 'DELETE', '/message:send', accept=A2A_JSON
    ),
    'streaming-unsupported': lambda s: rest(
        s,
        'SendStreamingMessage while the card says streaming: false',
        'POST',
        '/message:stream',
        {'message': message('msg-stream-off', 'hello')},
        accept='text/event-stream',
    ),
    'push-config-unsupported': lambda s: rest(
        s,
        'CreateTaskPushNotificationConfig while the card says pushNotifications: false',
        'POST',
        f'/tasks/{rest_new_task(s, "msg-push")}/pushNotificationConfigs',
        {'url': WEBHOOK},
    ),
    'extended-card-unsupported': lambda s: rest(
        s, 'GetExtendedAgentCard while the card says extendedAgentCard: false',
        'GET', '/extendedAgentCard', accept=A2A_JSON,
    ),
    'extended-card-not-configured': lambda s: rest(
        s, 'GetExtendedAgentCard: declared in the card, none configured',
        'GET', '/extendedAgentCard', accept=A2A_JSON,
    ),
    'stream': lambda s: rest_stream(s, 'SendStreamingMessage', 'msg-stream', 'hello'),
    'version-unsupported': lambda s: rest(
        s, 'A2A-Version: 99.0', 'POST', '/message:send',
        {'message': message('msg-v99', 'hello')}, version='99.0',
    ),
    'version-missing': lambda s: rest(
        s, 'No A2A-Version header', 'POST', '/message:send',
        {'message': message('msg-v-none', 'hello')}, version=None,
    ),
    'text-plain-request': lambda s: rest(
        s, 'Content-Type: text/plain', 'POST', '/message:send',
        {'message': message('msg-text-plain', 'hello')}, content_type='text/plain',
    ),
    'message-with-empty-parts': lambda s: rest(
        s, 'SendMessage whose message has no parts', 'POST', '/message:send',
        {'message': {'messageId': 'msg-no-parts', 'role': 'ROLE_USER', 'parts': []}},
    ),
    'subscribe-completed-task': lambda s: rest(
        s,
        'SubscribeToTask: a task that already completed',
        'POST',
        f'/tasks/{rest_new_task(s, "msg-subscribe")}:subscribe',
        accept='text/event-stream',
    ),
    'list-tasks-bad-page-size': lambda s: (
        rest(s, 'ListTasks with pageSize=abc', 'GET', '/tasks?pageSize=abc', accept=A2A_JSON),
        rest(s, 'ListTasks with pageSize=1000', 'GET', '/tasks?pageSize=1000', accept=A2A_JSON),
    ),
    'stream-error': lambda s: rest_stream(
        s, 'SendStreamingMessage: the executor raises mid-stream', 'msg-fail', 'fail'
    ),
    'stream-republished-task': lambda s: rest_stream(
        s, 'SendStreamingMessage: the executor publishes the task twice', 'msg-twice', 'twice'
    ),
}

# The server configuration each scenario needs (default: plain).
CONFIG = {
    'extended-card-not-configured': 'extcard',
    'stream': 'streaming',
    'subscribe-completed-task': 'streaming',
    'stream-error': 'streaming',
    'stream-republished-task': 'streaming',
}

BINDINGS = {'jsonrpc': JSONRPC, 'http-json': HTTP_JSON}
