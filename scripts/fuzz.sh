#!/usr/bin/env bash
# Builds the libFuzzer harnesses under Fuzz/ and runs each for SECONDS (default 30).
#
#   scripts/fuzz.sh [SECONDS] [HARNESS...]      e.g. scripts/fuzz.sh 600 RouteFuzzer
#
# Harnesses: RegistryFuzzer NormalizeFuzzer ConfigurationFuzzer RouteFuzzer AASAFuzzer VendorURLFuzzer DefinitionFuzzer (all
# when none is named). FUZZ_PARALLEL=N runs N harnesses at a time (default 1).
#
# Builds with `swift build -c debug -Xswiftc -sanitize=fuzzer,address` into .build-fuzz with
# TAPROUTE_FUZZ=1 (the harness targets exist only then; see Package.swift). Seeds and
# dictionaries come from the repository's vectors, examples, configs and AASA files
# (scripts/fuzz-seeds.py); the growing corpus lives in .fuzz/corpus/<Harness> and is kept
# between runs. Both are git-ignored.
#
# A crash, a broken invariant, a leak, an out-of-memory (over FUZZ_RSS_MB, default 2048 MB) or
# a hang (an input taking over FUZZ_TIMEOUT seconds, default 10) fails the run: the input is saved as fuzz-artifacts/<Harness>-crash-… (or
# -timeout-, -oom-, -leak-) and the end of the fuzzer's log is printed. Reproduce with
#   .build-fuzz/debug/<Harness> fuzz-artifacts/<file>
# then add the input as a regression vector or test. docs/reliability.md has the details.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

seconds=${1:-30}
if ! [[ $seconds =~ ^[0-9]+$ ]] || [ "$seconds" -lt 1 ]; then
  echo "usage: scripts/fuzz.sh [SECONDS] [HARNESS...]" >&2
  exit 2
fi
shift || true
all=(RegistryFuzzer NormalizeFuzzer ConfigurationFuzzer RouteFuzzer AASAFuzzer VendorURLFuzzer DefinitionFuzzer)
harnesses=("$@")
[ ${#harnesses[@]} -eq 0 ] && harnesses=("${all[@]}")
for h in "${harnesses[@]}"; do
  [[ " ${all[*]} " == *" $h "* ]] || { echo "unknown harness '$h'; known: ${all[*]}" >&2; exit 2; }
done
parallel=${FUZZ_PARALLEL:-1}
timeout_seconds=${FUZZ_TIMEOUT:-10}
rss_mb=${FUZZ_RSS_MB:-2048}

export TAPROUTE_FUZZ=1
# libFuzzer, not the Swift runtime's backtracer, must handle a crash: it saves the input.
export SWIFT_BACKTRACE=enable=no
scratch=.build-fuzz
work=.fuzz
artifacts=fuzz-artifacts
build=(swift build -c debug --scratch-path "$scratch" -Xswiftc -sanitize=fuzzer,address -Xswiftc -warnings-as-errors)

mkdir -p "$work"
echo "==> seeds and dictionaries ($work/seeds, $work/dict)"
python3 scripts/fuzz-seeds.py "$work"

for h in "${harnesses[@]}"; do
  echo "==> build $h"
  # The linker's "Cannot export local symbol" warnings about ASan internals are noise.
  if ! "${build[@]}" --product "$h" >"$work/build-$h.log" 2>&1; then
    grep -v "Cannot export local symbol" "$work/build-$h.log" >&2
    echo "fuzz: building $h failed" >&2
    exit 1
  fi
done
bin=$("${build[@]}" --show-bin-path)

mkdir -p "$artifacts" "$work/cwd"
max_len() {
  case $1 in
    RegistryFuzzer | NormalizeFuzzer | ConfigurationFuzzer | AASAFuzzer | DefinitionFuzzer) echo 16384 ;;
    *) echo 4096 ;;
  esac
}

run() {
  local h=$1
  local status=0
  mkdir -p "$work/corpus/$h"
  # From an empty directory: a fuzzed configuration's relative app.aasa paths name nothing.
  (
    cd "$work/cwd"
    timeout --kill-after=30 $((seconds + 300)) "$bin/$h" \
      -max_total_time="$seconds" -timeout="$timeout_seconds" -rss_limit_mb="$rss_mb" -max_len="$(max_len "$h")" \
      -print_final_stats=1 -dict="$root/$work/dict/$h.dict" -artifact_prefix="$root/$artifacts/$h-" \
      "$root/$work/corpus/$h" "$root/$work/seeds/$h"
  ) >"$work/$h.log" 2>&1 || status=$?
  echo "$status" >"$work/$h.status"
}

echo "==> fuzz ${harnesses[*]} for ${seconds}s each ($parallel at a time, -timeout=$timeout_seconds -rss_limit_mb=$rss_mb)"
started=$(date +%s)
running=0
for h in "${harnesses[@]}"; do
  rm -f "$work/$h.status"
  run "$h" &
  running=$((running + 1))
  if [ "$running" -ge "$parallel" ]; then
    wait -n || true
    running=$((running - 1))
  fi
done
wait || true

failed=0
printf '\n%-20s %8s %14s %10s %8s  %s\n' harness seconds executions "exec/s" corpus result
for h in "${harnesses[@]}"; do
  status=$(cat "$work/$h.status" 2>/dev/null || echo 1)
  executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/$h.log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$work/$h.log" | tail -1)
  corpus=$(find "$work/corpus/$h" -type f | wc -l)
  result=ok
  [ "$status" = 0 ] || { result="FAILED (exit $status)"; failed=1; }
  printf '%-20s %8s %14s %10s %8s  %s\n' "$h" "$seconds" "${executions:-?}" "${rate:-?}" "$corpus" "$result"
done
echo "total wall time: $(($(date +%s) - started))s"

if [ "$failed" -ne 0 ]; then
  for h in "${harnesses[@]}"; do
    [ "$(cat "$work/$h.status" 2>/dev/null || echo 1)" = 0 ] && continue
    echo
    echo "==> $h failed; the end of $work/$h.log:" >&2
    grep -v "^#[0-9]\|NEW_FUNC" "$work/$h.log" | tail -60 >&2
  done
  echo >&2
  echo "fuzz: FAILED. Inputs saved in $artifacts/:" >&2
  ls -1 "$artifacts" >&2 || true
  exit 1
fi
echo "fuzz: no crash"
