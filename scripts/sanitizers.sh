#!/usr/bin/env bash
# Runs the whole test suite under AddressSanitizer and under ThreadSanitizer.
#
#   scripts/sanitizers.sh              # both
#   scripts/sanitizers.sh address      # or: thread
#
# Each sanitizer builds into its own scratch directory (.build-asan, .build-tsan), so the
# normal .build is untouched and a second run rebuilds only what changed. The tests that
# run the `normalize` binary run the sanitized binary too. Any sanitizer report fails the
# run (ASan stops at the first error; TSan's exit status is non-zero after any report).
# docs/reliability.md has the timings and the last results.
set -euo pipefail
cd "$(dirname "$0")/.."

sanitizers=("$@")
[ ${#sanitizers[@]} -eq 0 ] && sanitizers=(address thread)

# The sanitizer, not the Swift runtime's backtracer, reports a crash.
export SWIFT_BACKTRACE=enable=no
# A sanitized normalize needs more memory than the hostile-corpus and hostile-I/O tests' bounds for a plain
# debug build (shadow memory, quarantine, redzones).
export TAPROUTE_HOSTILE_RSS_LIMIT_MB=${TAPROUTE_HOSTILE_RSS_LIMIT_MB:-1024}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=0}
export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=0:exitcode=66}

failed=()
for sanitizer in "${sanitizers[@]}"; do
  case $sanitizer in
    address) scratch=.build-asan ;;
    thread) scratch=.build-tsan ;;
    *) echo "unknown sanitizer '$sanitizer' (address or thread)" >&2; exit 2 ;;
  esac
  printf '\n==> swift test --sanitize=%s --scratch-path %s\n' "$sanitizer" "$scratch"
  started=$(date +%s)
  if swift test --sanitize="$sanitizer" --scratch-path "$scratch"; then
    echo "==> $sanitizer: passed in $(($(date +%s) - started))s"
  else
    echo "==> $sanitizer: FAILED after $(($(date +%s) - started))s" >&2
    failed+=("$sanitizer")
  fi
done
if [ ${#failed[@]} -ne 0 ]; then
  echo "sanitizers: FAILED under ${failed[*]}" >&2
  exit 1
fi
echo "sanitizers: no report"
