#!/usr/bin/env python3
"""Records the a2a-go (Go SDK, v2) echo agent: HTTP captures and gRPC pcaps.

    python3 samples/record/record_a2a_go.py [--env DIR] [--out DIR]

Run as root (tcpdump captures on `lo`), with Go, tcpdump and Python >= 3.11 on PATH.
Without --env everything is installed into a fresh temporary directory that is removed
afterwards; --env DIR creates or reuses DIR and keeps it, server logs included.

Steps:
1. sdk_a2a_go.install builds samples/record/go/ into <env>/bin (Go caches in <env>);
   record_grpc.install puts grpcio and the a2a-sdk stubs into <env>/py, and this script
   runs itself again with that interpreter, since the gRPC client needs them.
2. One agent per configuration (plain, streaming, extcard), each on two free ports of
   127.0.0.1: HTTP (card, JSON-RPC, HTTP+JSON) and gRPC.
3. HTTP: each agent sits behind a proxy.RecordingProxy and every scenario of
   scenarios.BINDINGS runs as in record_all.py, into
   <out>/a2a-go/<binding>/<scenario>.http.
4. gRPC: record_grpc.py's grpcio client and scenario functions, with tcpdump on the
   agent's gRPC port (record_pcap.Tcpdump), into <out>/a2a-go/grpc/:
   grpc.pcap (record_grpc.MAIN on one channel, against the streaming agent, which has
   the capabilities record_grpc.py's own "plain" agent has), one pcap per scenario of
   record_grpc.ALONE, and three of this script's own: deadline.pcap (a call with a
   one second deadline to the text "slow", which takes five), streaming-unsupported.pcap
   (SendStreamingMessage to the plain agent) and stream-republished-task.pcap.
   No base64 twin: grpc-go never sends true-binary metadata, so every -bin trailer is
   base64 whatever the client announces.
5. <out>/a2a-go/versions.txt; the agents are stopped by process id.
"""

import pathlib
import sys

sys.dont_write_bytecode = True  # keep __pycache__ out of the repository
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

import record_sdk  # noqa: E402
import sdk_a2a_go as sdk  # noqa: E402

if __name__ == '__main__':
    record_sdk.main(sdk, __doc__, 'record_a2a_go.py', tool='go', packages='Go modules')
