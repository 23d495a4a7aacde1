#!/usr/bin/env bash
# Issue #16's benchmark table from one run: builds the corpora it needs (if missing),
# warms the page cache, measures every row (hyperfine for wall times, GNU time `%M` for
# peak RSS; medians), and prints a markdown table with the numbers and the commands.
# The raw hyperfine JSON and GNU time logs are kept in WORK_DIR.
#
#   benches/issue16.sh [WORK_DIR]                    # default /tmp/bench
#   BIN=/tmp/bench/a2alint-x benches/issue16.sh      # another build (default target/release/a2alint)
#   EXAMPLES=DIR benches/issue16.sh                  # prebuilt `corpus` and `json_floor` in DIR
#                                                    # (default: cargo build --release them here)
#   REDOCLY=/tmp/tools/npm/node_modules/.bin/redocly # the drift peer (default; installed with
#                                                    # npm install --prefix /tmp/tools/npm @redocly/cli)
#   RUNS=5 RSS_RUNS=3 RSS_RUNS_1G=1 DRIFT_RUNS=3      # run counts (these are the defaults)
#   SKIP_1G=1                                        # leave out both 1 GB corpora (quick check)
#
# Corpora (about 2.7 GB on disk): the real SDK traffic of samples/real replicated to 100 MB
# and to 1 GB (benches/replicate_real.py), the generated 1 GiB corpus, the generated
# 20 MiB and 200 MiB HAR logs (examples/corpus.rs), and the 100 MB real corpus as one HAR
# log (json_floor --har) for drift. Takes about 15 minutes on 2 cores
# once the corpora exist. Needs hyperfine, jq, GNU time (/usr/bin/time), python3, node.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
work=${1:-/tmp/bench}
runs=${RUNS:-5}
rss_runs=${RSS_RUNS:-3}
rss_runs_1g=${RSS_RUNS_1G:-1}
drift_runs=${DRIFT_RUNS:-3}
redocly=${REDOCLY:-/tmp/tools/npm/node_modules/.bin/redocly}
mkdir -p "$work"
work=$(cd "$work" && pwd)
raw=$work/issue16-$(date +%Y%m%d-%H%M%S)
mkdir -p "$raw"
started=$(date +%s)
unset GITHUB_STEP_SUMMARY GITHUB_ACTIONS NO_COLOR FORCE_COLOR CLICOLOR_FORCE A2ALINT_THREADS 2>/dev/null || true

if [ -n "${EXAMPLES:-}" ]; then
  examples=$EXAMPLES
else
  cargo build --release --example corpus --example json_floor >&2
  examples=${CARGO_TARGET_DIR:-target}/release/examples
fi
bin=$(realpath "${BIN:-${CARGO_TARGET_DIR:-target}/release/a2alint}")
corpus=$(realpath "$examples/corpus")
floor=$(realpath "$examples/json_floor")
[ -x "$bin" ] && [ -x "$corpus" ] && [ -x "$floor" ] || { echo "missing $bin, $corpus or $floor" >&2; exit 2; }

# ---- corpora -------------------------------------------------------------------------
real100=$work/real-100m real1g=$work/real-1g gen1g=$work/corpus-1g
har20=$work/cmp.har har200=$work/big.har harreal=$work/real-100m.har
[ -d "$real100" ] || python3 benches/replicate_real.py --size 100M --out "$real100" >&2
[ -n "${SKIP_1G:-}" ] || [ -d "$real1g" ] || python3 benches/replicate_real.py --size 1G --out "$real1g" >&2
[ -n "${SKIP_1G:-}" ] || [ -d "$gen1g" ] || "$corpus" --seed 1 --size 1G --files 10000 --out "$gen1g" >&2
[ -f "$har20" ] || "$corpus" --seed 12 --har --size 20M --out "$har20" >&2
[ -f "$har200" ] || "$corpus" --seed 1 --har --size 200M --out "$har200" >&2
# the 100 MB replicated-real corpus as one HAR log, for drift (which reads only HAR)
[ -f "$harreal" ] || "$floor" --har "$harreal" "$real100" > /dev/null

corpora=("$real100" "$har20" "$har200" "$harreal")
[ -n "${SKIP_1G:-}" ] || corpora+=("$real1g" "$gen1g")
bytes() { find "$1" -type f -printf '%s\n' | awk '{ s += $1 } END { print s }'; }
nfiles() { find "$1" -type f | wc -l; }
largest() { find "$1" -type f -printf '%s\n' | sort -n | tail -1; }
# File lists for the `cat` floor (the 1 GB corpus has too many files for one command line).
for c in "${corpora[@]}"; do
  find "$c" -type f -print0 | sort -z > "$raw/$(basename "$c").files"
done
warm() { xargs -0 -a "$raw/$(basename "$1").files" cat > /dev/null; }
for c in "${corpora[@]}"; do warm "$c"; done

load() { cut -d' ' -f1-3 /proc/loadavg; }
log() { echo "[$(date +%T), load $(load)] $*" >&2; }
loads=()
note_load() { loads+=("$1: $(load)"); }

# ---- helpers -------------------------------------------------------------------------
n_hf=0
# hf NAME hyperfine-args...: runs hyperfine (-N, no shell), keeps its JSON as NAME.json
hf() {
  local name=$1; shift
  n_hf=$((n_hf + 1))
  hyperfine --style none -N --export-json "$raw/$name.json" "$@" >&2
}
# median SECONDS of command number I (0-based) in NAME.json
med() { jq -r ".results[$2].median" "$raw/$1.json"; }
sd() { jq -r ".results[$2].stddev" "$raw/$1.json"; }
# cores busy, on average, running command number I in NAME.json: (user + system) / wall
cores() { jq -r ".results[$2] | (.user + .system) / .mean" "$raw/$1.json"; }
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# calc FORMAT EXPRESSION (awk; parenthesised, so that > compares instead of redirecting)
calc() { awk "BEGIN { printf \"$1\", ($2) }"; }
# peak LOG RUNS command...: GNU time RUNS times; prints "median-KiB median-wall-s"
peak() {
  local out=$raw/$1.time runs=$2; shift 2
  : > "$out"
  for ((r = 1; r <= runs; r++)); do
    /usr/bin/time -f "%M %e %U %S" -a -o "$out" "$@" > /dev/null 2>&1 || true
  done
  echo "$(grep -v '^Command' "$out" | cut -d' ' -f1 | median) $(grep -v '^Command' "$out" | cut -d' ' -f2 | median)"
}
lint="--no-config --no-progress -q"
a2a() { echo "$bin check $lint $*"; }

rows=()   # the issue's table
cmds=()   # the commands behind it
log "$("$bin" --version), $(nproc) cores; raw results in $raw"

# ---- peak RSS, every format, 100 MB and 1 GB replicated-real ---------------------------
formats=(human concise json sarif github gitlab junit html)
real100_bytes=$(bytes "$real100") real100_largest=$(largest "$real100")
rss_table=()
declare -A rss100 rss1g
note_load "RSS 100 MB"
log "peak RSS on $real100, every format"
warm "$real100"
for f in "${formats[@]}"; do
  read -r kib wall < <(peak "rss-100m-$f" "$rss_runs" "$bin" check $lint --format "$f" -o /dev/null "$real100")
  rss100[$f]="$kib $wall"
done
if [ -z "${SKIP_1G:-}" ]; then
  real1g_bytes=$(bytes "$real1g") real1g_largest=$(largest "$real1g")
  note_load "RSS 1 GB"
  log "peak RSS on $real1g, every format"
  warm "$real1g"
  for f in "${formats[@]}"; do
    read -r kib wall < <(peak "rss-1g-$f" "$rss_runs_1g" "$bin" check $lint --format "$f" -o /dev/null "$real1g")
    rss1g[$f]="$kib $wall"
  done
fi
limit_kib=$(( 64 * 1024 + real100_largest / 1024 ))
worst100=0 worst1g=0 worst_growth=0
for f in "${formats[@]}"; do
  read -r k1 w1 <<< "${rss100[$f]}"
  if [ "$k1" -gt "$worst100" ]; then worst100=$k1; fi
  if [ -n "${rss1g[$f]:-}" ]; then
    read -r k2 w2 <<< "${rss1g[$f]}"
    if [ "$k2" -gt "$worst1g" ]; then worst1g=$k2; fi
    growth=$(calc "%.2f" "$k2 / $k1")
    if [ "$(calc "%d" "$k2 * 100 / $k1 > $worst_growth")" = 1 ]; then worst_growth=$(calc "%d" "$k2 * 100 / $k1"); fi
    rss_table+=("| $f | $(calc "%.1f" "$k1 / 1024") MiB | $w1 s | $(calc "%.1f" "$k2 / 1024") MiB | $w2 s | ${growth}× |")
  else
    rss_table+=("| $f | $(calc "%.1f" "$k1 / 1024") MiB | $w1 s | – | – | – |")
  fi
done
verdict() { [ "$1" = 1 ] && echo "**met**" || echo "**missed**"; }
rows+=("| peak RSS, 100 MB replicated-real ($(nfiles "$real100") files, $real100_bytes B, largest $real100_largest B), every format, default threads | ≤ 64 MiB + largest file = $(calc "%.2f" "$limit_kib / 1024") MiB | worst $(calc "%.1f" "$worst100 / 1024") MiB (median of $rss_runs; per format below) | $(verdict "$(calc "%d" "$worst100 <= $limit_kib")") |")
cmds+=("/usr/bin/time -f %M $(a2a "--format FORMAT -o /dev/null $real100")   # $rss_runs runs per format")
if [ -z "${SKIP_1G:-}" ]; then
  rows+=("| peak RSS, 1 GB replicated-real ($(nfiles "$real1g") files, $real1g_bytes B, largest $real1g_largest B), every format | the same as at 100 MB | worst $(calc "%.1f" "$worst1g / 1024") MiB; largest growth 1 GB / 100 MB $(calc "%.2f" "$worst_growth / 100")× | $(verdict "$(calc "%d" "$worst_growth <= 110")") (≤ 1.10× counted as the same) |")
  cmds+=("/usr/bin/time -f %M $(a2a "--format FORMAT -o /dev/null $real1g")   # $rss_runs_1g run(s) per format")
fi

# ---- one thread and two threads, 100 MB replicated-real, beside the floors -------------
note_load "100 MB throughput"
log "throughput on $real100"
warm "$real100"
cat100="xargs -0 -a $raw/real-100m.files cat"
hf real-100m -w 1 -r "$runs" -i \
  -n cat "$cat100" \
  -n json_floor "$floor $real100" \
  -n "a2alint -j 1" "$(a2a "-j 1 --format concise -o /dev/null $real100")" \
  -n "a2alint -j 2" "$(a2a "-j 2 --format concise -o /dev/null $real100")"
c_cat=$(med real-100m 0) c_floor=$(med real-100m 1) c_j1=$(med real-100m 2) c_j2=$(med real-100m 3)
mbs() { calc "%.0f" "$1 / 1e6 / $2"; }
rows+=("| one thread, 100 MB replicated-real, concise | ≥ 200 MB/s | **$(mbs "$real100_bytes" "$c_j1") MB/s** ($(calc "%.3f" "$c_j1") s ± $(calc "%.3f" "$(sd real-100m 2)")) | $(verdict "$(calc "%d" "$real100_bytes / 1e6 / $c_j1 >= 200")") |")
rows+=("| two threads / one thread (same corpus, concise) | ≥ 1.85× | **$(calc "%.2f" "$c_j1 / $c_j2")×** ($(calc "%.3f" "$c_j2") s; $(mbs "$real100_bytes" "$c_j2") MB/s) | $(verdict "$(calc "%d" "$c_j1 / $c_j2 >= 1.85")") |")
cmds+=("hyperfine -N -w 1 -r $runs -i '$cat100' '$floor $real100' '$(a2a "-j 1 --format concise -o /dev/null $real100")' '$(a2a "-j 2 ...")'")

# ---- one thread, generated 1 GiB corpus, beside the floors ---------------------------
if [ -z "${SKIP_1G:-}" ]; then
  gen1g_bytes=$(bytes "$gen1g")
  note_load "generated 1 GiB"
  log "throughput on $gen1g"
  warm "$gen1g"
  cat1g="xargs -0 -a $raw/corpus-1g.files cat"
  hf corpus-1g -w 1 -r "$runs" -i \
    -n cat "$cat1g" \
    -n json_floor "$floor $gen1g" \
    -n "a2alint -j 1" "$(a2a "-j 1 --format concise -o /dev/null $gen1g")" \
    -n "a2alint -j 2" "$(a2a "-j 2 --format concise -o /dev/null $gen1g")"
  g_cat=$(med corpus-1g 0) g_floor=$(med corpus-1g 1) g_j1=$(med corpus-1g 2) g_j2=$(med corpus-1g 3)
  rows+=("| one thread, generated 1 GiB corpus ($(nfiles "$gen1g") files, $gen1g_bytes B), concise | ≥ 250 MB/s | **$(mbs "$gen1g_bytes" "$g_j1") MB/s** ($(calc "%.3f" "$g_j1") s ± $(calc "%.3f" "$(sd corpus-1g 2)"); two threads $(mbs "$gen1g_bytes" "$g_j2") MB/s, $(calc "%.2f" "$g_j1 / $g_j2")×) | $(verdict "$(calc "%d" "$gen1g_bytes / 1e6 / $g_j1 >= 250")") |")
  cmds+=("hyperfine -N -w 1 -r $runs -i '$cat1g' '$floor $gen1g' '$(a2a "-j 1 --format concise -o /dev/null $gen1g")' '$(a2a "-j 2 ...")'")
fi

# floors: from the same hyperfine invocations
floor_row="100 MB real: cat $(calc "%.3f" "$c_cat") s ($(mbs "$real100_bytes" "$c_cat") MB/s), json_floor $(calc "%.3f" "$c_floor") s ($(mbs "$real100_bytes" "$c_floor") MB/s); a2alint -j 1 = **$(calc "%.2f" "$c_j1 / $c_floor")× json_floor**, $(calc "%.0f" "$c_j1 / $c_cat")× cat"
if [ -z "${SKIP_1G:-}" ]; then
  floor_row+="<br>generated 1 GiB: cat $(calc "%.3f" "$g_cat") s ($(mbs "$gen1g_bytes" "$g_cat") MB/s), json_floor $(calc "%.3f" "$g_floor") s ($(mbs "$gen1g_bytes" "$g_floor") MB/s); a2alint -j 1 = **$(calc "%.2f" "$g_j1 / $g_floor")× json_floor**, $(calc "%.0f" "$g_j1 / $g_cat")× cat"
fi
rows+=("| against the floors in the same run (\`cat\` of the files; \`examples/json_floor.rs\`, one thread) | how close a2alint gets | $floor_row | – |")

# ---- Redocly drift on HAR ------------------------------------------------------------
drift_api=$repo/benches/redocly/a2a-errors.yaml
if [ -x "$redocly" ]; then
  drift_ver=$("$redocly" --version 2>/dev/null | head -1)
  drift_row=""
  drift_ok=1
  for har in "$har20" "$har200" "$harreal"; do
    name=$(basename "$har" .har)
    entries=$(grep -o '"startedDateTime"' "$har" | wc -l)
    hb=$(stat -c %s "$har")
    note_load "drift $name"
    log "Redocly drift and a2alint on $har ($entries entries)"
    warm "$har"
    drift="$redocly drift $har --api $drift_api --match-mode basepath --format json"
    # does drift run at all? (its exit status is 1 when it finds problems)
    if ! "$redocly" drift "$har" --api "$drift_api" --match-mode basepath --format json > "$raw/drift-$name.out" 2> "$raw/drift-$name.err"; then
      grep -q '"' "$raw/drift-$name.out" || { drift_row+="$name: drift failed (see $raw/drift-$name.err)<br>"; drift_ok=0; continue; }
    fi
    # a2alint at its default threads (both cores, a large log read beside its linting)
    # and on one; drift at its default (Node runs its collector beside the main thread)
    hf "drift-$name" -w 1 -r "$drift_runs" -i \
      -n "a2alint" "$(a2a "--format concise -o /dev/null $har")" \
      -n "a2alint -j 1" "$(a2a "-j 1 --format concise -o /dev/null $har")" \
      -n drift "$drift"
    a_t=$(med "drift-$name" 0) a1_t=$(med "drift-$name" 1) d_t=$(med "drift-$name" 2)
    read -r a_kib _ < <(peak "rss-a2alint-$name" "$drift_runs" "$bin" check $lint --format concise -o /dev/null "$har")
    read -r d_kib _ < <(peak "rss-drift-$name" "$drift_runs" "$redocly" drift "$har" --api "$drift_api" --match-mode basepath --format json)
    speed=$(calc "%.2f" "$d_t / $a_t") speed1=$(calc "%.2f" "$d_t / $a1_t") mem=$(calc "%.2f" "$a_kib / $d_kib")
    [ "$(calc "%d" "$d_t / $a_t >= 5 && $a_kib * 2 < $d_kib")" = 1 ] || drift_ok=0
    drift_row+="$name HAR ($hb B, $entries entries): a2alint $(calc "%.0f" "$entries / $a_t") entries/s ($(calc "%.3f" "$a_t") s, $(calc "%.1f" "$(cores "drift-$name" 0)") cores busy, $(calc "%.1f" "$a_kib / 1024") MiB), drift $(calc "%.0f" "$entries / $d_t") entries/s ($(calc "%.3f" "$d_t") s, $(calc "%.1f" "$(cores "drift-$name" 2)") cores busy, $(calc "%.1f" "$d_kib / 1024") MiB): **$speed×** the exchanges/s (one thread: $(calc "%.3f" "$a1_t") s, $speed1×), **$mem×** the memory<br>"
  done
  rows+=("| against the peers in the same run: Redocly \`drift\` $drift_ver on HAR | a2alint ≥ 5× drift's exchanges/s with < ½ its memory | ${drift_row%<br>} | $(verdict "$drift_ok") |")
  cmds+=("hyperfine -N -w 1 -r $drift_runs -i '$(a2a "--format concise -o /dev/null FILE.har")' '$(a2a "-j 1 --format concise -o /dev/null FILE.har")' '$redocly drift FILE.har --api benches/redocly/a2a-errors.yaml --match-mode basepath --format json'; /usr/bin/time -f %M each, $drift_runs runs; FILE = $har20, $har200, $harreal (made by: $floor --har $harreal $real100)")
else
  rows+=("| against the peers: Redocly \`drift\` | a2alint ≥ 5× drift's exchanges/s with < ½ its memory | not run: no $redocly (npm install --prefix /tmp/tools/npm @redocly/cli) | – |")
fi
note_load "end"

# ---- the report ----------------------------------------------------------------------
elapsed=$(( $(date +%s) - started ))
echo "## Issue #16 benchmarks ($(date -u +%Y-%m-%dT%H:%MZ))"
echo
echo "$("$bin" --version) at \`$bin\` ($(git -C "$repo" describe --always --dirty 2>/dev/null || echo '?') in the tree); $(nproc) cores, $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo); hyperfine $(hyperfine --version | cut -d' ' -f2); warm page cache; medians; took $((elapsed / 60)) min $((elapsed % 60)) s."
echo "Load average (1, 5, 15 min) before each part: $(IFS=';'; echo "${loads[*]}" | sed 's/;/; /g')."
echo
echo "| figure | target | measured | |"
echo "|---|---|---|---|"
printf '%s\n' "${rows[@]}"
echo
echo "Peak RSS per format (GNU time \`%M\`, default threads, \`-o /dev/null\`; medians of $rss_runs runs at 100 MB, $rss_runs_1g at 1 GB):"
echo
echo "| format | 100 MB peak | 100 MB wall | 1 GB peak | 1 GB wall | 1 GB / 100 MB |"
echo "|---|---|---|---|---|---|"
printf '%s\n' "${rss_table[@]}"
echo
echo "Commands (a2alint always with \`$lint\`; \`-i\` because it exits 1 on findings):"
echo
echo '```sh'
printf '%s\n' "${cmds[@]}"
echo '```'
echo
echo "Raw hyperfine JSON and GNU time logs: \`$raw\`."
