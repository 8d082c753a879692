#!/usr/bin/env bash
# Installs what Benchmarks/run_bench.sh compares normalize against, on Debian or Ubuntu:
# orjson for the Python reference and its parse-only floor (PyPI), simdjson for the C++
# parse floor (libsimdjson-dev), GNU time for peak memory, g++, and valgrind for
# Benchmarks/profile.sh's instruction counts. Not needed for
# `swift test` or CI, which run no benchmarks.
set -euo pipefail
sudo=""
if [ "$(id -u)" != 0 ]; then sudo=sudo; fi
$sudo apt-get update -qq
$sudo apt-get install -y -qq libsimdjson-dev g++ time valgrind python3-pip
python3 -m pip install --quiet orjson || python3 -m pip install --quiet --break-system-packages orjson
echo "benchmark dependencies installed: $(g++ --version | head -1); simdjson $(dpkg-query -W -f='${Version}' libsimdjson-dev); orjson $(python3 -c 'import orjson; print(orjson.__version__)'); $(valgrind --version)"
