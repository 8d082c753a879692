#!/usr/bin/env bash
# Counts the instructions `normalize --lines --jobs 1` executes per record for each vendor's
# records apart, with valgrind's callgrind: the first LINES lines of a corpus are split by the
# vendor the first BINARY's output names (`error` for error records, `link` for links no
# vendor claims), and each part is run through every BINARY. A corpus-wide profile spreads a
# cost one vendor pays over every record; counted apart, it stands out (docs/performance.md,
# the twenty-first round: FCM's detection, Adobe's in-app clicks).
#
#   Benchmarks/per_vendor.sh CORPUS [LINES] BINARY...
#
# For each vendor and binary it prints the records, the instructions a record inside
# `RecordProcessor.processLines` (the start-up left out) and a hash of the output, so that
# two builds can be compared in one run and their outputs checked equal. The callgrind files
# stay in OUT (default: a new temporary directory). Needs valgrind
# (scripts/install-bench-deps.sh installs it) and python3. Not run by CI.
set -euo pipefail

usage() {
    echo "usage: $0 CORPUS [LINES] BINARY..." >&2
    exit 64
}
[ $# -ge 2 ] || usage
corpus=$1
shift
lines=20000
if [[ $1 =~ ^[0-9]+$ ]]; then
    lines=$1
    shift
fi
[ $# -ge 1 ] || usage
[ "$lines" -gt 0 ] || { echo "$0: LINES must be at least 1" >&2; exit 64; }
[ -r "$corpus" ] || { echo "$0: cannot read the corpus '$corpus'" >&2; exit 66; }
for tool in valgrind callgrind_annotate python3; do
    command -v "$tool" > /dev/null || {
        echo "$0: '$tool' is not installed (scripts/install-bench-deps.sh installs valgrind)" >&2
        exit 69
    }
done
for binary in "$@"; do
    [ -x "$binary" ] || { echo "$0: '$binary' is not an executable" >&2; exit 66; }
done

out=${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/taproute-per-vendor.XXXXXX")}
mkdir -p "$out"
head -n "$lines" "$corpus" > "$out/prefix.jsonl"
"$1" --lines --jobs 1 < "$out/prefix.jsonl" > "$out/prefix-output.jsonl" || true

# One file of input lines per vendor, named by the first binary's output.
python3 - "$out" << 'EOF'
import json, sys
out = sys.argv[1]
inputs = open(f"{out}/prefix.jsonl", encoding="utf-8").read().splitlines()
outputs = open(f"{out}/prefix-output.jsonl", encoding="utf-8").read().splitlines()
if len(inputs) != len(outputs):
    sys.exit(f"per_vendor.sh: {len(inputs)} input lines but {len(outputs)} output lines")
parts = {}
for line, result in zip(inputs, outputs):
    record = json.loads(result)
    vendor = record.get("vendor") or ("error" if "error" in record else "unknown")
    parts.setdefault(vendor, []).append(line)
with open(f"{out}/vendors.txt", "w", encoding="utf-8") as names:
    for vendor, lines in sorted(parts.items(), key=lambda item: -len(item[1])):
        with open(f"{out}/vendor-{vendor}.jsonl", "w", encoding="utf-8") as part:
            part.write("\n".join(lines) + "\n")
        names.write(f"{vendor} {len(lines)}\n")
EOF

printf '%-12s %8s' vendor records
for index in $(seq 1 $#); do printf ' %16s' "binary $index"; done
printf '\n'
while read -r vendor count; do
    printf '%-12s %8s' "$vendor" "$count"
    index=0
    for binary in "$@"; do
        index=$((index + 1))
        file="$out/callgrind-$vendor-$index.out"
        valgrind --tool=callgrind --callgrind-out-file="$file" "$binary" --lines --jobs 1 \
            < "$out/vendor-$vendor.jsonl" > "$out/output-$vendor-$index.jsonl" 2> "$out/valgrind-$vendor-$index.txt" || true
        total=$(callgrind_annotate --inclusive=yes --threshold=100 "$file" 2> /dev/null \
            | awk '!found && /RecordProcessorV12processLines/ { gsub(",", "", $1); print $1; found = 1 }')
        hash=$(md5sum < "$out/output-$vendor-$index.jsonl" | cut -c1-8)
        printf ' %7s %8s' "$((${total:-0} / count))" "$hash"
    done
    printf '\n'
done < "$out/vendors.txt"
echo "files in $out"
