"""A small recording HTTP/1.1 proxy: one exchange per connection, exact wire bytes.

For every client connection the proxy reads one request, makes sure it says
`Connection: close` (it inserts the header when the request has no `Connection`
header; nothing else is ever changed), sends it to the upstream server, relays the
response back byte for byte as it arrives, and records both:

    request bytes as sent upstream + response bytes as the server sent them

The response is not decoded: a chunked body stays chunked, compressed stays
compressed. The proxy only reads the framing (Content-Length, chunked, or
read-until-close) to know where the response ends, because a server may keep the
connection open even after `Connection: close` (the @a2a-js/sdk stream handler sends
`Connection: keep-alive` on its event streams).

Used as a library by record_all.py; can also run on its own to record any client:

    python3 proxy.py --listen 9000 --upstream 127.0.0.1:8001 --out /tmp/captures
    curl -H 'Connection: close' ... http://127.0.0.1:9000/...

which writes /tmp/captures/001.http, 002.http, ... one exchange each.

With `keep_alive=True` (`--keep-alive`) the proxy instead serves clients that keep their
connections open (HTTP/1.1 persistent connections, as httpx does): for each client
connection it opens one upstream connection and relays request after request over it,
adding no header at all, and records each exchange on its own. It closes the client
connection when the upstream closes its end (uvicorn's idle timeout, say), when a
response is read to its close, or when either side says `Connection: close`; if the
client goes away in the middle of a response, what the server sent so far is recorded.
Without it (the default) nothing of this applies and the proxy behaves as above.
"""

import argparse
import pathlib
import select
import socket
import socketserver
import threading
import time

TIMEOUT = 30.0  # seconds a silent upstream may take before the exchange is abandoned
IDLE_TIMEOUT = 300.0  # keep_alive: seconds a connection may wait between two requests


class Incomplete(Exception):
    """The peer closed the connection before a complete message was read."""


class Reader:
    """Reads from a socket, keeping every byte it has read in `raw`."""

    def __init__(self, sock, on_bytes=None):
        self.sock = sock
        self.raw = bytearray()
        self.pos = 0
        self.on_bytes = on_bytes  # called with each newly received piece

    def _fill(self) -> bool:
        data = self.sock.recv(65536)
        if not data:
            return False
        self.raw += data
        if self.on_bytes:
            self.on_bytes(data)
        return True

    def until(self, marker: bytes) -> bytes:
        while True:
            end = self.raw.find(marker, self.pos)
            if end >= 0:
                piece = bytes(self.raw[self.pos : end + len(marker)])
                self.pos = end + len(marker)
                return piece
            if not self._fill():
                raise Incomplete(f'closed before {marker!r}')

    def exactly(self, n: int) -> bytes:
        while len(self.raw) - self.pos < n:
            if not self._fill():
                raise Incomplete(f'closed before {n} body bytes')
        piece = bytes(self.raw[self.pos : self.pos + n])
        self.pos += n
        return piece

    def to_close(self) -> None:
        while self._fill():
            pass
        self.pos = len(self.raw)


def header_values(head: bytes, name: bytes) -> list[bytes]:
    values = []
    for line in head.split(b'\r\n')[1:]:
        key, sep, value = line.partition(b':')
        if sep and key.strip().lower() == name:
            values.append(value.strip())
    return values


def read_request(reader: Reader, ensure_close: bool = True) -> bytes:
    """One request (head and Content-Length body), `Connection: close` ensured unless
    `ensure_close` is false (keep_alive), in which case it is returned as read."""
    head = reader.until(b'\r\n\r\n')
    if b'chunked' in b','.join(header_values(head, b'transfer-encoding')).lower():
        raise ValueError('chunked requests are not supported by this proxy')
    length = int((header_values(head, b'content-length') or [b'0'])[0])
    body = reader.exactly(length)
    if ensure_close and not header_values(head, b'connection'):
        head = head[:-2] + b'Connection: close\r\n\r\n'
    return head + body


def read_response(reader: Reader, request_method: bytes) -> None:
    """Reads one response (and any interim 1xx) to its end; the bytes stay in reader.raw."""
    while True:
        head = reader.until(b'\r\n\r\n')
        status = int(head.split(b' ', 2)[1])
        if 100 <= status < 200 and status != 101:
            continue  # interim response; the final one follows
        break
    if request_method == b'HEAD' or status in (204, 304):
        return
    codings = b','.join(header_values(head, b'transfer-encoding')).lower()
    if b'chunked' in codings:
        while True:
            size_line = reader.until(b'\r\n')
            size = int(size_line.split(b';', 1)[0].strip(), 16)
            if size == 0:
                # trailers (usually none), then the empty line
                while reader.until(b'\r\n') != b'\r\n':
                    pass
                return
            reader.exactly(size + 2)  # chunk data and its CRLF
    lengths = header_values(head, b'content-length')
    if lengths:
        reader.exactly(int(lengths[0]))
        return
    reader.to_close()  # close-delimited body


def exchange(request: bytes, upstream: tuple[str, int], relay=None) -> bytes:
    """Sends one request upstream and returns the response bytes exactly as received."""
    with socket.create_connection(upstream, timeout=TIMEOUT) as up:
        up.sendall(request)
        reader = Reader(up, on_bytes=relay)
        method = request.split(b' ', 1)[0]
        try:
            read_response(reader, method)
        except Incomplete:
            pass  # record what the server sent; a2alint reports a truncated message
        return bytes(reader.raw)


class RecordingProxy(socketserver.ThreadingTCPServer):
    """Listens on 127.0.0.1:<port>; `take()` returns the exchanges recorded so far."""

    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, upstream: tuple[str, int], port: int = 0, keep_alive: bool = False):
        self.upstream = upstream
        self.keep_alive = keep_alive
        self._recorded: list[tuple[bytes, bytes]] = []
        self._lock = threading.Lock()
        super().__init__(('127.0.0.1', port), _KeepAliveHandler if keep_alive else _Handler)

    @property
    def port(self) -> int:
        return self.server_address[1]

    def record(self, request: bytes, response: bytes, started: float | None = None) -> None:
        """Keeps one exchange. `started` (keep_alive only) is the wall-clock time, time.time(),
        at which the request's first bytes arrived; a subclass may use it."""
        with self._lock:
            self._recorded.append((request, response))

    def take(self) -> list[tuple[bytes, bytes]]:
        with self._lock:
            taken, self._recorded = self._recorded, []
        return taken

    def start(self) -> 'RecordingProxy':
        threading.Thread(target=self.serve_forever, daemon=True).start()
        return self


class _Handler(socketserver.BaseRequestHandler):
    def handle(self) -> None:
        client = self.request
        client.settimeout(TIMEOUT)
        request = read_request(Reader(client))
        response = exchange(request, self.server.upstream, relay=client.sendall)
        self.server.record(request, response)


class _KeepAliveHandler(socketserver.BaseRequestHandler):
    """keep_alive: every request of one client connection, over one upstream connection."""

    def handle(self) -> None:
        client = self.request
        client.settimeout(TIMEOUT)
        requests = Reader(client)
        try:
            up = socket.create_connection(self.server.upstream, timeout=TIMEOUT)
        except OSError:
            return
        with up:
            responses = Reader(up, on_bytes=client.sendall)
            while self._next_request(client, up, requests):
                started = time.time()
                try:
                    request = read_request(requests, ensure_close=False)
                except (Incomplete, OSError):
                    return  # the client closed (or broke) the connection between requests
                del requests.raw[:requests.pos]
                requests.pos = 0
                if not self._exchange(request, up, responses, started):
                    return

    def _next_request(self, client, up, requests: Reader) -> bool:
        """Waits until the client sends (true) or the upstream closes the idle connection."""
        if requests.pos < len(requests.raw):
            return True  # bytes of the next request are already read
        readable, _, _ = select.select([client, up], [], [], IDLE_TIMEOUT)
        if client in readable:
            return True
        return False  # upstream closed (or spoke out of turn), or idle too long: close both

    def _exchange(self, request: bytes, up, responses: Reader, started: float) -> bool:
        """One request and its response, recorded; true if the connection stays open."""
        start = responses.pos
        keep = True
        try:
            up.sendall(request)
            read_response(responses, request.split(b' ', 1)[0])
        except Incomplete:
            keep = False  # the server closed; what it sent is recorded
        except OSError:
            keep = False  # the client went away mid-response (or the upstream broke)
            responses.pos = len(responses.raw)
        response = bytes(responses.raw[start:responses.pos])
        del responses.raw[:responses.pos]
        responses.pos = 0
        self.server.record(request, response, started=started)
        if not keep or not response:
            return False
        head = response.split(b'\r\n\r\n', 1)[0]
        closing = header_values(request.split(b'\r\n\r\n', 1)[0], b'connection') + header_values(head, b'connection')
        if any(b'close' in value.lower() for value in closing):
            return False
        lengths = header_values(head, b'content-length')
        codings = b','.join(header_values(head, b'transfer-encoding')).lower()
        status = int(head.split(b' ', 2)[1]) if head.startswith(b'HTTP/') else 0
        delimited = lengths or b'chunked' in codings or status in (204, 304) or request.startswith(b'HEAD ')
        return bool(delimited)  # a close-delimited body ended with the connection


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--listen', type=int, required=True)
    parser.add_argument('--upstream', required=True, help='host:port')
    parser.add_argument('--out', type=pathlib.Path, required=True)
    parser.add_argument('--keep-alive', action='store_true',
                        help='relay several requests per client connection (persistent connections)')
    args = parser.parse_args()
    host, port = args.upstream.rsplit(':', 1)
    args.out.mkdir(parents=True, exist_ok=True)
    proxy = RecordingProxy((host, int(port)), args.listen, keep_alive=args.keep_alive).start()
    print(f'recording 127.0.0.1:{proxy.port} -> {args.upstream} into {args.out}')
    count = 0
    try:
        while True:
            threading.Event().wait(0.2)
            for request, response in proxy.take():
                count += 1
                (args.out / f'{count:03}.http').write_bytes(request + response)
    except KeyboardInterrupt:
        proxy.shutdown()


if __name__ == '__main__':
    main()
