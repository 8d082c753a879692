#!/usr/bin/env bash
# Throughput of the Spark job in local[2] against normalize --lines alone, on one corpus made
# by Benchmarks/make_corpus.py. Usage: NORMALIZE=/path/to/normalize integrations/spark/bench.sh [N]
# (N records, default 200000). Prints wall-clock seconds and records per second for each run.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
records="${1:-200000}"
: "${NORMALIZE:?set NORMALIZE to a built normalize binary}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"  # spark-submit leaves spark-warehouse/ in the working directory
python3 "$root/Benchmarks/make_corpus.py" "$records" "$work/corpus.jsonl" >/dev/null
spark_submit="$(python3 -c 'import os, pyspark; print(os.path.join(os.path.dirname(pyspark.__file__), "bin", "spark-submit"))')"

measure() { # label, command... (RATE=0: print no records per second)
  local label="$1"; shift
  local start end
  start=$(date +%s.%N)
  # normalize exits 1 when some records are error records (the corpus has a few): not a failure.
  "$@" >/dev/null 2>"$work/stderr" || { status=$?; [ "$status" = "${OK_STATUS:-0}" ] || { cat "$work/stderr" >&2; exit "$status"; }; }
  end=$(date +%s.%N)
  python3 -c "import sys; s=float(sys.argv[2])-float(sys.argv[1]); r=int(sys.argv[4]); print(f'{sys.argv[3]:<66} {s:7.2f} s' + (f' {r/s:10,.0f} records/s' if r else ''))" \
    "$start" "$end" "$label" "$( [ "${RATE:-1}" = 0 ] && echo 0 || echo "$records")"
}

echo "$records records, $(nproc) processors, $(uname -sm)"
OK_STATUS=1 measure "normalize --lines --jobs 1" sh -c '"$0" --lines --quiet --jobs 1 --config "$1" < "$2"' "$NORMALIZE" "$root/config.yaml" "$work/corpus.jsonl"
OK_STATUS=1 measure "normalize --lines --jobs 2" sh -c '"$0" --lines --quiet --jobs 2 --config "$1" < "$2"' "$NORMALIZE" "$root/config.yaml" "$work/corpus.jsonl"
for numbers in partition global; do
  rm -rf "$work/out"
  measure "spark-submit local[2], 2 partitions, --line-numbers $numbers" \
    "$spark_submit" --master 'local[2]' --conf spark.ui.enabled=false \
    --files "$NORMALIZE,$root/config.yaml" "$here/normalize_job.py" \
    --normalize "$(basename "$NORMALIZE")" --partitions 2 --line-numbers "$numbers" "$work/corpus.jsonl" "$work/out"
  test "$(cat "$work"/out/part-* | wc -l)" = "$records"
done
RATE=0 measure "spark-submit local[2], empty input (start-up cost)" \
  sh -c ': > "$0/empty.jsonl"; rm -rf "$0/out"; "$1" --master "local[2]" --conf spark.ui.enabled=false --files "$2,$3" "$4" --normalize "$(basename "$2")" "$0/empty.jsonl" "$0/out"' \
  "$work" "$spark_submit" "$NORMALIZE" "$root/config.yaml" "$here/normalize_job.py"
