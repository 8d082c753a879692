#!/usr/bin/env bash
# Runs the Spark integration's tests (test_normalize_job.py) in local mode: installs PySpark when
# it is missing, builds normalize in release mode unless NORMALIZE names a built binary, and exits
# non-zero when a test fails. Usage: integrations/spark/run_test.sh [test names]
#   integrations/spark/run_test.sh test_normalize_job.NormalizeJobTests.test_examples_match_the_cli
#   NORMALIZE=/path/to/normalize integrations/spark/run_test.sh   # skip the build
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"

if ! command -v java >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "==> installing a Java runtime for Spark (openjdk-17-jre-headless)"
    apt-get update -qq && apt-get install -y -qq openjdk-17-jre-headless >/dev/null
  else
    echo "run_test.sh: Spark needs Java 17 or later on PATH (java was not found)" >&2
    exit 2
  fi
fi

if ! python3 -c 'import pyspark' 2>/dev/null; then
  echo "==> installing PySpark"
  python3 -m pip install --quiet 'pyspark>=3.5'
fi

if [ -z "${NORMALIZE:-}" ]; then
  echo "==> building normalize (swift build -c release --product normalize)"
  (cd "$root" && swift build -c release --product normalize)
  NORMALIZE="$(cd "$root" && swift build -c release --show-bin-path)/normalize"
fi
if [ ! -x "$NORMALIZE" ]; then
  echo "run_test.sh: NORMALIZE='$NORMALIZE' is not an executable file" >&2
  exit 2
fi
export NORMALIZE

echo "==> Spark integration tests (local[2], normalize: $NORMALIZE)"
cd "$here"
start=$(date +%s)
python3 -m unittest -v "${@:-test_normalize_job}"
echo "==> Spark integration tests passed in $(( $(date +%s) - start )) s"
