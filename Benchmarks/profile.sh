#!/usr/bin/env bash
# Counts the instructions `normalize --lines --jobs 1` executes on the first LINES lines of a
# corpus, with valgrind's callgrind: the repeatable measure behind the profile findings in
# docs/performance.md (wall times on shared machines drift by several percent from run to
# run; instruction counts by a few hundredths of one).
#
#   Benchmarks/profile.sh CORPUS [LINES] [BINARY...]
#
# With no BINARY it builds the release `normalize` (dynamically linked, as `swift build -c
# release` does) and profiles that. With several, it profiles each on the same prefix and
# says whether their outputs are byte-identical, so that a change can be measured against
# the build before it in one run. For each binary it prints the instruction total, the
# start-up's (the same binary on no input), the instructions per record without the
# start-up, and the TOP (default 15) functions by their own instructions,
# demangled. With ATOMICS=1 it also counts the atomic read-modify-write instructions the Swift
# runtime executed per record (start-up removed; Benchmarks/count_atomics.py): nearly all are
# reference counting, each retain and release of a heap object one, and they cost more than
# their share of the instructions. The callgrind files stay in OUT (default: a new temporary
# directory), for `callgrind_annotate --inclusive=yes` or `--tree=calling`.
#
# Needs valgrind (`scripts/install-bench-deps.sh` installs it). Not run by CI.
set -euo pipefail

usage() {
    echo "usage: $0 CORPUS [LINES] [BINARY...]" >&2
    exit 64
}
[ $# -ge 1 ] || usage
corpus=$1
shift
lines=20000
if [ $# -ge 1 ] && [[ $1 =~ ^[0-9]+$ ]]; then
    lines=$1
    shift
fi
[ "$lines" -gt 0 ] || { echo "$0: LINES must be at least 1" >&2; exit 64; }
[ -r "$corpus" ] || { echo "$0: cannot read the corpus '$corpus'" >&2; exit 66; }
for tool in valgrind callgrind_annotate strip swift; do
    command -v "$tool" > /dev/null || {
        echo "$0: '$tool' is not installed (scripts/install-bench-deps.sh installs valgrind)" >&2
        exit 69
    }
done

root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/taproute-profile.XXXXXX")}
mkdir -p "$out"
top=${TOP:-15}

binaries=("$@")
if [ ${#binaries[@]} -eq 0 ]; then
    (cd "$root" && swift build -c release --product normalize > "$out/build.log" 2>&1) || {
        cat "$out/build.log" >&2
        echo "$0: the release build failed" >&2
        exit 1
    }
    binaries=("$root/.build/release/normalize")
fi

prefix="$out/prefix.jsonl"
head -n "$lines" "$corpus" > "$prefix"
records=$(wc -l < "$prefix")
[ "$records" -gt 0 ] || { echo "$0: '$corpus' has no lines" >&2; exit 65; }
echo "corpus: $corpus, first $records lines ($(wc -c < "$prefix") bytes); files in $out"

first_output=""
index=0
for binary in "${binaries[@]}"; do
    index=$((index + 1))
    [ -x "$binary" ] || { echo "$0: '$binary' is not an executable" >&2; exit 66; }
    # valgrind 3.19 cannot read the DWARF the Swift toolchain writes; symbols are enough.
    copy="$out/normalize-$index"
    cp "$binary" "$copy"
    strip -g "$copy"
    output="$out/output-$index.jsonl"
    status=0
    "$copy" --lines --jobs 1 < "$prefix" > "$output" 2> "$out/stderr-$index.txt" || status=$?
    # --lines exits 1 when some record failed (its error line is in the output); more is a crash.
    if [ "$status" -gt 1 ]; then
        cat "$out/stderr-$index.txt" >&2
        echo "$0: '$binary' exited with status $status" >&2
        exit 1
    fi
    echo
    echo "== $index: $binary"
    if [ -z "$first_output" ]; then
        first_output=$output
    elif cmp -s "$first_output" "$output"; then
        echo "output: byte-identical to binary 1's"
    else
        echo "output: DIFFERS from binary 1's (cmp $first_output $output)"
    fi
    profile="$out/callgrind-$index.out"
    valgrind --tool=callgrind --callgrind-out-file="$profile" "$copy" --lines --jobs 1 \
        < "$prefix" > /dev/null 2> "$out/valgrind-$index.txt" || true
    total=$(sed -n 's/^summary: *//p' "$profile")
    [ -n "$total" ] || { cat "$out/valgrind-$index.txt" >&2; echo "$0: callgrind wrote no summary" >&2; exit 1; }
    # Start-up (loading, the configuration, the registry) measured alone, on no input.
    valgrind --tool=callgrind --callgrind-out-file="$out/callgrind-$index-empty.out" "$copy" --lines --jobs 1 \
        < /dev/null > /dev/null 2>> "$out/valgrind-$index.txt" || true
    startup=$(sed -n 's/^summary: *//p' "$out/callgrind-$index-empty.out")
    [ -n "$startup" ] || { echo "$0: callgrind wrote no summary for the empty input" >&2; exit 1; }
    awk -v t="$total" -v s="$startup" -v n="$records" 'BEGIN {
        printf "instructions: %d (%.1f M); start-up alone %.1f M; %.0f per record without it\n",
            t, t / 1e6, s / 1e6, (t - s) / n
    }'
    echo "top $top functions by their own instructions:"
    callgrind_annotate "$profile" 2> /dev/null \
        | grep -E '^ *[0-9,]+ +\( *[0-9.]+%\) ' | grep -v 'PROGRAM TOTALS' \
        | awk -v n="$top" 'NR <= n' \
        | swift demangle --simplified \
        | cut -c1-160
    if [ "${ATOMICS:-0}" = 1 ]; then
        # The runtime is libswiftCore.so, or the executable itself when linked statically.
        runtime=$(ldd "$copy" 2> /dev/null | awk '/libswiftCore/ { print $3 }')
        [ -n "$runtime" ] || runtime=$copy
        valgrind --tool=callgrind --dump-instr=yes --callgrind-out-file="$out/atomics-$index.out" "$copy" --lines --jobs 1 \
            < "$prefix" > /dev/null 2>> "$out/valgrind-$index.txt" || true
        valgrind --tool=callgrind --dump-instr=yes --callgrind-out-file="$out/atomics-$index-empty.out" "$copy" --lines \
            --jobs 1 < /dev/null > /dev/null 2>> "$out/valgrind-$index.txt" || true
        python3 "$root/Benchmarks/count_atomics.py" "$runtime" "$out/atomics-$index.out" > "$out/atomics-$index.txt"
        python3 "$root/Benchmarks/count_atomics.py" "$runtime" "$out/atomics-$index-empty.out" > "$out/atomics-$index-empty.txt"
        awk -v n="$records" 'NR == FNR { if (FNR == 1) s = $1; next } FNR == 1 {
            printf "atomic read-modify-writes in the Swift runtime: %.1f per record without the start-up\n", ($1 - s) / n
        }' "$out/atomics-$index-empty.txt" "$out/atomics-$index.txt"
    fi
done
