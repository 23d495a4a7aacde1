#!/usr/bin/env bash
# Builds the fuzzers' seed corpora in fuzz/corpus/<target>/ from the test fixtures and
# samples, the generated captures of pcap_reader and h2_decoder (pcap_seeds.py), and the
# generated gRPC calls of grpc_decoder (grpc_seeds.py, which adds gRPC captures for
# pcap_reader).
# The corpora are not committed: run this before `cargo fuzz run`.
set -euo pipefail
cd "$(dirname "$0")"
root=..
for target in http_reader har_reader sse_parser lint_source pcap_reader h2_decoder grpc_decoder; do
    mkdir -p "corpus/$target"
done
seed() { # seed TARGET FILE [CONTENT-FROM-STDIN]
    local name
    name=$(printf '%s' "$2" | sed 's|^\.\./||; s|/|_|g')
    if [ "$#" -eq 3 ]; then cat >"corpus/$1/$name"; else cp "$2" "corpus/$1/$name"; fi
}
while IFS= read -r -d '' file; do
    seed http_reader "$file"
    seed lint_source "$file"
    # The body of a `text/event-stream` response: what the SSE parser is handed.
    if grep -qi 'text/event-stream' "$file"; then
        awk 'f == 2 { print; next }
             tolower($0) ~ /text\/event-stream/ { f = 1 }
             f == 1 && /^\r?$/ { f = 2 }' "$file" | seed sse_parser "$file.sse" -
    fi
done < <(find "$root/tests/fixtures" "$root/samples" -type f -name '*.http' -print0)
while IFS= read -r -d '' file; do
    seed har_reader "$file"
    seed lint_source "$file"
done < <(find "$root/tests/fixtures" "$root/samples" -type f -name '*.har' -print0)
# A few hand-written streams: CR, LF and CRLF line ends, comments, multi-line data.
printf 'data: {"a":1}\r\n\r\nevent: error\r\ndata: {"error":{}}\r\n\r\n' >corpus/sse_parser/crlf
printf ': ping\n\nid: 1\nretry: 100\ndata: {"x":\ndata:  2}\n\ndata:last' >corpus/sse_parser/lf
printf 'data: one\rdata: two\r\revent\rdata\r' >corpus/sse_parser/cr
# The capture files of the fixtures and samples (the real a2a-python gRPC recordings
# among them) seed pcap_reader.
while IFS= read -r -d '' file; do
    seed pcap_reader "$file"
done < <(find "$root/tests/fixtures" "$root/samples" -type f \( -name '*.pcap' -o -name '*.pcapng' \) -print0)
# pcap_seeds.py writes pcap and pcapng files (and the two directions of its HTTP/2
# connections for h2_decoder) from the traffic it describes; grpc_seeds.py the gRPC
# calls of grpc_decoder and two gRPC captures.
python3 pcap_seeds.py corpus
python3 grpc_seeds.py corpus
for target in http_reader har_reader sse_parser lint_source pcap_reader h2_decoder grpc_decoder; do
    printf '%s: %s seeds\n' "$target" "$(find "corpus/$target" -type f | wc -l)"
done
