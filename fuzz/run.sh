#!/usr/bin/env bash
# Runs one fuzz target the way FUZZING.md reports it:
#   fuzz/run.sh TARGET [SECONDS] [extra libFuzzer flags...]
# TARGET is http_reader, har_reader, sse_parser, lint_source, pcap_reader, h2_decoder or
# grpc_decoder;
# SECONDS defaults to 600.
# Seeds the corpora first if they are not there. Set FUZZ_TARGET_DIR to build elsewhere.
set -euo pipefail
cd "$(dirname "$0")/.."
target=$1
seconds=${2:-600}
shift $(($# < 2 ? $# : 2))
case $target in
    har_reader) dict=har ;;
    sse_parser) dict=sse ;;
    pcap_reader) dict=pcap ;;
    h2_decoder) dict=h2 ;;
    grpc_decoder) dict=grpc ;;
    *) dict=http ;;
esac
[ -d "fuzz/corpus/$target" ] || fuzz/seed.sh
mkdir -p "fuzz/artifacts/$target"
# -s none: a2alint has no unsafe code, so AddressSanitizer would only halve the speed;
# debug assertions and overflow checks stay on (cargo fuzz's default).
RUSTC_BOOTSTRAP=1 exec cargo fuzz run -s none --target-dir "${FUZZ_TARGET_DIR:-fuzz/target}" \
    "$target" -- -dict="fuzz/dict/$dict.dict" -max_total_time="$seconds" -timeout=10 \
    -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 "$@"
