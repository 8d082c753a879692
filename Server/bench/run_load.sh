#!/usr/bin/env bash
# Load figures for taproute-server (release build), printed as a Markdown table:
#  1. single-envelope POSTs of examples/dashx-push.json with wrk (requests/s, p50, p99);
#  2. JSON Lines throughput: the 200k-record corpus POSTed with curl, against
#     `normalize --lines` on the same file, in the same run.
# Run from anywhere; needs wrk (apt-get install -y wrk), curl and python3.
# Environment: RECORDS (default 200000), DURATION (default 20s), CONNECTIONS (default 64),
# NORMALIZE (another normalize binary, e.g. the root package's .build/release/normalize).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
records="${RECORDS:-200000}"
duration="${DURATION:-20s}"
connections="${CONNECTIONS:-64}"
corpus="/tmp/taproute-c${records}.jsonl"
port="${PORT:-18080}"

command -v wrk >/dev/null || { echo "wrk is missing: apt-get install -y wrk" >&2; exit 2; }
echo "building (release)…" >&2
swift build -c release --package-path "$root/Server" --product taproute-server >&2
# The CLI from the same build: the root package's targets with the root package's settings.
swift build -c release --package-path "$root/Server" --product normalize >&2
[ -f "$corpus" ] || python3 "$root/Benchmarks/make_corpus.py" "$records" "$corpus" >&2

server="$root/Server/.build/release/taproute-server"
normalize="${NORMALIZE:-$root/Server/.build/release/normalize}"
log="$(mktemp)"
"$server" --port "$port" --config "$root/config.yaml" --log-level notice 2>"$log" &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -f "$log"' EXIT
for _ in $(seq 100); do curl -fs "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done

cd "$root"
wrk_out="$(ENVELOPE="$root/examples/dashx-push.json" wrk -t2 -c"$connections" -d"$duration" --latency \
  -s "$root/Server/bench/post.lua" "http://127.0.0.1:$port/v1/normalize")"
echo "$wrk_out" >&2
rps="$(echo "$wrk_out" | awk '/^Requests\/sec/ {print $2}')"
p50="$(echo "$wrk_out" | awk '$1 == "50%" {print $2}')"
p99="$(echo "$wrk_out" | awk '$1 == "99%" {print $2}')"
non2xx="$(echo "$wrk_out" | awk '/Non-2xx/ {print $NF}')"

bytes="$(stat -c %s "$corpus")"
lines="$(wc -l < "$corpus")"
# Three runs of each, alternating; the median of each is reported.
median() { sort -n | sed -n 2p; }
cli_times=(); srv_times=()
for _ in 1 2 3; do
  t0="$(date +%s.%N)"
  # Standard input, like the request body: no "file" in the error records.
  "$normalize" --lines --quiet --config "$root/config.yaml" < "$corpus" > /tmp/taproute-cli.out || true
  t1="$(date +%s.%N)"
  curl -sS --fail -o /tmp/taproute-server.out -H 'Content-Type: application/x-ndjson' \
    --data-binary @"$corpus" "http://127.0.0.1:$port/v1/normalize"
  t2="$(date +%s.%N)"
  cli_times+=("$(echo "$t1 - $t0" | bc -l)")
  srv_times+=("$(echo "$t2 - $t1" | bc -l)")
done
cli_s="$(printf '%s\n' "${cli_times[@]}" | median)"
srv_s="$(printf '%s\n' "${srv_times[@]}" | median)"
same="no"; cmp -s /tmp/taproute-cli.out /tmp/taproute-server.out && same="yes"

printf '\n| measure | figure |\n| --- | --- |\n'
printf '| single envelope (dashx-push.json), wrk -t2 -c%s -d%s | %s requests/s |\n' "$connections" "$duration" "$rps"
printf '| latency p50 / p99 | %s / %s |\n' "$p50" "$p99"
printf '| non-2xx responses | %s |\n' "${non2xx:-0}"
printf '| JSON Lines, %s records (%s bytes): normalize --lines (median of 3) | %.2f s, %.0f records/s |\n' "$lines" "$bytes" "$cli_s" "$(echo "$lines / $cli_s" | bc -l)"
printf '| JSON Lines, same file: POST /v1/normalize with curl (median of 3) | %.2f s, %.0f records/s |\n' "$srv_s" "$(echo "$lines / $srv_s" | bc -l)"
printf '| server / CLI records/s | %.0f %% |\n' "$(echo "100 * $cli_s / $srv_s" | bc -l)"
printf '| output byte-identical to the CLI | %s |\n' "$same"
