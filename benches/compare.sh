#!/usr/bin/env bash
# Compares commands (builds of a2alint, or a2alint and another tool) on a machine whose
# speed drifts (cores shared with other work): the commands take turns, round after
# round, so each round sees the same load, and the medians of wall time, user time and
# peak memory are printed per command.
#
#   benches/compare.sh ROUNDS COMMAND...
#   benches/compare.sh 5 "/tmp/before/a2alint check -j 1 -q --format concise /tmp/bench/corpus-1g -o /dev/null" \
#                        "target/release/a2alint check -j 1 -q --format concise /tmp/bench/corpus-1g -o /dev/null"
#
# Needs GNU time (/usr/bin/time). Output and exit codes of the commands are ignored.
set -euo pipefail
rounds=$1
shift
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for ((round = 1; round <= rounds; round++)); do
  for i in $(seq 1 $#); do
    /usr/bin/time -f "%e %U %M" -a -o "$out/$i" sh -c "${!i}" > /dev/null 2>&1 || true
  done
done
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
for i in $(seq 1 $#); do
  column() { grep -v '^Command' "$out/$i" | cut -d' ' -f"$1" | median; }
  echo "median wall $(column 1) s, user $(column 2) s, peak $(column 3) KiB ($rounds rounds): ${!i}"
done
