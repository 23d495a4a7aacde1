#!/usr/bin/env python3
"""Writes the seed corpus of the `grpc_decoder` fuzz target, and a few gRPC captures for
`pcap_reader`.

    fuzz/grpc_seeds.py CORPUS_DIR        (fuzz/seed.sh calls it with fuzz/corpus)
    fuzz/grpc_seeds.py --regressions fuzz/regressions   (the inputs of finding #7)

The protobuf encodings are written by hand here from the schemas a2alint decodes with
(`lf.a2a.v1` of a2a-pb's a2a.proto, `google.rpc.Status` and the details of
google/rpc/error_details.proto), so no protobuf package is needed: only the standard
library. Deterministic: running it twice writes the same bytes.

A `grpc_decoder` input is a selector byte, a flags byte, the body's length (two bytes,
big-endian), the body (gRPC Length-Prefixed-Messages), then the status bytes:
`grpc-status`, the length of `grpc-message`, its bytes, then the detail bytes. See
fuzz/fuzz_targets/grpc_decoder.rs for what each bit picks.
"""

import gzip
import os
import struct
import sys
import zlib

import pcap_seeds as ps

# ---------------------------------------------------------------------------------------
# Protobuf wire format
# ---------------------------------------------------------------------------------------

VARINT, I64, LEN, SGROUP, EGROUP, I32 = 0, 1, 2, 3, 4, 5


def varint(n):
    n &= (1 << 64) - 1  # negative int32/int64 values take ten bytes
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        if n:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def key(field, wire):
    return varint(field << 3 | wire)


def v(field, n):
    """A varint field (int32, int64, bool, enum)."""
    return key(field, VARINT) + varint(n)


def ld(field, data):
    """A length-delimited field: string, bytes or embedded message."""
    if isinstance(data, str):
        data = data.encode()
    return key(field, LEN) + varint(len(data)) + data


def dbl(field, x):
    return key(field, I64) + struct.pack("<d", x)


def msg(*fields):
    return b"".join(fields)


# google.protobuf.Struct / Value / ListValue / Timestamp / Duration


def struct_(pairs):
    return msg(*(ld(1, ld(1, k) + ld(2, val)) for k, val in pairs))


def value_str(s):
    return ld(3, s)


def value_num(x):
    return dbl(2, x)


def value_bool(b):
    return v(4, int(b))


def value_null():
    return v(1, 0)


def value_struct(pairs):
    return ld(5, struct_(pairs))


def value_list(values):
    return ld(6, msg(*(ld(1, val) for val in values)))


def timestamp(seconds, nanos=0):
    return msg(v(1, seconds), v(2, nanos) if nanos else b"")


# ---------------------------------------------------------------------------------------
# lf.a2a.v1 messages (field numbers of a2a.proto)
# ---------------------------------------------------------------------------------------

ROLE_USER, ROLE_AGENT = 1, 2
SUBMITTED, WORKING, COMPLETED, FAILED, CANCELED, INPUT_REQUIRED = 1, 2, 3, 4, 5, 6


def part_text(text, media_type=""):
    return msg(ld(1, text), ld(7, media_type) if media_type else b"")


def part_raw(data, filename):
    return msg(ld(2, data), ld(6, filename), ld(7, "application/octet-stream"))


def part_url(url):
    return ld(3, url)


def part_data(value):
    return ld(4, value)


def message(message_id, role, parts, context_id="", task_id="", metadata=None, extensions=()):
    return msg(
        ld(1, message_id) if message_id else b"",
        ld(2, context_id) if context_id else b"",
        ld(3, task_id) if task_id else b"",
        v(4, role),
        *(ld(5, p) for p in parts),
        ld(6, metadata) if metadata is not None else b"",
        *(ld(7, e) for e in extensions),
    )


def task_status(state, message_=None, ts=None):
    return msg(v(1, state), ld(2, message_) if message_ else b"", ld(3, ts) if ts else b"")


def artifact(artifact_id, parts, name=""):
    return msg(ld(1, artifact_id), ld(2, name) if name else b"", *(ld(4, p) for p in parts))


def task(task_id, context_id, state, history=(), artifacts=(), ts=None):
    return msg(
        ld(1, task_id), ld(2, context_id), ld(3, task_status(state, ts=ts)),
        *(ld(4, a) for a in artifacts), *(ld(5, h) for h in history),
    )


def send_message_request(message_, accepted=(), history_length=None, metadata=None, tenant=""):
    config = msg(*(ld(1, m) for m in accepted), v(3, history_length) if history_length is not None else b"", v(4, 1))
    return msg(ld(1, tenant) if tenant else b"", ld(2, message_), ld(3, config), ld(4, metadata) if metadata else b"")


def send_response_task(t):
    return ld(1, t)


def send_response_message(m):
    return ld(2, m)


def stream_task(t):
    return ld(1, t)


def stream_status(task_id, context_id, state):
    return ld(3, msg(ld(1, task_id), ld(2, context_id), ld(3, task_status(state))))


def stream_artifact(task_id, context_id, art, append=False, last=True):
    return ld(4, msg(ld(1, task_id), ld(2, context_id), ld(3, art), v(4, int(append)), v(5, int(last))))


def get_task_request(task_id, history_length=None):
    return msg(ld(2, task_id), v(3, history_length) if history_length is not None else b"")


def list_tasks_request(context_id, page_size, status=0):
    return msg(ld(2, context_id), v(3, status) if status else b"", v(4, page_size), ld(5, "p-1"), ld(7, timestamp(1_700_000_000)), v(8, 1))


def list_tasks_response(tasks, next_token, page_size, total):
    return msg(*(ld(1, t) for t in tasks), ld(2, next_token), v(3, page_size), v(4, total))


def push_config(task_id, url, token="", config_id="", scheme=""):
    auth = ld(6, msg(ld(1, scheme), ld(2, "secret-credentials"))) if scheme else b""
    return msg(ld(2, config_id) if config_id else b"", ld(3, task_id), ld(4, url), ld(5, token) if token else b"", auth)


def agent_card():
    interface = msg(ld(1, "http://agent.example:50051"), ld(2, "GRPC"), ld(4, "1.0"))
    skill = msg(ld(1, "echo"), ld(2, "Echo"), ld(3, "Echoes text back"), ld(4, "demo"), ld(5, "say hi"))
    api_key = ld(1, msg(ld(1, "key"), ld(2, "header"), ld(3, "X-API-Key")))
    oauth = ld(3, msg(ld(2, ld(2, msg(ld(1, "https://auth.example/token"), ld(3, ld(1, "read") + ld(2, "Read tasks")))))))
    requirement = ld(1, ld(1, "apiKey") + ld(2, ld(1, "read")))
    return msg(
        ld(1, "Echo agent"), ld(2, "An agent that echoes"), ld(3, interface),
        ld(4, msg(ld(1, "https://example.org"), ld(2, "Example"))), ld(5, "1.0.0"),
        ld(7, msg(v(1, 1), v(2, 0), v(4, 1))),
        ld(8, ld(1, "apiKey") + ld(2, api_key)), ld(8, ld(1, "oauth") + ld(2, oauth)),
        ld(9, requirement), ld(10, "text/plain"), ld(11, "text/plain"), ld(12, skill),
        ld(13, msg(ld(1, "eyJhbGciOiJFUzI1NiJ9"), ld(2, "c2lnbmF0dXJl"))),
    )


# ---------------------------------------------------------------------------------------
# google.rpc.Status and its details (google/rpc/status.proto, error_details.proto)
# ---------------------------------------------------------------------------------------

TYPE = "type.googleapis.com/google.rpc."


def any_(type_url, value):
    return msg(ld(1, type_url) if type_url else b"", ld(2, value) if value else b"")


def status(code, message_="", details=()):
    return msg(v(1, code) if code else b"", ld(2, message_) if message_ else b"", *(ld(3, d) for d in details))


def error_info(reason, domain="a2a-protocol.org", metadata=()):
    return any_(TYPE + "ErrorInfo", msg(ld(1, reason), ld(2, domain), *(ld(3, ld(1, k) + ld(2, val)) for k, val in metadata)))


def bad_request(*violations):
    def violation(field, description, reason="", locale=""):
        localized = ld(4, msg(ld(1, locale), ld(2, description))) if locale else b""
        return msg(ld(1, field), ld(2, description), ld(3, reason) if reason else b"", localized)
    return any_(TYPE + "BadRequest", msg(*(ld(1, violation(*x)) for x in violations)))


def all_details():
    return [
        error_info("TASK_NOT_FOUND", metadata=[("taskId", "t-404"), ("a", "b")]),
        bad_request(("message.message_id", "required", "REQUIRED", "en-US")),
        any_(TYPE + "RetryInfo", ld(1, msg(v(1, 1), v(2, 500_000_000)))),
        any_(TYPE + "RetryInfo", ld(1, msg(v(1, -3), v(2, -(2 ** 31))))),
        any_(TYPE + "DebugInfo", msg(ld(1, "frame 1"), ld(1, "frame 2"), ld(2, "boom"))),
        any_(TYPE + "PreconditionFailure", ld(1, msg(ld(1, "TOS"), ld(2, "user"), ld(3, "not accepted")))),
        any_(TYPE + "ResourceInfo", msg(ld(1, "task"), ld(2, "t-1"), ld(3, "me"), ld(4, "gone"))),
        any_(TYPE + "Help", ld(1, msg(ld(1, "docs"), ld(2, "https://a2a-protocol.org")))),
        any_(TYPE + "LocalizedMessage", msg(ld(1, "fr"), ld(2, "tâche introuvable"))),
        any_(TYPE + "QuotaFailure", ld(1, msg(ld(1, "project"), ld(2, "too many")))),
        any_(TYPE + "RequestInfo", msg(ld(1, "req-1"), ld(2, "srv"))),
        any_("example.com/acme.Thing", b"\x08\x01"),
        any_("", b"\x01\x02"),
        any_("type.googleapis.com/lf.a2a.v1.Task", task("t-1", "c-1", FAILED)),
    ]


# ---------------------------------------------------------------------------------------
# gRPC framing and the target's layout
# ---------------------------------------------------------------------------------------


def framed(payload, flag=0):
    return bytes([flag]) + struct.pack(">I", len(payload)) + payload


def gz(data):
    return gzip.compress(data, compresslevel=9, mtime=0)


def zl(data):
    return zlib.compress(data, 9)


PATHS = [
    "SendMessage", "SendStreamingMessage", "GetTask", "ListTasks", "CancelTask", "SubscribeToTask",
    "CreateTaskPushNotificationConfig", "GetTaskPushNotificationConfig", "ListTaskPushNotificationConfigs",
    "GetExtendedAgentCard", "DeleteTaskPushNotificationConfig",
    "legacy SendMessage", "legacy TaskSubscription", "unknown method", "other service", "with query",
]
TRAILERS, TRAILERS_ONLY, NO_TRAILERS, CUT = range(4)
GRPC, GRPC_PROTO, GRPC_CHARSET, GRPC_WEB = range(4)
NO_ENCODING, IDENTITY, GZIP, DEFLATE = range(4)
BOTH, REQUEST_ONLY, RESPONSE_ONLY, SPLIT = range(4)
AS_IS, BASE64, BASE64_UNPADDED, TRUE_BINARY = range(4)
NO_STATUS = 0xFF


def seed(path, body, code=0, message_=b"", details=b"", *, request=False, ctype=GRPC, shape=TRAILERS,
         encoding=NO_ENCODING, small=False, placement=SPLIT, details_as=AS_IS):
    """A `grpc_decoder` input."""
    if isinstance(message_, str):
        message_ = message_.encode()
    selector = PATHS.index(path) | ctype << 4 | shape << 6
    flags = int(request) | encoding << 1 | int(small) << 3 | placement << 4 | details_as << 6
    meta = bytes([code, len(message_)]) + message_ + details
    return struct.pack(">BBH", selector, flags, len(body)) + body + meta


def call(request_msgs, response_msgs, flag=0, compress=None):
    """A body of one request message then the response messages (placement SPLIT)."""
    def one(m):
        return framed(compress(m), 1) if compress else framed(m, flag)
    return b"".join(one(m) for m in [request_msgs] + list(response_msgs))


def nested_struct(depth):
    """A Struct holding a Struct holding ... `depth` deep (three messages a level:
    Struct, its map entry, Value)."""
    inner = struct_([("leaf", value_str("x"))])
    for _ in range(depth - 1):
        inner = struct_([("k", value_struct_raw(inner))])
    return inner


def value_struct_raw(struct_bytes):
    return ld(5, struct_bytes)


def grpc_decoder_seeds():
    hello = message("m-1", ROLE_USER, [part_text("hello")], context_id="c-1")
    send = send_message_request(hello, accepted=["text/plain"], history_length=5)
    done = task("t-1", "c-1", COMPLETED, history=[hello], artifacts=[artifact("a-1", [part_text("hi back")])], ts=timestamp(1_700_000_000, 123_456_789))
    reply = message("m-2", ROLE_AGENT, [part_text("hi"), part_url("https://example.org/f"), part_raw(b"\x00\x01\xfe", "f.bin")], context_id="c-1")
    metadata = struct_([("n", value_num(1.5)), ("s", value_str("v")), ("b", value_bool(True)), ("z", value_null()),
                        ("l", value_list([value_num(-0.0), value_str("")])), ("o", value_struct([("x", value_num(1e300))]))])
    rich = send_message_request(message("m-3", ROLE_USER, [part_text("data"), part_data(value_struct([("k", value_str("v"))]))], metadata=metadata, extensions=["https://ext.example/v1"]), metadata=metadata, tenant="acme")
    not_found = status(5, "Task not found", [error_info("TASK_NOT_FOUND", metadata=[("taskId", "t-404")])])
    invalid = status(3, "message_id is required", [bad_request(("message.message_id", "must not be empty"), ("message.parts", "at least one part"))])
    events = [stream_task(task("t-3", "c-3", SUBMITTED)), stream_status("t-3", "c-3", WORKING),
              stream_artifact("t-3", "c-3", artifact("a-3", [part_text("chunk")])), stream_status("t-3", "c-3", COMPLETED)]
    out = {}
    # Real calls, one per rpc, request then response (placement SPLIT).
    out["send-message"] = seed("SendMessage", call(send, [send_response_task(done)]))
    out["send-message-reply-message"] = seed("SendMessage", call(rich, [send_response_message(reply)]), request=True)
    out["send-streaming"] = seed("SendStreamingMessage", call(send, events), small=True)
    out["get-task"] = seed("GetTask", call(get_task_request("t-1", 10), [done]))
    out["get-task-not-found-trailers-only"] = seed("GetTask", framed(get_task_request("t-404")), 5, "Task%20not%20found", not_found,
                                                     shape=TRAILERS_ONLY, details_as=TRUE_BINARY, request=True)
    out["get-task-not-found-base64"] = seed("GetTask", framed(get_task_request("t-404")), 5, "Task not found", not_found,
                                              shape=TRAILERS_ONLY, details_as=BASE64)
    out["list-tasks"] = seed("ListTasks", call(list_tasks_request("c-1", 2, WORKING), [list_tasks_response([done, task("t-2", "c-1", WORKING)], "next", 2, 7)]))
    out["cancel-task"] = seed("CancelTask", call(msg(ld(2, "t-1"), ld(3, struct_([("why", value_str("user"))]))), [task("t-1", "c-1", CANCELED)]))
    out["subscribe"] = seed("SubscribeToTask", call(ld(2, "t-3"), events[1:]), encoding=DEFLATE)
    out["push-config-create"] = seed("CreateTaskPushNotificationConfig", call(push_config("t-1", "https://hook.example", "tok", scheme="Bearer"), [push_config("t-1", "https://hook.example", "tok", "cfg-1")]))
    out["push-config-get"] = seed("GetTaskPushNotificationConfig", call(msg(ld(2, "t-1"), ld(3, "cfg-1")), [push_config("t-1", "https://hook.example", config_id="cfg-1")]))
    out["push-config-list"] = seed("ListTaskPushNotificationConfigs", call(msg(ld(1, "t-1"), v(2, 10), ld(3, "")), [msg(ld(1, push_config("t-1", "https://a")), ld(1, push_config("t-1", "https://b")), ld(2, "n"))]))
    out["push-config-delete"] = seed("DeleteTaskPushNotificationConfig", call(msg(ld(2, "t-1"), ld(3, "cfg-1")), [b""]))
    out["extended-card"] = seed("GetExtendedAgentCard", call(b"", [agent_card()]))
    out["extended-card-unimplemented"] = seed("GetExtendedAgentCard", framed(b""), 12, "extended card not configured", shape=TRAILERS_ONLY)
    out["legacy-package"] = seed("legacy SendMessage", call(send, [send_response_task(done)]), 12, "Method not found")
    out["legacy-subscription"] = seed("legacy TaskSubscription", call(ld(1, "tasks/t-3"), events))
    out["unknown-method"] = seed("unknown method", framed(send), 12, "Method not found!", shape=TRAILERS_ONLY, placement=REQUEST_ONLY)
    out["other-service"] = seed("other service", call(b"", [v(1, 1)]))
    out["path-with-query"] = seed("with query", call(get_task_request("t-1"), [done]))
    out["grpc-web"] = seed("SendMessage", call(send, [send_response_task(done)]), ctype=GRPC_WEB)
    out["content-type-charset"] = seed("GetTask", call(get_task_request("t-1"), [done]), ctype=GRPC_CHARSET, small=True)
    # Status details: every detail type, in every encoding of the -bin value.
    everything = status(9, "Precondition failed: caf\xe9 %E2%9C%93", all_details())
    out["status-all-details-true-binary"] = seed("SendMessage", call(send, []), 9, "caf%C3%A9%20%E2%9C%93", everything, details_as=TRUE_BINARY)
    out["status-all-details-base64"] = seed("SendMessage", call(send, []), 9, "100% sure%2", everything, details_as=BASE64)
    out["status-bad-request-unpadded"] = seed("SendMessage", call(message_without_id_request(), []), 3, "message_id is required", invalid, details_as=BASE64_UNPADDED)
    out["status-details-as-is"] = seed("GetTask", call(get_task_request("t-1"), []), 5, "x", not_found, details_as=AS_IS)
    out["status-details-not-status"] = seed("GetTask", call(get_task_request("t-1"), []), 13, "", b"\x0a\xff\x01", details_as=BASE64)
    out["status-bad-detail"] = seed("GetTask", call(get_task_request("t-1"), []), 5, "", status(5, "", [any_(TYPE + "ErrorInfo", b"\x0a\x50")]), details_as=TRUE_BINARY)
    out["status-odd-code"] = seed("GetTask", call(get_task_request("t-1"), [done]), 0xF4, "overflow")
    out["status-missing"] = seed("GetTask", call(get_task_request("t-1"), [done]), NO_STATUS)
    out["no-trailers"] = seed("SendStreamingMessage", call(send, events), shape=NO_TRAILERS)
    out["cut-mid-stream"] = seed("SendStreamingMessage", call(send, events)[:-7], shape=CUT, small=True)
    # Compression: gzip and deflate messages, a flagged message that is not compressed,
    # a compressed one without grpc-encoding, and compressed bytes that do not inflate.
    out["gzip-messages"] = seed("SendMessage", call(send, [send_response_task(done)], compress=gz), encoding=GZIP)
    out["gzip-stream-small-frames"] = seed("SendStreamingMessage", call(send, events, compress=gz), encoding=GZIP, small=True)
    out["deflate-messages"] = seed("GetTask", call(get_task_request("t-1"), [done], compress=zl), encoding=DEFLATE)
    out["gzip-mixed-flags"] = seed("SendStreamingMessage", framed(send) + framed(gz(events[0]), 1) + framed(events[1]) + framed(zl(events[2]), 1), encoding=GZIP, placement=RESPONSE_ONLY)
    out["compressed-without-encoding"] = seed("GetTask", call(get_task_request("t-1"), [done], compress=gz), encoding=IDENTITY)
    out["gzip-not-inflating"] = seed("GetTask", framed(b"\x1f\x8b\x08\x00garbage", 1) + framed(gz(done)[:-6], 1), encoding=GZIP, placement=BOTH)
    # Framing: a cut prefix, a message longer than the body, a bad flag byte, empty ones.
    good = framed(get_task_request("t-1"))
    out["framing-cut-prefix"] = seed("GetTask", good + b"\x00\x00\x00", request=True, placement=BOTH)
    out["framing-declares-too-much"] = seed("GetTask", good + b"\x00\x00\x00\x10\x00" + b"\x0a", request=True, placement=BOTH)
    out["framing-bad-flag"] = seed("GetTask", good + b"\x07\x00\x00\x00\x00", placement=BOTH)
    out["framing-huge-length"] = seed("GetTask", b"\x00\xff\xff\xff\xff\x0a\x00", placement=BOTH)
    out["framing-empty-messages"] = seed("DeleteTaskPushNotificationConfig", framed(b"") * 4, placement=BOTH)
    # Malformed protobuf: truncated fields, bad varints, wrong wire types, groups.
    out["pb-truncated-length"] = seed("GetTask", framed(b"\x12\x64t-1"), request=True, placement=BOTH)
    out["pb-varint-never-ends"] = seed("GetTask", framed(b"\x18" + b"\xff" * 9), request=True, placement=BOTH)
    out["pb-varint-eleven-bytes"] = seed("GetTask", framed(b"\x18" + b"\xff" * 10 + b"\x01"), request=True, placement=BOTH)
    out["pb-varint-tenth-byte-overflows"] = seed("GetTask", framed(b"\x18" + b"\xff" * 9 + b"\x02"), request=True, placement=BOTH)
    out["pb-tag-field-zero"] = seed("GetTask", framed(b"\x00\x01"), placement=BOTH)
    out["pb-wrong-wire-type"] = seed("GetTask", framed(b"\x15\x01\x02\x03\x04"), request=True, placement=BOTH)
    out["pb-invalid-utf8"] = seed("GetTask", framed(ld(2, b"\xff\xfe")), request=True, placement=BOTH)
    out["pb-unknown-group"] = seed("GetTask", framed(get_task_request("t-1") + key(99, SGROUP) + v(1, 5) + ld(2, "x") + key(99, EGROUP)), request=True, placement=BOTH)
    out["pb-group-never-closed"] = seed("GetTask", framed(key(15, SGROUP) + v(1, 1)), request=True, placement=BOTH)
    out["pb-group-wrong-end"] = seed("GetTask", framed(key(15, SGROUP) + key(16, EGROUP)), request=True, placement=BOTH)
    out["pb-end-group-alone"] = seed("GetTask", framed(key(15, EGROUP)), placement=BOTH)
    out["pb-nested-groups-200"] = seed("GetTask", framed(b"\x7b" * 200 + b"\x7c" * 200), request=True, placement=BOTH)
    out["pb-enum-out-of-range"] = seed("SendMessage", call(send_message_request(message("m-1", 99, [part_text("x")])), [send_response_task(task("t", "c", 4_000_000_000))]))
    out["pb-negative-enum"] = seed("ListTasks", call(list_tasks_request("c", -1, -5), [list_tasks_response([], "", -1, -2)]))
    out["pb-timestamp-out-of-range"] = seed("GetTask", call(get_task_request("t-1"), [task("t-1", "c", WORKING, ts=timestamp(2 ** 62, -1))]))
    out["pb-nan-infinity"] = seed("SendMessage", call(send_message_request(message("m", 1, [part_data(value_num(float("nan")))], metadata=struct_([("inf", value_num(float("inf"))), ("-inf", value_num(float("-inf")))]))), []))
    out["pb-map-entry-without-key"] = seed("CancelTask", call(ld(3, ld(1, ld(2, value_str("no key")))), []), request=True)
    out["pb-duplicate-oneof"] = seed("SendMessage", call(send, [send_response_task(done) + send_response_message(reply)]))
    # Deep nesting through google.protobuf.Struct: under prost's limit of 100, and over.
    out["deep-struct-30"] = seed("SendMessage", call(send_message_request(hello, metadata=nested_struct(30)), []), request=True)
    out["deep-struct-40"] = seed("SendMessage", call(send_message_request(hello, metadata=nested_struct(40)), []), request=True)
    out["deep-list-45"] = seed("CancelTask", call(msg(ld(2, "t"), ld(3, struct_([("l", deep_list(45))]))), []), request=True)
    # A small gzip bomb: 1 KB inflating past the 16 MiB limit; and one just under the
    # limit whose bytes are a message of many empty repeated parts.
    out["gzip-bomb-past-limit"] = seed("GetTask", framed(gz(b"\x00" * ((16 << 20) + 1)), 1), encoding=GZIP, placement=BOTH)
    out["gzip-bomb-zeros"] = seed("GetTask", framed(gz(b"\x00" * (1 << 20)), 1), encoding=GZIP, placement=BOTH)
    # Many empty repeated messages (Task.history, two bytes each) inflating to 64 KiB. At
    # the 16 MiB limit the same shape is FUZZING.md's finding #7, kept in fuzz/regressions/
    # rather than here: it takes seconds and gigabytes, a timeout in every round.
    out["gzip-many-empty-messages"] = seed("GetTask", framed(gz(b"\x2a\x00" * (32 << 10)), 1), encoding=GZIP, placement=RESPONSE_ONLY)
    return out


def deep_list(depth):
    inner = value_str("leaf")
    for _ in range(depth):
        inner = value_list([inner])
    return inner


def message_without_id_request():
    return send_message_request(message("", ROLE_USER, [part_text("no id")]))


# ---------------------------------------------------------------------------------------
# gRPC captures for pcap_reader (HTTP/2 with prior knowledge, built with pcap_seeds)
# ---------------------------------------------------------------------------------------


def grpc_head(method, encoding=None, path=None):
    fields = [ps.indexed(ps.POST), ps.indexed(ps.HTTP), ps.literal(ps.PATH_ROOT, path or "/lf.a2a.v1.A2AService/" + method),
              ps.literal(ps.AUTHORITY, "agent.example"), ps.literal(ps.CONTENT_TYPE, "application/grpc"),
              ps.literal("te", "trailers"), ps.literal("a2a-version", "1.0")]
    if encoding:
        fields.append(ps.literal("grpc-encoding", encoding))
    return b"".join(fields)


def response_head(encoding=None):
    fields = [ps.indexed(ps.STATUS_200), ps.literal(ps.CONTENT_TYPE, "application/grpc")]
    if encoding:
        fields.append(ps.literal("grpc-encoding", encoding))
    return b"".join(fields)


def trailers(code, message_="", details=None):
    out = ps.literal("grpc-status", str(code))
    if message_:
        out += ps.literal("grpc-message", message_)
    if details is not None:
        # pcap_seeds.literal takes bytes for a Huffman-coded string: these are plain.
        out += ps.literal("grpc-status-details-bin", ps.hstr(details))
    return out


def data_frames(stream, body, size, end):
    frames = [body[i:i + size] for i in range(0, len(body), size)] or [b""]
    return b"".join(ps.frame(ps.DATA, ps.END_STREAM if end and i == len(frames) - 1 else 0, stream, f) for i, f in enumerate(frames))


def true_binary_settings():
    return ps.settings((4, 4 << 20), (0xFE03, 1))


def grpc_pcap_seeds():
    hello = message("m-1", ROLE_USER, [part_text("hello")])
    send = send_message_request(hello)
    events = [stream_status("t-3", "c-3", WORKING), stream_artifact("t-3", "c-3", artifact("a", [part_text("x" * 40)])), stream_status("t-3", "c-3", COMPLETED)]
    not_found = status(5, "Task not found", [error_info("TASK_NOT_FOUND", metadata=[("taskId", "t-9")])])
    hs = ps.END_HEADERS
    # Stream 1: a streaming call, gzip messages straddling 20-byte DATA frames; stream 3:
    # GetTask answered trailers-only with the Status as true binary; stream 5: a deflate
    # unary call whose response is cut short, then a cancelled stream.
    stream_body = b"".join(framed(gz(e), 1) for e in events)
    client = (true_binary_settings()
              + ps.frame(ps.HEADERS, hs, 1, grpc_head("SendStreamingMessage", "gzip")) + data_frames(1, framed(gz(send), 1), 20, True)
              + ps.frame(ps.HEADERS, hs, 3, grpc_head("GetTask")) + data_frames(3, framed(get_task_request("t-9")), 1000, True)
              + ps.frame(ps.HEADERS, hs, 5, grpc_head("GetTask", "deflate")) + data_frames(5, framed(zl(get_task_request("t-1")), 1), 1000, True))
    server = (true_binary_settings() + ps.settings(ack=True)
              + ps.frame(ps.HEADERS, hs, 1, response_head("gzip")) + data_frames(1, stream_body, 20, False)
              + ps.frame(ps.HEADERS, hs | ps.END_STREAM, 3, response_head() + trailers(5, "Task%20not%20found", b"\x00" + not_found))
              + ps.frame(ps.HEADERS, hs | ps.END_STREAM, 1, trailers(0))
              + ps.frame(ps.HEADERS, hs, 5, response_head("deflate")) + data_frames(5, framed(zl(task("t-1", "c", WORKING)), 1)[:-3], 1000, False)
              + ps.frame(ps.RST_STREAM, 0, 5, struct.pack(">I", 8)))
    turns = ps.with_preface([(0, client), (1, server), (0, ps.settings(ack=True))])
    out = {"grpc-gzip-stream-true-binary.pcap": ps.pcap(ps.ETHERNET, ps.frames_of(ps.h2_tcp(turns, mss=300).packets(), ps.ETHERNET))}
    # Without true binary: base64 details (unpadded), a bad -bin value, a bad framing.
    import base64
    b64 = base64.b64encode(status(3, "bad", [bad_request(("message.message_id", "required"))])).rstrip(b"=")
    client = (ps.settings()
              + ps.frame(ps.HEADERS, hs, 1, grpc_head("SendMessage")) + data_frames(1, framed(message_without_id_request()), 1000, True)
              + ps.frame(ps.HEADERS, hs, 3, grpc_head("ListTasks")) + data_frames(3, framed(list_tasks_request("c", 5)) + b"\x00\x00", 1000, True)
              + ps.frame(ps.HEADERS, hs, 5, grpc_head("", path="/a2a.v1.A2AService/SendMessage")) + data_frames(5, framed(send), 1000, True))
    server = (ps.settings() + ps.settings(ack=True)
              + ps.frame(ps.HEADERS, hs | ps.END_STREAM, 1, response_head() + trailers(3, "message_id is required", b64))
              + ps.frame(ps.HEADERS, hs, 3, response_head()) + data_frames(3, framed(b"\x0a\xff"), 1000, False)
              + ps.frame(ps.HEADERS, hs | ps.END_STREAM, 3, trailers(13, "", b"!!not base64!!"))
              + ps.frame(ps.HEADERS, hs | ps.END_STREAM, 5, response_head() + trailers(12, "Method not found")))
    turns = ps.with_preface([(0, client), (1, server), (0, ps.settings(ack=True))])
    out["grpc-base64-details-bad-framing.pcap"] = ps.pcap(ps.LINUX_SLL, ps.frames_of(ps.h2_tcp(turns, ps.C6, ps.S6).close().packets(), ps.LINUX_SLL))
    return out


def regressions():
    """The inputs of finding #7 (FUZZING.md): a GetTask response whose one gzip message
    inflates to just under 16 MiB of empty `Task.history` entries, as a `grpc_decoder`
    input and as a capture."""
    n = ((16 << 20) - 16) // 2
    bomb = framed(gz(b"\x2a\x00" * n), 1)
    hs = ps.END_HEADERS
    client = ps.settings() + ps.frame(ps.HEADERS, hs, 1, grpc_head("GetTask", "gzip")) + data_frames(1, framed(get_task_request("t-1")), 16384, True)
    server = (ps.settings() + ps.settings(ack=True) + ps.frame(ps.HEADERS, hs, 1, response_head("gzip"))
              + data_frames(1, bomb, 16384, False) + ps.frame(ps.HEADERS, hs | ps.END_STREAM, 1, trailers(0)))
    turns = ps.with_preface([(0, client), (1, server), (0, ps.settings(ack=True))])
    return {
        "grpc-task-history-of-empty-messages.grpc-input": seed("GetTask", bomb, encoding=GZIP, placement=RESPONSE_ONLY),
        "grpc-task-history-of-empty-messages.pcap": ps.pcap(ps.ETHERNET, ps.frames_of(ps.h2_tcp(turns).close().packets(), ps.ETHERNET)),
    }


def main():
    if sys.argv[1:2] == ["--regressions"]:
        # fuzz/grpc_seeds.py --regressions fuzz/regressions
        os.makedirs(sys.argv[2], exist_ok=True)
        for name, data in regressions().items():
            with open(os.path.join(sys.argv[2], name), "wb") as f:
                f.write(data)
        return
    corpus = sys.argv[1] if len(sys.argv) > 1 else "corpus"
    for target, files in [("grpc_decoder", grpc_decoder_seeds()), ("pcap_reader", grpc_pcap_seeds())]:
        os.makedirs(os.path.join(corpus, target), exist_ok=True)
        for name, data in files.items():
            with open(os.path.join(corpus, target, "gen_" + name), "wb") as f:
                f.write(data)


if __name__ == "__main__":
    main()
