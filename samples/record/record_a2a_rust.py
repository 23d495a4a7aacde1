#!/usr/bin/env python3
"""Records the Rust SDK's echo agent (crates a2a-lf, a2a-server-lf, a2a-grpc).

    python3 samples/record/record_a2a_rust.py [--env DIR] [--out DIR]

Needs cargo (Rust 1.95), tcpdump, Python >= 3.11 and root (tcpdump on `lo`). Without
--env the build and the client's virtual environment go to a new temporary directory,
deleted at the end; with --env DIR that directory is made or reused and kept, with one
log per agent.

What happens:
1. sdk_a2a_rust.install builds rust/ in <env> (never in the repository);
   record_grpc.install puts grpcio and a2a-sdk's stubs into <env>/py, and the script
   re-runs itself under that interpreter for the gRPC client.
2. Three agents start, one per configuration (plain, streaming, extcard), each with an
   HTTP port (card, JSON-RPC, HTTP+JSON) and a gRPC port on 127.0.0.1.
3. HTTP: a proxy.RecordingProxy in front of each agent; every scenario of
   scenarios.BINDINGS runs the way record_all.py runs it, and lands in
   <out>/a2a-rust/<binding>/<scenario>.http.
4. gRPC: tcpdump (record_pcap.Tcpdump) on one agent's gRPC port while record_grpc.py's
   client runs its scenarios, into <out>/a2a-rust/grpc/:
   - grpc.pcap: record_grpc.MAIN in order on one channel, against the `streaming`
     agent (the capabilities record_grpc.py's "plain" agent has);
   - <scenario>.pcap for each of record_grpc.ALONE (extended-card-not-configured
     against the extcard agent);
   - deadline.pcap: SendMessage "slow" (five seconds of work) with a one second
     deadline; streaming-unsupported.pcap: SendStreamingMessage to the plain agent;
     stream-republished-task.pcap: the text "twice" on a stream.
   No twin without true binary: tonic is not grpc C-core. The grpcio client still
   announces HTTP/2 setting 0xfe03, tonic does not announce it back, so every -bin
   trailer in these pcaps is base64 already.
5. <out>/a2a-rust/versions.txt; the agents are stopped by process id.
"""

import pathlib
import sys

sys.dont_write_bytecode = True  # keep __pycache__ out of the repository
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

import record_sdk  # noqa: E402
import sdk_a2a_rust as sdk  # noqa: E402

if __name__ == '__main__':
    record_sdk.main(sdk, __doc__, 'record_a2a_rust.py', tool='cargo', packages='crates')
