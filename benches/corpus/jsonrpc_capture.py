"""Writes a synthetic .http capture of N clean JSON-RPC SendMessage exchanges to stdout.

Used for the end-to-end measurements in BENCHMARKS.md:
    python3 benches/corpus/jsonrpc_capture.py 600000 > /tmp/huge.http   # about 400 MB
Every third response is chunked; CRLF and LF line ends alternate.
"""
import sys


def exchange(i):
    request = ('{"jsonrpc":"2.0","id":%d,"method":"SendMessage","params":{"message":{"messageId":"m-%d",'
               '"role":"ROLE_USER","parts":[{"text":"Summarise report number %d for the quarterly board '
               'meeting, please."}]}}}' % (i, i, i))
    response = ('{"jsonrpc":"2.0","id":%d,"result":{"task":{"id":"task-%d","contextId":"ctx-%d","status":'
                '{"state":"TASK_STATE_COMPLETED","timestamp":"2026-11-30T09:15:00.000Z"},"artifacts":[{'
                '"artifactId":"a-%d","parts":[{"text":"The report shows revenue up by %d percent with costs '
                'held flat."}]}]}}}' % (i, i, i, i, i))
    nl = "\r\n" if i % 2 == 0 else "\n"
    head = nl.join(["POST /a2a HTTP/1.1", "Host: agent.example", "Content-Type: application/json",
                    "A2A-Version: 1.0", "Content-Length: %d" % len(request)])
    out = head + nl + nl + request
    if i % 3 == 0:
        out += nl.join(["HTTP/1.1 200 OK", "Content-Type: application/json", "Transfer-Encoding: chunked"])
        out += nl + nl + "%x\r\n%s\r\n0\r\n\r\n" % (len(response), response)
    else:
        out += nl.join(["HTTP/1.1 200 OK", "Content-Type: application/json", "Content-Length: %d" % len(response)])
        out += nl + nl + response
    return out


if __name__ == "__main__":
    count = int(sys.argv[1])
    out = sys.stdout
    for i in range(count):
        out.write(exchange(i))
