#!/usr/bin/env bash
# End-to-end measurements of BENCHMARKS.md: generates the corpora (nothing is committed),
# then times the release binary with hyperfine and /usr/bin/time -v beside the floors.
#
#   benches/e2e.sh [WORK_DIR]          # default /tmp/a2alint-bench
#   BIN=/path/to/other/a2alint benches/e2e.sh   # measure another build (e.g. before)
#   TOOLS=/tmp/a2alint-tools benches/e2e.sh     # also run the other tools installed there
#   ONLY_TOOLS=1 TOOLS=... benches/e2e.sh        # only the side-by-side part
#
# Needs hyperfine (apt-get install -y hyperfine), jq and GNU time (/usr/bin/time).
set -euo pipefail
cd "$(dirname "$0")/.."
work=${1:-/tmp/a2alint-bench}
runs=${RUNS:-5}
mkdir -p "$work"

cargo build --release --bin a2alint --example corpus --example json_floor
target=${CARGO_TARGET_DIR:-target}
bin=${BIN:-$target/release/a2alint}
corpus=$target/release/examples/corpus
floor=$target/release/examples/json_floor

# Corpora: 1 GiB in 10,000 files; 1,000 small files; a 200 MiB HAR; about 10,000 findings;
# and 20 MiB of each kind for the slower tools (with HTTPolice's request/response streams).
[ -d "$work/corpus-1g" ] || $corpus --seed 1 --size 1G --files 10000 --out "$work/corpus-1g"
[ -d "$work/small-1000" ] || $corpus --seed 3 --size 2M --files 1000 --out "$work/small-1000"
[ -f "$work/big.har" ] || $corpus --seed 1 --har --size 200M --out "$work/big.har"
[ -d "$work/findings-10k" ] || $corpus --seed 4 --mix findings --size 6.75M --files 10 --out "$work/findings-10k"
[ -d "$work/cmp-http" ] || $corpus --seed 11 --size 20M --files 200 --no-har --out "$work/cmp-http" --httpolice "$work/cmp-streams"
[ -f "$work/cmp.har" ] || $corpus --seed 12 --har --size 20M --out "$work/cmp.har"

cat "$work"/corpus-1g/* > /dev/null # warm the page cache
# hyperfine, then the median of each command (BENCHMARKS.md reports medians); `hfs` runs
# its commands through a shell.
runs_done=0
median() { jq -r '.results[] | "median: \((.median * 1000 | round) / 1000) s  (\(.command))"' "$1"; }
hf() { runs_done=$((runs_done + 1)); hyperfine --style basic -N --export-json "$work/hf-$runs_done.json" "$@"; median "$work/hf-$runs_done.json"; }
hfs() { runs_done=$((runs_done + 1)); hyperfine --style basic --export-json "$work/hf-$runs_done.json" "$@"; median "$work/hf-$runs_done.json"; }

if [ -z "${ONLY_TOOLS:-}" ]; then
echo "== floors and a2alint on the 1 GiB corpus"
hfs -w 1 -r "$runs" "cat $work/corpus-1g/* > /dev/null"
$floor "$work/corpus-1g"
hf -w 1 -r "$runs" "$floor $work/corpus-1g"
hf -w 1 -r "$runs" -i \
  "$bin check -j 1 -q --format concise $work/corpus-1g -o /dev/null" \
  "$bin check -j 2 -q --format concise $work/corpus-1g -o /dev/null"
for j in 1 2; do
  /usr/bin/time -f "peak: -j $j %M KiB, %e s wall, %U s user" \
    "$bin" check -j $j -q --format concise "$work/corpus-1g" -o /dev/null || true
done
echo "largest file: $(ls -S "$work/corpus-1g" | head -1) $(stat -c %s "$work/corpus-1g/$(ls -S "$work/corpus-1g" | head -1)") bytes"

echo "== 1,000 small files, 200 MiB HAR, 10,000 findings in the human format"
hf -w 3 -r 20 -i "$bin check -q --format concise $work/small-1000 -o /dev/null"
hf -w 1 -r "$runs" -i "$bin check -j 1 -q --format concise $work/big.har -o /dev/null"
/usr/bin/time -f "peak: 200 MiB HAR %M KiB, %e s wall" "$bin" check -j 1 -q --format concise "$work/big.har" -o /dev/null || true
echo "findings: $( ("$bin" check -q --format concise "$work/findings-10k" || true) | wc -l)"
hf -w 1 -r "$runs" -i "$bin check -q --color never $work/findings-10k -o /dev/null"
fi

if [ -n "${TOOLS:-}" ]; then
  echo "== side by side (tools installed under \$TOOLS; see BENCHMARKS.md)"
  [ -d "$work/cmp-jsonrpc" ] || $corpus --seed 13 --mix jsonrpc --size 20M --files 200 --no-har --out "$work/cmp-jsonrpc"
  peak() { local what=$1; shift; /usr/bin/time -f "peak: $what %M KiB, %e s wall, %U s user, %S s sys" sh -c '"$@" > /dev/null 2>&1' sh "$@" || true; }
  drift=("$TOOLS/npm/node_modules/.bin/redocly" drift --api benches/redocly/a2a-errors.yaml --match-mode basepath --format json)
  # Redocly drift and a2alint on the same HAR logs (20 MiB and 200 MiB).
  for har in cmp.har big.har; do
    hf -w 1 -r 3 -i "$bin check -j 1 -q --format concise $work/$har -o /dev/null" "${drift[*]} $work/$har"
    peak "a2alint $har" "$bin" check -j 1 -q --format concise "$work/$har"
    peak "redocly drift $har" "${drift[@]}" "$work/$har"
  done
  # HTTPolice: the same messages as request/response streams, and the same 20 MiB HAR.
  streams=$(ls "$work"/cmp-streams/*.req | sed 's/\.req$//' | while read -r s; do printf '%s.req %s.resp ' "$s" "$s"; done)
  hf -w 1 -r 3 -i "$bin check -j 1 -q --format concise $work/cmp-http -o /dev/null"
  # shellcheck disable=SC2086
  peak "httpolice streams (cmp-http)" "$TOOLS/venv/bin/httpolice" -i streams $streams
  peak "httpolice har (cmp.har)" "$TOOLS/venv/bin/httpolice" -i har "$work/cmp.har"
  # a2a-doctor: the JSON-RPC bodies of a JSON-RPC-only corpus as JSON Lines, and
  # a2alint on that corpus.
  $floor --jsonl "$work/cmp-jsonrpc.jsonl" "$work/cmp-jsonrpc" > /dev/null
  hf -w 1 -r 3 -i "$bin check -j 1 -q --format concise $work/cmp-jsonrpc -o /dev/null" \
    "$TOOLS/venv/bin/a2a-doctor errors $work/cmp-jsonrpc.jsonl"
  peak "a2alint cmp-jsonrpc" "$bin" check -j 1 -q --format concise "$work/cmp-jsonrpc"
  peak "a2a-doctor" "$TOOLS/venv/bin/a2a-doctor" errors "$work/cmp-jsonrpc.jsonl"
  ls -l "$work/cmp-jsonrpc.jsonl"
fi
