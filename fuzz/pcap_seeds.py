#!/usr/bin/env python3
"""Writes the seed corpora of the `pcap_reader` and `h2_decoder` fuzz targets.

    fuzz/pcap_seeds.py CORPUS_DIR        (fuzz/seed.sh calls it with fuzz/corpus)

No fixture holds a capture file, so the seeds are built here: small, valid pcap and
pcapng files whose packets carry TCP conversations with HTTP/1.1 and HTTP/2 traffic, each
exercising one part of the wire reader (containers, link layers, IP versions, TCP
reassembly, HTTP framing, HTTP/2 frames and HPACK). Everything is deterministic: running
it twice writes the same bytes. Only the standard library is used.

`h2_decoder` seeds are the two directions of the same HTTP/2 conversations, laid out as
that target reads its input: the client's length (two bytes, big-endian), a flags byte,
an order byte, the client's bytes (without the connection preface, which flag bit 0
puts back), then the server's bytes. See fuzz/fuzz_targets/h2_decoder.rs.
"""

import gzip
import os
import struct
import sys

# ---------------------------------------------------------------------------------------
# HTTP/2 frames and HPACK (RFC 9113, RFC 7541)
# ---------------------------------------------------------------------------------------

PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"

DATA, HEADERS, PRIORITY, RST_STREAM, SETTINGS, PUSH_PROMISE, PING, GOAWAY, WINDOW_UPDATE, CONTINUATION = range(10)
END_STREAM = 0x1
ACK = 0x1
END_HEADERS = 0x4
PADDED = 0x8
PRIORITY_FLAG = 0x20


def frame(kind, flags, stream, payload=b""):
    return struct.pack(">I", len(payload))[1:] + bytes([kind, flags]) + struct.pack(">I", stream) + payload


def settings(*pairs, ack=False):
    return frame(SETTINGS, ACK if ack else 0, 0, b"".join(struct.pack(">HI", k, v) for k, v in pairs))


def window_update(stream, increment):
    return frame(WINDOW_UPDATE, 0, stream, struct.pack(">I", increment))


def hpack_int(value, bits, flags):
    """An HPACK integer with a `bits`-bit prefix, the other bits of the first byte `flags`."""
    top = (1 << bits) - 1
    if value < top:
        return bytes([flags | value])
    out = [flags | top]
    value -= top
    while value >= 0x80:
        out.append(0x80 | (value & 0x7F))
        value >>= 7
    out.append(value)
    return bytes(out)


def hstr(value):
    """A string literal, not Huffman-coded."""
    if isinstance(value, str):
        value = value.encode()
    return hpack_int(len(value), 7, 0x00) + value


def huffman(coded):
    """A string literal already Huffman-coded (the bytes come from RFC 7541 appendix C)."""
    return hpack_int(len(coded), 7, 0x80) + coded


# Huffman codings from RFC 7541 appendix C.4 and C.6.
HUFF_WWW_EXAMPLE_COM = bytes.fromhex("f1e3c2e5f23a6ba0ab90f4ff")
HUFF_NO_CACHE = bytes.fromhex("a8eb10649cbf")
HUFF_302 = bytes.fromhex("6402")
HUFF_PRIVATE = bytes.fromhex("aec3771a4b")


def indexed(index):
    return hpack_int(index, 7, 0x80)


def literal(name, value, mode="plain"):
    """A literal field: `name` is a table index or a new name; `value` a string or the
    output of `huffman`. `mode` is "index" (incremental indexing), "plain" (without
    indexing) or "never" (never indexed)."""
    bits, flags = {"index": (6, 0x40), "plain": (4, 0x00), "never": (4, 0x10)}[mode]
    head = hpack_int(name, bits, flags) if isinstance(name, int) else hpack_int(0, bits, flags) + hstr(name)
    return head + (value if isinstance(value, bytes) else hstr(value))


def table_size(size):
    return hpack_int(size, 5, 0x20)


# Static table indices used below (RFC 7541 appendix A).
AUTHORITY, GET, POST, PATH_ROOT, HTTP, HTTPS, STATUS_200, STATUS_204 = 1, 2, 3, 4, 6, 7, 8, 9
STATUS_404, STATUS_500, ACCEPT, CACHE_CONTROL, CONTENT_ENCODING, CONTENT_LENGTH = 13, 14, 19, 24, 26, 28
CONTENT_TYPE, DATE, LOCATION, USER_AGENT = 31, 33, 46, 58

# ---------------------------------------------------------------------------------------
# A2A-shaped bodies
# ---------------------------------------------------------------------------------------

SEND = b'{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"messageId":"m-1","role":"ROLE_USER","parts":[{"text":"hello"}]}}}'
SENT = b'{"jsonrpc":"2.0","id":1,"result":{"task":{"id":"t-1","contextId":"c-1","status":{"state":"TASK_STATE_COMPLETED"}}}}'
GET_TASK = b'{"jsonrpc":"2.0","id":2,"method":"GetTask","params":{"id":"t-404"}}'
NOT_FOUND = b'{"jsonrpc":"2.0","id":2,"error":{"code":-32001,"message":"Task not found","data":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"TASK_NOT_FOUND","domain":"a2a-protocol.org"}]}}'
STREAM = b'{"jsonrpc":"2.0","id":3,"method":"SendStreamingMessage","params":{"message":{"messageId":"m-3","role":"ROLE_USER","parts":[{"text":"stream"}]}}}'
EVENTS = [
    b'data: {"jsonrpc":"2.0","id":3,"result":{"statusUpdate":{"taskId":"t-3","status":{"state":"TASK_STATE_WORKING"}}}}\n\n',
    b'data: {"jsonrpc":"2.0","id":3,"result":{"statusUpdate":{"taskId":"t-3","status":{"state":"TASK_STATE_COMPLETED"},"final":true}}}\n\n',
]
REST_ERROR = b'{"error":{"code":404,"status":"NOT_FOUND","message":"Task t-9 not found"}}'
BAD_JSON = b'{"jsonrpc":"2.0","id":4,"error":{"code":-32603,'


def http1_request(method, target, body=b"", headers=(), chunked=False):
    head = f"{method} {target} HTTP/1.1\r\nHost: agent.example\r\n".encode()
    for name, value in headers:
        head += f"{name}: {value}\r\n".encode()
    if chunked:
        head += b"Transfer-Encoding: chunked\r\n\r\n"
        return head + chunk(body, [7, 30])
    if body or method == "POST":
        head += f"Content-Length: {len(body)}\r\n".encode()
    return head + b"\r\n" + body


def http1_response(status, reason, body=b"", headers=(), chunked=False, sizes=(16, 64)):
    head = f"HTTP/1.1 {status} {reason}\r\n".encode()
    for name, value in headers:
        head += f"{name}: {value}\r\n".encode()
    if chunked:
        return head + b"Transfer-Encoding: chunked\r\n\r\n" + chunk(body, sizes)
    return head + f"Content-Length: {len(body)}\r\n\r\n".encode() + body


def chunk(body, sizes):
    """`body` in chunks of the sizes given (the last repeated), with an extension on one
    chunk, then the last chunk and a trailer."""
    out, at, n = b"", 0, 0
    while at < len(body):
        size = sizes[min(n, len(sizes) - 1)]
        piece = body[at:at + size]
        ext = b";ext=1" if n == 1 else b""
        out += b"%x%s\r\n%s\r\n" % (len(piece), ext, piece)
        at += size
        n += 1
    return out + b"0\r\nX-Trailer: done\r\n\r\n"


JSON = [("Content-Type", "application/json")]
VERSION = [("A2A-Version", "1.0")]

# ---------------------------------------------------------------------------------------
# TCP conversations
# ---------------------------------------------------------------------------------------

FIN, SYN, RST, PSH, ACKF = 0x01, 0x02, 0x04, 0x08, 0x10


class Conversation:
    """One TCP connection, turn by turn. Side 0 is the client."""

    def __init__(self, client, server, isn=(1000, 70000), mss=1400):
        self.peers = (client, server)
        self.seq = list(isn)
        self.mss = mss
        self.segments = []  # (side, flags, seq, ack, payload)

    def _seg(self, side, flags, payload=b""):
        self.segments.append((side, flags, self.seq[side] & 0xFFFFFFFF, self.seq[1 - side] & 0xFFFFFFFF, payload))
        self.seq[side] += len(payload) + (1 if flags & (SYN | FIN) else 0)

    def handshake(self):
        self._seg(0, SYN)
        self._seg(1, SYN | ACKF)
        self._seg(0, ACKF)
        return self

    def send(self, side, data, mss=None):
        mss = mss or self.mss
        for at in range(0, len(data), mss):
            self._seg(side, PSH | ACKF, data[at:at + mss])
        self._seg(1 - side, ACKF)
        return self

    def close(self):
        self._seg(0, FIN | ACKF)
        self._seg(1, FIN | ACKF)
        self._seg(0, ACKF)
        return self

    def reset(self, side):
        self._seg(side, RST | ACKF)
        return self

    def packets(self):
        return [(self.peers[s], self.peers[1 - s], tcp_segment(f, q, a, p)) for s, f, q, a, p in self.segments]


def tcp_segment(flags, seq, ack, payload):
    return ("tcp", flags, seq, ack, payload)


def payload_indices(packets):
    return [i for i, p in enumerate(packets) if p[2][0] == "tcp" and p[2][4]]


def interleave(*lists):
    """One packet of each list in turn, until all are used."""
    out = []
    for n in range(max(len(l) for l in lists)):
        out.extend(l[n] for l in lists if n < len(l))
    return out


# ---------------------------------------------------------------------------------------
# IP, TCP and link headers
# ---------------------------------------------------------------------------------------


def checksum(data):
    if len(data) % 2:
        data += b"\0"
    total = sum(struct.unpack(f">{len(data) // 2}H", data))
    while total >> 16:
        total = (total & 0xFFFF) + (total >> 16)
    return ~total & 0xFFFF


def ip_bytes(addr):
    if ":" in addr:
        import ipaddress
        return ipaddress.IPv6Address(addr).packed
    return bytes(int(x) for x in addr.split("."))


IP_ID = [0x1000]


def ip_packet(src, dst, proto, l4, frag=None):
    """An IPv4 or IPv6 packet around `l4`; `frag` = (offset in 8-byte units, more) makes
    an IPv4 fragment."""
    s, d = ip_bytes(src), ip_bytes(dst)
    if len(s) == 16:
        return struct.pack(">IHBB", 6 << 28, len(l4), proto, 64) + s + d + l4
    IP_ID[0] += 1
    flags = 0x4000 if frag is None else (0x2000 if frag[1] else 0) | frag[0]
    head = struct.pack(">BBHHHBBH", 0x45, 0, 20 + len(l4), IP_ID[0], flags, 64, proto, 0) + s + d
    return head[:10] + struct.pack(">H", checksum(head)) + head[12:] + l4


def tcp_bytes(src, dst, seg):
    _, flags, seq, ack, payload = seg
    (sip, sport), (dip, dport) = src, dst
    options = struct.pack(">BBH", 2, 4, 1460) if flags & SYN else b""
    offset = (20 + len(options)) // 4
    head = struct.pack(">HHIIBBHHH", sport, dport, seq, ack if flags & ACKF else 0, offset << 4, flags, 65535, 0, 0) + options
    s, d = ip_bytes(sip), ip_bytes(dip)
    total = len(head) + len(payload)
    pseudo = s + d + (struct.pack(">BBH", 0, 6, total) if len(s) == 4 else struct.pack(">IxxxB", total, 6))
    csum = checksum(pseudo + head + payload)
    return head[:16] + struct.pack(">H", csum) + head[18:] + payload


def udp_bytes(sport, dport, payload):
    return struct.pack(">HHHH", sport, dport, 8 + len(payload), 0) + payload


def mac(ip):
    return b"\x02\x00" + ip_bytes(ip)[-4:]


ETH_IP4, ETH_IP6, ETH_VLAN, ETH_ARP = 0x0800, 0x86DD, 0x8100, 0x0806

# Link types (tcpdump.org/linktypes.html)
NULL, ETHERNET, RAW, LOOP, LINUX_SLL, LINUX_SLL2, IPV4, IPV6 = 0, 1, 101, 108, 113, 276, 228, 229


def link_frame(link, src_ip, dst_ip, ip, little=True, vlan=False):
    """`ip` (an IP packet) framed for `link`."""
    six = ":" in src_ip
    ethertype = ETH_IP6 if six else ETH_IP4
    if link == ETHERNET:
        head = mac(dst_ip) + mac(src_ip)
        if vlan:
            head += struct.pack(">HH", ETH_VLAN, 100)
        return head + struct.pack(">H", ethertype) + ip
    if link == LINUX_SLL:
        return struct.pack(">HHH", 4, 1, 6) + mac(src_ip) + b"\0\0" + struct.pack(">H", ethertype) + ip
    if link == LINUX_SLL2:
        return struct.pack(">HHIHBB", ethertype, 0, 2, 1, 4, 6) + mac(src_ip) + b"\0\0" + ip
    if link == NULL:
        return struct.pack("<I" if little else ">I", 30 if six else 2) + ip
    if link == LOOP:
        return struct.pack(">I", 24 if six else 2) + ip
    return ip  # RAW, IPV4, IPV6


def packet_bytes(link, packet, little=True, vlan=False):
    src, dst, what = packet
    if what[0] == "tcp":
        ip = ip_packet(src[0], dst[0], 6, tcp_bytes(src, dst, what))
    elif what[0] == "udp":
        ip = ip_packet(src[0], dst[0], 17, udp_bytes(src[1], dst[1], what[1]))
    elif what[0] == "fragment":
        ip = ip_packet(src[0], dst[0], 6, what[2], frag=what[1])
    elif what[0] == "arp":
        arp = struct.pack(">HHBBH", 1, ETH_IP4, 6, 4, 1) + mac(src[0]) + ip_bytes(src[0]) + b"\0" * 6 + ip_bytes(dst[0])
        return b"\xff" * 6 + mac(src[0]) + struct.pack(">H", ETH_ARP) + arp
    else:  # raw link bytes
        return what[1]
    return link_frame(link, src[0], dst[0], ip, little, vlan)


# ---------------------------------------------------------------------------------------
# Containers
# ---------------------------------------------------------------------------------------

T0 = 1_700_000_000


def pcap(link, frames, little=True, nanos=False, snaplen=262144):
    """Classic pcap: `frames` are link-layer bytes, or (bytes, original length) for a
    packet the snapshot length cut."""
    e = "<" if little else ">"
    magic = 0xA1B23C4D if nanos else 0xA1B2C3D4
    out = struct.pack(e + "IHHiIII", magic, 2, 4, 0, 0, snaplen, link)
    for n, data in enumerate(frames):
        data, orig = data if isinstance(data, tuple) else (data, len(data))
        micros = n * 1000  # a frame every millisecond
        sub = micros % 1_000_000 * (1000 if nanos else 1)
        out += struct.pack(e + "IIII", T0 + micros // 1_000_000, sub, len(data), orig) + data
    return out


def pad4(data):
    return data + b"\0" * (-len(data) % 4)


def option(code, value, e):
    return struct.pack(e + "HH", code, len(value)) + pad4(value)


def block(kind, body, e):
    total = 12 + len(body)
    return struct.pack(e + "II", kind, total) + body + struct.pack(e + "I", total)


def shb(e, app=b"a2alint pcap_seeds.py"):
    body = struct.pack(e + "IHHq", 0x1A2B3C4D, 1, 0, -1) + option(4, app, e) + option(0, b"", e)
    return block(0x0A0D0D0A, body, e)


def idb(link, e, name=b"lo", tsresol=None, snaplen=0):
    opts = option(2, name, e)
    if tsresol is not None:
        opts += option(9, bytes([tsresol]), e)
    return block(1, struct.pack(e + "HHI", link, 0, snaplen) + opts + option(0, b"", e), e)


def epb(iface, data, n, e, orig=None, comment=None, nanos=False):
    ts = (T0 * 1_000_000 + n * 1000) * (1000 if nanos else 1)
    body = struct.pack(e + "IIIII", iface, ts >> 32, ts & 0xFFFFFFFF, len(data), orig or len(data)) + pad4(data)
    if comment:
        body += option(1, comment, e) + option(0, b"", e)
    return block(6, body, e)


def spb(data, e):
    return block(3, struct.pack(e + "I", len(data)) + pad4(data), e)


def isb(iface, e):
    return block(5, struct.pack(e + "III", iface, 0, 0) + option(0, b"", e), e)


def nrb(e):
    value = bytes([127, 0, 0, 1]) + b"agent.local\0"
    record = struct.pack(e + "HH", 1, len(value)) + pad4(value)
    return block(4, record + struct.pack(e + "HH", 0, 0), e)


def unknown_block(e):
    return block(0x00000A2A, b"a2alint!", e)


# ---------------------------------------------------------------------------------------
# The conversations
# ---------------------------------------------------------------------------------------

C4, S4 = ("10.0.0.1", 40000), ("10.0.0.2", 8080)
C6, S6 = ("fd00::1", 40001), ("fd00::2", 8080)


def keep_alive(client=C4, server=S4, mss=1400):
    """Three exchanges on one connection: Content-Length both ways; a chunked request
    answered by a chunked JSON-RPC error; a streaming request answered with chunked SSE."""
    conv = Conversation(client, server, mss=mss).handshake()
    conv.send(0, http1_request("POST", "/a2a", SEND, JSON + VERSION))
    conv.send(1, http1_response(200, "OK", SENT, JSON))
    conv.send(0, http1_request("POST", "/a2a", GET_TASK, JSON + VERSION, chunked=True))
    conv.send(1, http1_response(200, "OK", NOT_FOUND, JSON, chunked=True))
    conv.send(0, http1_request("POST", "/a2a", STREAM, JSON + VERSION + [("Accept", "text/event-stream")]))
    conv.send(1, http1_response(200, "OK", b"".join(EVENTS), [("Content-Type", "text/event-stream")], chunked=True, sizes=(50, 200)))
    return conv.close()


def varied_http1(client=C6, server=S6):
    """A 100 Continue, a gzip body, a HEAD, a 204, a REST error, and a response whose
    body is cut by the connection closing (no length)."""
    conv = Conversation(client, server, isn=(0xFFFFFF00, 0x7FFFFFF0)).handshake()  # sequence wrap
    conv.send(0, http1_request("POST", "/v1/message:send", SEND, JSON + [("Expect", "100-continue")]))
    conv.send(1, b"HTTP/1.1 100 Continue\r\n\r\n" + http1_response(200, "OK", gzip.compress(SENT, mtime=0), JSON + [("Content-Encoding", "gzip")]))
    conv.send(0, http1_request("HEAD", "/.well-known/agent-card.json"))
    conv.send(1, b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 512\r\n\r\n")
    conv.send(0, http1_request("DELETE", "/v1/tasks/t-1/pushNotificationConfigs/p-1"))
    conv.send(1, b"HTTP/1.1 204 No Content\r\n\r\n")
    conv.send(0, http1_request("GET", "/v1/tasks/t-9"))
    conv.send(1, http1_response(404, "Not Found", REST_ERROR, [("Content-Type", "application/json")]))
    conv.send(0, http1_request("POST", "/a2a", SEND, JSON, chunked=True))
    conv.send(1, b"HTTP/1.0 500 Internal Server Error\r\nContent-Type: application/json\r\n\r\n" + BAD_JSON)
    return conv.close()


def h2_conversation(upgrade=False):
    """HTTP/2 both ways, as turns `(side, bytes)` (side 0 the client, whose first turn
    lacks the preface): SETTINGS, WINDOW_UPDATE, three requests (the second using the
    dynamic table, the third cut into HEADERS + CONTINUATION with a Huffman authority
    and a priority), responses with DATA (one padded), gzip content, SSE events,
    trailers, a PING, a RST_STREAM and a GOAWAY. With `upgrade`, stream 1's request was
    the HTTP/1.1 one and the turns start with the server's."""
    req1 = b"".join([
        indexed(POST), indexed(HTTP), literal(PATH_ROOT, "/a2a"),
        literal(AUTHORITY, "agent.example", "index"),  # dynamic 62
        literal(CONTENT_TYPE, "application/json", "index"),  # dynamic 62, authority 63
        literal("a2a-version", "1.0"),
        literal(USER_AGENT, "pcap-seeds/1", "never"),
    ])
    # Stream 3: authority and content type from the dynamic table (after an upgrade,
    # stream 1 filled no table, so stream 3 does what stream 1 would have).
    req3 = req1 if upgrade else b"".join([
        indexed(POST), indexed(HTTP), literal(PATH_ROOT, "/a2a"), indexed(63), indexed(62),
        literal("a2a-version", "1.0"),
    ])
    req5 = b"".join([  # stream 5: a table size update, a Huffman authority
        table_size(4096), indexed(POST), indexed(HTTPS), literal(PATH_ROOT, "/a2a"),
        literal(AUTHORITY, huffman(HUFF_WWW_EXAMPLE_COM)), literal(CONTENT_TYPE, "application/json"),
        literal(ACCEPT, "text/event-stream"), literal(CACHE_CONTROL, huffman(HUFF_NO_CACHE)),
    ])
    resp1 = indexed(STATUS_200) + literal(CONTENT_TYPE, "application/json", "index") + literal(CONTENT_ENCODING, "gzip")
    body1 = gzip.compress(SENT, mtime=0)
    resp3 = indexed(STATUS_200) + indexed(62) + literal(CONTENT_LENGTH, str(len(NOT_FOUND)))
    resp5 = indexed(STATUS_200) + literal(CONTENT_TYPE, "text/event-stream") + literal(DATE, "Mon, 21 Oct 2013 20:13:21 GMT")
    trailers = literal("grpc-status", "0") + literal("x-done", huffman(HUFF_PRIVATE))

    hello = settings((2, 0), (4, 1 << 20)) + window_update(0, 1 << 24)
    first = frame(HEADERS, END_HEADERS, 1, req1) + frame(DATA, END_STREAM, 1, SEND)
    server_hello = settings((3, 100), (5, 16384)) + settings(ack=True)
    answer1 = frame(HEADERS, END_HEADERS, 1, resp1) + frame(DATA, PADDED, 1, bytes([5]) + body1[:10] + b"\0" * 5) + frame(DATA, END_STREAM, 1, body1[10:])
    more = (settings(ack=True)
            + frame(HEADERS, END_HEADERS, 3, req3) + frame(DATA, 0, 3, GET_TASK[:20]) + frame(DATA, END_STREAM, 3, GET_TASK[20:])
            + frame(HEADERS, PRIORITY_FLAG, 5, struct.pack(">IB", 3, 15) + req5[:9]) + frame(CONTINUATION, END_HEADERS, 5, req5[9:])
            + frame(DATA, END_STREAM, 5, STREAM)
            + frame(PING, 0, 0, b"pingpong")
            + frame(HEADERS, END_HEADERS | END_STREAM, 7, indexed(GET) + indexed(HTTP) + literal(PATH_ROOT, "/.well-known/agent-card.json") + indexed(63)))
    answers = frame(PING, ACK, 0, b"pingpong") + frame(HEADERS, END_HEADERS, 3, resp3) + frame(DATA, END_STREAM, 3, NOT_FOUND)
    answers += frame(HEADERS, END_HEADERS, 5, resp5) + b"".join(frame(DATA, 0, 5, event) for event in EVENTS)
    answers += frame(HEADERS, END_HEADERS | END_STREAM, 5, trailers)
    cancel = frame(RST_STREAM, 0, 7, struct.pack(">I", 8))  # CANCEL
    goaway = frame(GOAWAY, 0, 0, struct.pack(">II", 7, 0) + b"bye")
    if upgrade:
        return [(1, server_hello + answer1), (0, hello + more), (1, answers), (0, cancel), (1, goaway)]
    return [(0, hello + first), (1, server_hello + answer1), (0, more), (1, answers), (0, cancel), (1, goaway)]


def h2_small():
    """The smallest prior-knowledge exchange: SETTINGS, HEADERS and DATA each way."""
    return [
        (0, settings() + frame(HEADERS, END_HEADERS, 1, indexed(POST) + indexed(HTTP) + indexed(PATH_ROOT) + literal(AUTHORITY, "a")) + frame(DATA, END_STREAM, 1, b"{}")),
        (1, settings() + settings(ack=True) + frame(HEADERS, END_HEADERS, 1, indexed(STATUS_500) + literal(CONTENT_TYPE, "application/json")) + frame(DATA, END_STREAM, 1, BAD_JSON)),
        (0, settings(ack=True)),
    ]


def h2_interim():
    """A 100-continue interim response, a 302 with a Huffman status, and a response the
    capture ends inside."""
    req = indexed(POST) + indexed(HTTP) + literal(PATH_ROOT, "/a2a") + literal(AUTHORITY, "agent.example") + literal("expect", "100-continue")
    return [
        (0, settings() + frame(HEADERS, END_HEADERS, 1, req)),
        (1, settings() + settings(ack=True) + frame(HEADERS, END_HEADERS, 1, literal(8, "100"))),
        (0, settings(ack=True) + frame(DATA, END_STREAM, 1, SEND)
            + frame(HEADERS, END_HEADERS | END_STREAM, 3, indexed(GET) + indexed(HTTP) + indexed(PATH_ROOT) + literal(AUTHORITY, "agent.example"))
            + frame(HEADERS, END_HEADERS, 5, req) + frame(DATA, END_STREAM, 5, STREAM)),
        (1, frame(HEADERS, END_HEADERS, 1, indexed(STATUS_200) + literal(CONTENT_TYPE, "application/json")) + frame(DATA, END_STREAM, 1, SENT)
            + frame(HEADERS, END_HEADERS | END_STREAM, 3, literal(8, huffman(HUFF_302)) + literal(LOCATION, "/elsewhere"))
            + frame(HEADERS, END_HEADERS, 5, indexed(STATUS_200) + literal(CONTENT_TYPE, "text/event-stream")) + frame(DATA, 0, 5, EVENTS[0][:40])),
    ]


UPGRADE_REQUEST = (b"POST /a2a HTTP/1.1\r\nHost: agent.example\r\nConnection: Upgrade, HTTP2-Settings\r\n"
                   b"Upgrade: h2c\r\nHTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\nContent-Type: application/json\r\n"
                   b"Content-Length: %d\r\n\r\n%s" % (len(SEND), SEND))
UPGRADE_GET = (b"GET /.well-known/agent-card.json HTTP/1.1\r\nHost: agent.example\r\nConnection: Upgrade, "
               b"HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n\r\n")
SWITCHING = b"HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: h2c\r\n\r\n"


def with_preface(turns):
    """The turns with the preface before the client's first bytes."""
    out, done = [], False
    for side, data in turns:
        if side == 0 and not done:
            data, done = PREFACE + data, True
        out.append((side, data))
    return out


def h2_tcp(turns, client=C4, server=S4, mss=1400, handshake=True):
    conv = Conversation(client, server, mss=mss)
    if handshake:
        conv.handshake()
    for side, data in turns:
        conv.send(side, data)
    return conv


def sides(turns):
    return (b"".join(d for s, d in turns if s == 0), b"".join(d for s, d in turns if s == 1))


# ---------------------------------------------------------------------------------------
# The seed files
# ---------------------------------------------------------------------------------------


def frames_of(packets, link, little=True, vlan=False):
    return [packet_bytes(link, p, little, vlan) for p in packets]


def seeds():
    out = {}
    # Classic pcap, little-endian, Ethernet, IPv4: HTTP/1.1 keep-alive.
    out["pcap-le-ethernet-keepalive.pcap"] = pcap(ETHERNET, frames_of(keep_alive().packets(), ETHERNET))
    # Big-endian, nanoseconds, Linux cooked v1, IPv6, and odd HTTP/1.x.
    out["pcap-be-nanos-sll-ipv6.pcap"] = pcap(LINUX_SLL, frames_of(varied_http1().packets(), LINUX_SLL, False), little=False, nanos=True)
    # Linux cooked v2, the same over IPv4 with tiny segments.
    out["pcap-sll2-small-segments.pcap"] = pcap(LINUX_SLL2, frames_of(keep_alive(mss=97).packets(), LINUX_SLL2))

    # NULL (BSD loopback), big-endian file: out-of-order, retransmitted and overlapping segments.
    pk = keep_alive(C4, S4, mss=60).packets()
    runs = [i for i in payload_indices(pk) if i + 1 in payload_indices(pk) and pk[i][0] == pk[i + 1][0]]
    a, b, c = runs[1], runs[len(runs) // 2], runs[-2]
    # Overlap: a segment holding the end of one segment and the start of the next.
    src, dst, (_, fl, seq, ack, payload) = pk[c]
    after = pk[c + 1][2][4]
    pk.insert(c + 2, (src, dst, tcp_segment(fl, (seq + 20) & 0xFFFFFFFF, ack, payload[20:] + after[:25])))
    pk.insert(b + 3, pk[b])  # a retransmission, two segments late
    pk[a], pk[a + 1] = pk[a + 1], pk[a]  # out of order
    out["pcap-null-reordered.pcap"] = pcap(NULL, frames_of(pk, NULL, False), little=False)
    # The same on DLT_LOOP, little-endian.
    out["pcap-loop-reordered.pcap"] = pcap(LOOP, frames_of(pk, LOOP))

    # Raw IP, IPv6: a segment missing (a gap) in the server's direction.
    pk = keep_alive(C6, S6, mss=200).packets()
    server_data = [i for i in payload_indices(pk) if pk[i][0] == S6]
    del pk[server_data[1]]
    out["pcap-raw-ipv6-gap.pcap"] = pcap(RAW, frames_of(pk, RAW))

    # Snapshot length cutting packets, a RST, UDP, ARP and an IP fragment on Ethernet.
    conv = Conversation(("192.168.1.5", 51000), ("192.168.1.9", 80)).handshake()
    conv.send(0, http1_request("POST", "/a2a", SEND * 4, JSON))
    conv.send(1, http1_response(200, "OK", SENT, JSON))
    conv.reset(0)
    pk = conv.packets()
    frames = frames_of(pk, ETHERNET)
    first_data = payload_indices(pk)[0]
    frames[first_data] = (frames[first_data][:200], len(frames[first_data]))
    frames.insert(0, packet_bytes(ETHERNET, (("192.168.1.5", 5353), ("224.0.0.251", 5353), ("udp", b"\0" * 12))))
    frames.insert(1, packet_bytes(ETHERNET, (("192.168.1.5", 0), ("192.168.1.9", 0), ("arp",))))
    frames.append(packet_bytes(ETHERNET, (("192.168.1.5", 0), ("192.168.1.9", 0), ("fragment", (0, True), b"\x9c\x40" + b"\0" * 30))))
    out["pcap-snaplen-reset-other.pcap"] = pcap(ETHERNET, frames, snaplen=200)

    # TLS (not read), two interleaved connections, port reuse with a new SYN.
    tls = Conversation(("10.0.0.7", 44000), ("10.0.0.8", 443)).handshake()
    tls.send(0, b"\x16\x03\x01\x00\x05\x01\x00\x00\x01\x00").send(1, b"\x16\x03\x03\x00\x02\x02\x00").close()
    first = keep_alive(("10.0.0.1", 40010), S4)
    again = Conversation(("10.0.0.1", 40010), S4, isn=(900000, 123)).handshake()
    again.send(0, http1_request("POST", "/a2a", SEND, JSON)).send(1, http1_response(200, "OK", SENT, JSON)).close()
    joined = Conversation(("10.0.0.3", 40020), S4, isn=(5, 5))  # joined after its handshake
    joined.send(0, http1_request("GET", "/v1/tasks/t-1")).send(1, http1_response(200, "OK", SENT, JSON))
    pk = interleave(tls.packets(), first.packets(), joined.packets()) + again.packets()
    out["pcap-tls-interleaved-reuse.pcap"] = pcap(ETHERNET, frames_of(pk, ETHERNET, vlan=True))

    # pcapng, one section, three interfaces (Ethernet with VLAN, raw IP, Linux cooked
    # v2), options, statistics, name resolution and an unknown block, a simple packet.
    e = "<"
    h1 = keep_alive().packets()
    h1v6 = varied_http1().packets()
    h2 = h2_tcp(with_preface(h2_small()), ("10.0.0.4", 40030), S4).packets()
    body = shb(e) + idb(ETHERNET, e, b"eth0", 6) + idb(RAW, e, b"tun0", 9) + nrb(e) + idb(LINUX_SLL2, e, b"any")
    n = 0
    for i, (iface, link, packets) in enumerate([(0, ETHERNET, h1), (1, RAW, h1v6), (2, LINUX_SLL2, h2)]):
        for p in packets:
            comment = b"seed" if n % 7 == 0 else None
            body += epb(iface, packet_bytes(link, p, vlan=True), n, e, comment=comment, nanos=iface == 1)
            n += 1
        if i == 0:
            body += unknown_block(e)
    body += isb(0, e)
    out["pcapng-three-interfaces.pcapng"] = body
    # A simple packet block belongs to the first interface.
    spb_body = shb(e) + idb(ETHERNET, e) + b"".join(spb(f, e) for f in frames_of(keep_alive().packets(), ETHERNET))
    out["pcapng-simple-packets.pcapng"] = spb_body

    # pcapng: a little-endian section, then a big-endian one (the byte order changes).
    e2 = ">"
    two = shb(e) + idb(ETHERNET, e) + b"".join(epb(0, f, i, e) for i, f in enumerate(frames_of(h2_tcp(with_preface(h2_interim())).packets(), ETHERNET)))
    two += shb(e2) + idb(NULL, e2) + idb(IPV6, e2) + b"".join(epb(1, f, i, e2) for i, f in enumerate(frames_of(varied_http1(C6, S6).packets(), RAW)))
    out["pcapng-two-sections.pcapng"] = two

    # HTTP/2 with prior knowledge, the rich conversation, on Ethernet with VLAN, IPv4.
    turns = with_preface(h2_conversation())
    out["h2-prior-knowledge-vlan.pcap"] = pcap(ETHERNET, frames_of(h2_tcp(turns, mss=500).packets(), ETHERNET, vlan=True))
    # The same over IPv6, raw IP, in pcapng, in 100-byte segments (frames cut across segments).
    out["h2-prior-knowledge-ipv6.pcapng"] = shb(e) + idb(IPV6, e) + b"".join(
        epb(0, f, i, e) for i, f in enumerate(frames_of(h2_tcp(turns, C6, S6, mss=100).packets(), IPV6)))
    # The small one, on Linux cooked v1.
    out["h2-small-sll.pcap"] = pcap(LINUX_SLL, frames_of(h2_tcp(with_preface(h2_small())).packets(), LINUX_SLL))
    # Joined after the handshake: the small one in 7-byte segments, on raw IP.
    out["h2-no-handshake-tiny-segments.pcap"] = pcap(RAW, frames_of(h2_tcp(with_preface(h2_small()), mss=7, handshake=False).packets(), RAW))
    # Upgrade from HTTP/1.1 (h2c): the request is stream 1.
    upgraded = h2_conversation(upgrade=True)
    turns = [(0, UPGRADE_REQUEST), (1, SWITCHING + upgraded[0][1])] + with_preface(upgraded[1:])
    out["h2c-upgrade.pcap"] = pcap(ETHERNET, frames_of(h2_tcp(turns).close().packets(), ETHERNET))
    return out


def h2_input(turns, preface=True, client_end=1, server_end=1, segments=0, order=0, upgrade=False):
    """The `h2_decoder` input for a conversation (see that target for the layout)."""
    client, server = sides(turns)
    if upgrade:
        client, server = UPGRADE_GET + client, SWITCHING + server
    elif not preface:
        client = PREFACE + client
    flags = (1 if preface else 0) | client_end << 1 | server_end << 3 | segments << 5 | (0x80 if upgrade else 0)
    return struct.pack(">HBB", len(client), flags, order) + client + server


def h2_seeds():
    return {
        "h2-conversation": h2_input(h2_conversation()),
        "h2-conversation-64-byte-segments": h2_input(h2_conversation(), segments=2),
        "h2c-upgrade": h2_input(h2_conversation(upgrade=True), upgrade=True, segments=1),
        "h2-small": h2_input(h2_small(), client_end=0, server_end=0),
        "h2-small-interleaved": h2_input(h2_small(), segments=3, order=2),
        "h2-interim-cut": h2_input(h2_interim(), client_end=1, server_end=3),
        "h2-preface-in-input": h2_input(h2_small(), preface=False, client_end=2),
    }


def main():
    corpus = sys.argv[1] if len(sys.argv) > 1 else "corpus"
    for target, files in [("pcap_reader", seeds()), ("h2_decoder", h2_seeds())]:
        os.makedirs(os.path.join(corpus, target), exist_ok=True)
        for name, data in files.items():
            with open(os.path.join(corpus, target, "gen_" + name), "wb") as f:
                f.write(data)


if __name__ == "__main__":
    main()
