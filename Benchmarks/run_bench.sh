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
# SKIP_SIMDJSON=1 leaves it out), and a check of the machine: that Python loop run twice at
# once, whose time over one loop's says whether the two cores are independent (SKIP_PAIR=1
# leaves it out). ONLY_EXTRA=1 runs the CMDs and the floors only.
#
# Every tool first runs once untimed with its output kept, to check one output line per
# input line ("ok" in the last column) and record its exit status (1 is expected: the corpus
# has malformed lines). Then RUNS rounds (default 3) each run every tool once, in the rows'
# order, writing to /dev/null with the corpus in the page cache: interleaved, so that a
# machine whose speed drifts slows every tool's runs alike and the ratios between rows hold.
# The table gives the median wall time, the median CPU time (user + system, all threads),
# records/s, MB/s (10^6 bytes of input) and the peak resident memory of the largest run, from
# GNU time when /usr/bin/time is GNU's, else from Python's resource module (which cannot
# report less than the Python process that spawns the command, about 14 MB).
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

# Runs one command once; prints "seconds peak_kb status cpu_seconds" (CPU: user + system time
# of the command and its children).
timed_run() {
  local cmd=$1 out=$2
  "$python" - "$cmd" "$out" "$gnu_time" <<'PY'
import os, resource, subprocess, sys, time
cmd, out, gnu_time = sys.argv[1], sys.argv[2], sys.argv[3]
stats = out + ".time"
argv = [gnu_time, "-v", "-o", stats, "sh", "-c", cmd] if gnu_time else ["sh", "-c", cmd]
before = resource.getrusage(resource.RUSAGE_CHILDREN)
with open(out, "wb") as sink:
    start = time.perf_counter()
    status = subprocess.call(argv, stdout=sink)
    seconds = time.perf_counter() - start
after = resource.getrusage(resource.RUSAGE_CHILDREN)
peak = 0
cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
if gnu_time:
    for line in open(stats):
        if "Maximum resident set size" in line:
            peak = int(line.rsplit(":", 1)[1])
else:
    peak = after.ru_maxrss
    if sys.platform == "darwin":
        peak //= 1024
print(f"{seconds:.4f} {peak} {status} {cpu:.4f}")
PY
}

# The rows: a name, a command line and whether its output is checked, collected first and
# timed together below.
names=()
commands=()
checks=()
add_row() {
  names+=("$1")
  commands+=("$(command_for "$2")")
  checks+=("$3")
}

if [ "${ONLY_EXTRA:-}" != 1 ]; then
  add_row "python reference" "$python $here/reference_normalize.py {}" yes
  [ "${SKIP_STDLIB:-}" = 1 ] || add_row "python reference, stdlib json (--stdlib)" "$python $here/reference_normalize.py --stdlib {}" yes
fi
for cmd in "$@"; do
  add_row "$cmd" "$cmd" yes
done
add_row "floor: cat corpus > /dev/null" "cat {}" no
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
add_row "floor: python parse-only loop" "$python $scratch/parse_only.py {}" no
loop_row=$((${#names[@]} - 1))
# The machine: the same loop twice at once, as two processes. On two cores of their own it
# takes as long as one loop (1.00 below); where the cores share a physical core or the host
# is busy, longer, and then no program's two threads reach twice one thread's speed either:
# a check of the machine to read the `--jobs 2` row against. SKIP_PAIR=1 leaves it out.
pair_row=""
if [ "${SKIP_PAIR:-}" != 1 ]; then
  add_row "machine: the parse-only loop twice at once (2 processes)" "$python $scratch/parse_only.py {} & $python $scratch/parse_only.py {}; wait" no
  pair_row=$((${#names[@]} - 1))
fi
# The C++ parse floor: simdjson parsing every line into a DOM on one thread
# (scripts/install-bench-deps.sh installs libsimdjson-dev; SKIP_SIMDJSON=1 leaves it out).
if [ "${SKIP_SIMDJSON:-}" != 1 ]; then
  if g++ -O3 -march=native -std=c++17 "$here/simdjson_floor.cpp" -lsimdjson -o "$scratch/simdjson_floor" 2>"$scratch/simdjson.log"; then
    add_row "floor: simdjson parse-only (C++, 1 thread)" "$scratch/simdjson_floor {} 2>/dev/null" no
  else
    echo "(no simdjson floor row: building Benchmarks/simdjson_floor.cpp failed; run scripts/install-bench-deps.sh, or SKIP_SIMDJSON=1)" >&2
  fi
fi

# Each tool once with its output kept: its exit status, and one output line per input line.
statuses=()
verdicts=()
for i in "${!names[@]}"; do
  read -r _ _ status _ < <(timed_run "${commands[$i]}" "$scratch/out")
  verdict=-
  if [ "${checks[$i]}" = yes ]; then
    lines=$(grep -c '' "$scratch/out" || true)
    if [ "$lines" = "$records" ]; then verdict=ok; else verdict="FAIL ($lines lines out)"; fi
  fi
  statuses+=("$status")
  verdicts+=("$verdict")
done
rm -f "$scratch/out"

# The timed runs, interleaved: round r runs every tool once, in order, so that each tool's
# median samples the same stretch of the machine's time as the others' (its speed drifts).
for ((r = 0; r < runs; r++)); do
  for i in "${!names[@]}"; do
    timed_run "${commands[$i]}" /dev/null >> "$scratch/times.$i"
  done
done

echo "corpus: $corpus ($records records, $bytes bytes), median of $runs interleaved runs"
echo
echo "| tool | records | median s | CPU s | records/s | MB/s | peak RSS MB | exit | 1 out/in |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"
for i in "${!names[@]}"; do
  "$python" - "${names[$i]}" "$records" "$bytes" "${statuses[$i]}" "${verdicts[$i]}" "$scratch/times.$i" <<'PY'
import statistics, sys
name, records, size, status, verdict, path = sys.argv[1:]
runs = [line.split() for line in open(path)]
median = statistics.median(float(run[0]) for run in runs)
cpu = statistics.median(float(run[3]) for run in runs)
peak = max(int(run[1]) for run in runs)
records, size = int(records), int(size)
print(f"| {name} | {records} | {median:.3f} | {cpu:.3f} | {records / median:.0f} | {size / median / 1e6:.1f} | {peak / 1024:.1f} | {status} | {verdict} |")
PY
done
if [ -n "$pair_row" ]; then
  "$python" - "$scratch/times.$loop_row" "$scratch/times.$pair_row" <<'PY'
import statistics, sys
one, two = (statistics.median(float(line.split()[0]) for line in open(path)) for path in sys.argv[1:])
print()
print(f"two processes at once: {two / one:.2f}x the wall time of one (1.00 on two independent cores; "
      f"well over it, this machine cannot give two threads twice one thread's speed)")
PY
fi
echo
echo "machine: nproc=$(nproc 2>/dev/null || sysctl -n hw.ncpu), $(uname -sm), $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2 | sed 's/^ //'); $(date -u '+%Y-%m-%d %H:%M UTC')"
