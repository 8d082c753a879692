#!/usr/bin/env bash
# Builds `normalize` as a back end deploys it, and prints the binary's path:
#
#   - release configuration, the Swift runtime linked statically (`--static-swift-stdlib`,
#     Linux): nothing to install where it runs;
#   - link-time optimization of the whole program (`--experimental-lto-mode=full`): the
#     adapters' modules, the core and the command optimized as one;
#   - on x86_64 machines whose CPU has the x86-64-v3 instructions (AVX2, BMI1/2, FMA, LZCNT,
#     MOVBE: Intel Haswell and later, AMD Zen and later), code for them
#     (`-target-cpu haswell`): the word-at-a-time scans and the vector tests of the parser
#     and the writer compile to fewer instructions.
#
# The output is byte-identical to the default build's (CI checks it: `--check`); only the
# speed differs — docs/performance.md, "Forty-first round", has the figures. A binary built
# for x86-64-v3 stops with an illegal-instruction signal on a CPU without those
# instructions: build where it will run, or for the oldest CPU of the fleet with
# TARGET_CPU.
#
# usage: scripts/build-release.sh [--check] [--portable] [--scratch-path DIR]
#   --check         also build the default (debug) normalize and require the same bytes from
#                   both on every example and on a 20,000-record corpus (make_corpus.py)
#   --portable      no CPU-specific instructions (the same as TARGET_CPU=none)
#   --scratch-path  the build directory (default .build-release; .build* is not committed)
#   TARGET_CPU=NAME any `swiftc -target-cpu` value (haswell, znver3, native, ...), or none
set -euo pipefail
cd "$(dirname "$0")/.."

check=false
scratch=.build-release
target_cpu=${TARGET_CPU-}
while [ $# -gt 0 ]; do
  case "$1" in
    --check) check=true ;;
    --portable) target_cpu=none ;;
    --scratch-path)
      [ $# -ge 2 ] || { echo "build-release.sh: --scratch-path needs a directory" >&2; exit 64; }
      scratch=$2
      shift
      ;;
    *) echo "build-release.sh: unknown argument '$1' (usage: [--check] [--portable] [--scratch-path DIR])" >&2; exit 64 ;;
  esac
  shift
done

# The CPU's x86-64-v3 features, from the kernel's list (Linux x86_64 only; elsewhere the
# portable build, unless TARGET_CPU names a CPU).
has_x86_64_v3() {
  [ "$(uname -m)" = x86_64 ] && [ -r /proc/cpuinfo ] || return 1
  local flags
  flags=" $(grep -m1 '^flags' /proc/cpuinfo | cut -d: -f2) "
  for feature in avx avx2 bmi1 bmi2 fma f16c movbe abm; do
    case "$flags" in *" $feature "*) ;; *) return 1 ;; esac
  done
}
if [ -z "$target_cpu" ]; then
  if has_x86_64_v3; then target_cpu=haswell; else target_cpu=none; fi
fi

flags=(-c release --product normalize --scratch-path "$scratch" --experimental-lto-mode=full)
[ "$(uname -s)" = Linux ] && flags+=(--static-swift-stdlib)
[ "$target_cpu" != none ] && flags+=(-Xswiftc -target-cpu -Xswiftc "$target_cpu")
echo "build-release.sh: swift build ${flags[*]}" >&2
swift build "${flags[@]}" >&2
binary="$(swift build "${flags[@]}" --show-bin-path)/normalize"
[ -x "$binary" ] || { echo "build-release.sh: no binary at $binary" >&2; exit 1; }

if $check; then
  swift build --product normalize >&2
  reference="$(swift build --show-bin-path)/normalize"
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  # Each JSON example as a document, each JSON Lines example and a corpus as lines, through
  # both builds.
  # The exit status is compared too: a file with an error record exits 1 in both.
  compare() {
    local name=$1
    shift
    local a b
    set +e
    "$binary" "$@" > "$work/release.out" 2> /dev/null
    a=$?
    "$reference" "$@" > "$work/reference.out" 2> /dev/null
    b=$?
    set -e
    if [ "$a" != "$b" ] || ! cmp -s "$work/release.out" "$work/reference.out"; then
      echo "build-release.sh: the release build and the default build differ on $name (exit $a against $b)" >&2
      diff <(head -c 2000 "$work/release.out") <(head -c 2000 "$work/reference.out") >&2 || true
      exit 1
    fi
  }
  count=0
  for example in examples/*.json; do
    compare "$example" "$example"
    count=$((count + 1))
  done
  for example in examples/*.jsonl; do
    compare "$example (--lines)" --lines "$example"
    count=$((count + 1))
  done
  python3 Benchmarks/make_corpus.py 20000 "$work/corpus.jsonl" > /dev/null
  compare "a 20,000-record corpus (--lines)" --lines "$work/corpus.jsonl"
  compare "a 20,000-record corpus (--lines --jobs 1)" --lines --jobs 1 "$work/corpus.jsonl"
  echo "build-release.sh: the release build ($target_cpu) writes the default build's bytes on $count examples and a 20,000-record corpus" >&2
fi
echo "$binary"
