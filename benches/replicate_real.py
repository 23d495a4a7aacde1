#!/usr/bin/env python3
"""Writes a corpus of real SDK traffic for memory measurements: each file holds COPIES
back-to-back copies of one `.http` recording from samples/real/, the recordings taken in
turn (sorted by path) until the corpus reaches SIZE. Deterministic: the same arguments
give the same bytes.

    python3 benches/replicate_real.py --size 100M --out /tmp/bench/real-100m
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
    args = parser.parse_args()

    recordings = sorted((ROOT / "samples" / "real").rglob("*.http"))
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
        if not data.endswith(b"\n"):
            data += b"\r\n"
        name = "-".join(source.relative_to(ROOT / "samples" / "real").parts)
        target = args.out / f"{files // 1000:03}" / f"{files:06}-{name}"
        target.parent.mkdir(exist_ok=True)
        target.write_bytes(data * args.copies)
        written += len(data) * args.copies
        files += 1
    print(f"{files} files, {written} bytes in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
