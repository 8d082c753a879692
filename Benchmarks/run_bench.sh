#!/usr/bin/env bash
# Times commands that normalize a JSON Lines corpus, next to the Python reference and two
# floors, and prints a Markdown table.
#
# Usage: Benchmarks/run_bench.sh CORPUS [CMD...]
#
# Each CMD is one shell string; it reads the corpus on standard input, or, when it contains
# {}, gets the corpus path in place of {}. Rows, in order: the Python reference
# (Benchmarks/reference_normalize.py, orjson when installed), the same with the standard json
# module (skip with SKIP_STDLIB=1), each CMD, then the floors: `cat` (reading the file), a
# Python loop that only parses each line (orjson, else json), and simdjson parsing each line on
# one thread (Benchmarks/simdjson_floor.cpp, built here when libsimdjson-dev is installed;
# SKIP_SIMDJSON=1 leaves it out). ONLY_EXTRA=1 runs the CMDs and the floors only.
#
# Every tool first runs once untimed with its output kept, to check one output line per
# input line ("ok" in the last column) and record its exit status (1 is expected: the corpus
# has malformed lines). Then RUNS timed runs (default 3) write to /dev/null with the corpus
# in the page cache; the table gives the median wall time, records/s, MB/s (10^6 bytes of
# input) and the peak resident memory of the slowest-memory run, from GNU time when
# /usr/bin/time is GNU's, else from Python's resource module (which cannot report less than
# the Python process that spawns the command, about 14 MB).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
corpus=${1:?usage: run_bench.sh CORPUS [CMD...]}
shift
[ -r "$corpus" ] || { echo "cannot read $corpus" >&2; exit 2; }
runs=${RUNS:-3}
python=${PYTHON:-python3}
records=$(grep -c '' "$corpus")
bytes=$(wc -c < "$corpus")
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

gnu_time=""
if /usr/bin/time -v true >/dev/null 2>&1; then gnu_time=/usr/bin/time; fi

# The command line for CMD: the corpus on stdin, or in place of {}.
command_for() {
  if [[ "$1" == *"{}"* ]]; then printf '%s' "${1//\{\}/$corpus}"; else printf '%s < %s' "$1" "$corpus"; fi
}

# Runs one command once; prints "seconds peak_kb".
timed_run() {
  local cmd=$1 out=$2
  "$python" - "$cmd" "$out" "$gnu_time" <<'PY'
import os, resource, subprocess, sys, time
cmd, out, gnu_time = sys.argv[1], sys.argv[2], sys.argv[3]
stats = out + ".time"
argv = [gnu_time, "-v", "-o", stats, "sh", "-c", cmd] if gnu_time else ["sh", "-c", cmd]
with open(out, "wb") as sink:
    start = time.perf_counter()
    status = subprocess.call(argv, stdout=sink)
    seconds = time.perf_counter() - start
peak = 0
if gnu_time:
    for line in open(stats):
        if "Maximum resident set size" in line:
            peak = int(line.rsplit(":", 1)[1])
else:
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    if sys.platform == "darwin":
        peak //= 1024
print(f"{seconds:.4f} {peak} {status}")
PY
}

row() {
  local name=$1 cmd=$2 check=$3
  local full
  full=$(command_for "$cmd")
  read -r _ _ status < <(timed_run "$full" "$scratch/out")
  local verdict=-
  if [ "$check" = yes ]; then
    local lines
    lines=$(grep -c '' "$scratch/out" || true)
    if [ "$lines" = "$records" ]; then verdict=ok; else verdict="FAIL ($lines lines out)"; fi
  fi
  local times=() peak=0
  for ((i = 0; i < runs; i++)); do
    read -r seconds kb _ < <(timed_run "$full" /dev/null)
    times+=("$seconds")
    ((kb > peak)) && peak=$kb
  done
  "$python" - "$name" "$records" "$bytes" "$peak" "$status" "$verdict" "${times[@]}" <<'PY'
import statistics, sys
name, records, size, peak, status, verdict, *times = sys.argv[1:]
median = statistics.median(float(t) for t in times)
records, size = int(records), int(size)
print(f"| {name} | {records} | {median:.3f} | {records / median:.0f} | {size / median / 1e6:.1f} | {int(peak) / 1024:.1f} | {status} | {verdict} |")
PY
}

echo "corpus: $corpus ($records records, $bytes bytes), median of $runs runs"
echo
echo "| tool | records | median s | records/s | MB/s | peak RSS MB | exit | 1 out/in |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |"
if [ "${ONLY_EXTRA:-}" != 1 ]; then
  row "python reference" "$python $here/reference_normalize.py {}" yes
  [ "${SKIP_STDLIB:-}" = 1 ] || row "python reference, stdlib json (--stdlib)" "$python $here/reference_normalize.py --stdlib {}" yes
fi
for cmd in "$@"; do
  row "$cmd" "$cmd" yes
done
row "floor: cat corpus > /dev/null" "cat {}" no
cat > "$scratch/parse_only.py" <<'PY'
import sys
try:
    from orjson import loads
except ImportError:
    from json import loads
for line in open(sys.argv[1], "rb"):
    try:
        loads(line)
    except ValueError:
        pass
PY
row "floor: python parse-only loop" "$python $scratch/parse_only.py {}" no
# The C++ parse floor: simdjson parsing every line into a DOM on one thread
# (scripts/install-bench-deps.sh installs libsimdjson-dev; SKIP_SIMDJSON=1 leaves it out).
if [ "${SKIP_SIMDJSON:-}" != 1 ]; then
  if g++ -O3 -march=native -std=c++17 "$here/simdjson_floor.cpp" -lsimdjson -o "$scratch/simdjson_floor" 2>"$scratch/simdjson.log"; then
    row "floor: simdjson parse-only (C++, 1 thread)" "$scratch/simdjson_floor {} 2>/dev/null" no
  else
    echo "(no simdjson floor row: building Benchmarks/simdjson_floor.cpp failed; run scripts/install-bench-deps.sh, or SKIP_SIMDJSON=1)" >&2
  fi
fi
echo
echo "machine: nproc=$(nproc 2>/dev/null || sysctl -n hw.ncpu), $(uname -sm), $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2 | sed 's/^ //'); $(date -u '+%Y-%m-%d %H:%M UTC')"
