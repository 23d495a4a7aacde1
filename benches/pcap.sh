#!/usr/bin/env bash
# The pcap measurements of BENCHMARKS.md: generates two large pcap files of A2A traffic
# (nothing is committed), then times a2alint against tshark on each with hyperfine (in
# one invocation), takes peak memory with GNU time, and checks that both count the same
# HTTP responses.
#
#   benches/pcap.sh [WORK_DIR]              # default /tmp/a2alint-bench
#   BIN=/path/to/other/a2alint benches/pcap.sh
#   SIZES="200M" benches/pcap.sh             # only the smaller file
#
# Needs hyperfine, jq, GNU time (/usr/bin/time) and tshark (Debian's wireshark 4.0).
set -euo pipefail
cd "$(dirname "$0")/.."
work=${1:-/tmp/a2alint-bench}
runs=${RUNS:-5}
mkdir -p "$work"

cargo build --release --bin a2alint --example pcap_corpus
target=${CARGO_TARGET_DIR:-target}
bin=${BIN:-$target/release/a2alint}
for size in ${SIZES:-200M 1G}; do
  case $size in 200M) seed=1 ;; 1G) seed=2 ;; *) seed=3 ;; esac
  size=${size,,}
  file=$work/a2a-$size.pcap
  [ -f "$file" ] || "$target/release/examples/pcap_corpus" --seed $seed --size "$size" --out "$file"
  bytes=$(stat -c %s "$file")
  cat "$file" > /dev/null # warm the page cache
  echo "== $file: $bytes bytes"
  json=$work/hf-pcap-$size.json
  hyperfine --style basic -N -w 1 -r "$runs" -i --export-json "$json" \
    "$bin check -j 1 --format json -o /dev/null $file" \
    "$bin check -j 2 --format json -o /dev/null $file" \
    "tshark -r $file -Y http -T fields -e http.response.code"
  jq -r --argjson bytes "$bytes" '.results[] |
    "median: \((.median * 1000 | round) / 1000) s = \((($bytes / .median / 1e6) * 10 | round) / 10) MB/s  (\(.command))"' "$json"
  for j in 1 2; do
    /usr/bin/time -f "peak: a2alint -j $j %M KiB, %e s wall, %U s user, %S s sys" \
      "$bin" check -j $j --format json -o /dev/null "$file" || true
  done
  /usr/bin/time -f "peak: tshark %M KiB, %e s wall, %U s user, %S s sys" \
    sh -c 'tshark -r "$1" -Y http -T fields -e http.response.code > "$2" 2> /dev/null' sh "$file" "$work/tshark-$size.txt"
  "$bin" check -j 1 --format json -o "$work/a2alint-$size.json" "$file" 2> /dev/null || true
  echo "HTTP responses: a2alint $(jq .summary.exchanges "$work/a2alint-$size.json"), tshark $(grep -c . "$work/tshark-$size.txt") (of $(wc -l < "$work/tshark-$size.txt") HTTP lines)"
done
