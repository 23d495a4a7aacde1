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
"""

import argparse
import pathlib
import socket
import socketserver
import threading

TIMEOUT = 30.0  # seconds a silent upstream may take before the exchange is abandoned


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


def read_request(reader: Reader) -> bytes:
    """One request (head and Content-Length body), `Connection: close` ensured."""
    head = reader.until(b'\r\n\r\n')
    if b'chunked' in b','.join(header_values(head, b'transfer-encoding')).lower():
        raise ValueError('chunked requests are not supported by this proxy')
    length = int((header_values(head, b'content-length') or [b'0'])[0])
    body = reader.exactly(length)
    if not header_values(head, b'connection'):
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

    def __init__(self, upstream: tuple[str, int], port: int = 0):
        self.upstream = upstream
        self._recorded: list[tuple[bytes, bytes]] = []
        self._lock = threading.Lock()
        super().__init__(('127.0.0.1', port), _Handler)

    @property
    def port(self) -> int:
        return self.server_address[1]

    def record(self, request: bytes, response: bytes) -> None:
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--listen', type=int, required=True)
    parser.add_argument('--upstream', required=True, help='host:port')
    parser.add_argument('--out', type=pathlib.Path, required=True)
    args = parser.parse_args()
    host, port = args.upstream.rsplit(':', 1)
    args.out.mkdir(parents=True, exist_ok=True)
    proxy = RecordingProxy((host, int(port)), args.listen).start()
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
