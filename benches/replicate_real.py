#!/usr/bin/env python3
"""Writes a corpus of real SDK traffic for measurements: each file holds COPIES
back-to-back copies of one `.http` recording from samples/real/, the recordings taken in
turn (sorted by path) until the corpus reaches SIZE. With `--pcap`, the recordings are
the pcap and pcapng captures instead (gRPC over HTTP/2 and HTTP/1.1), one copy per file:
a capture's TCP connections cannot follow themselves in one file without new sockets.
Deterministic: the same arguments give the same bytes.

    python3 benches/replicate_real.py --size 100M --out /tmp/bench/real-100m
    python3 benches/replicate_real.py --pcap --size 100M --out /tmp/bench/grpc-100m
"""

import argparse
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def size(text: str) -> int:
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    if text[-1].upper() in units:
        return int(float(text[:-1]) * units[text[-1].upper()])
    return int(text)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=size, default=size("100M"), help="e.g. 100M, 1G")
    parser.add_argument("--copies", type=int, default=10, help="copies per file")
    parser.add_argument("--out", type=pathlib.Path, required=True)
    parser.add_argument("--pcap", action="store_true", help="the pcap/pcapng recordings")
    args = parser.parse_args()

    suffixes = {".pcap", ".pcapng"} if args.pcap else {".http"}
    copies = 1 if args.pcap else args.copies
    recordings = sorted(
        p for p in (ROOT / "samples" / "real").rglob("*") if p.suffix in suffixes
    )
    if not recordings:
        print("no recordings under samples/real", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    written, files = 0, 0
    while written < args.size:
        source = recordings[files % len(recordings)]
        data = source.read_bytes()
        # Back to back, as a recorder writes one exchange after another; a recording
        # that does not end its last line gets one, so the next request line starts one.
        if not args.pcap and not data.endswith(b"\n"):
            data += b"\r\n"
        name = "-".join(source.relative_to(ROOT / "samples" / "real").parts)
        target = args.out / f"{files // 1000:03}" / f"{files:06}-{name}"
        target.parent.mkdir(exist_ok=True)
        target.write_bytes(data * copies)
        written += len(data) * copies
        files += 1
    print(f"{files} files, {written} bytes in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
