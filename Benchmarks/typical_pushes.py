#!/usr/bin/env python3
"""Picks one typical push per vendor from a corpus, for InterleavedRatios' `--pushes`.

Usage: typical_pushes.py NORMALIZE CORPUS.jsonl OUT.jsonl [LINES]

Runs `NORMALIZE --lines --jobs 1` on the first LINES lines of the corpus (default 20,000),
keeps the notification envelopes that normalize without an error, and writes, for each
vendor the output names (in alphabetical order), the one whose line is nearest 500 bytes
(the first of those at the same distance): the push the in-process goal calls typical, as
each vendor sends it. The corpus is make_corpus.py's, so the same command picks the same
lines. docs/performance.md ("Thirty-seventh round") has what they measured.
"""
import json
import subprocess
import sys


def main():
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__.strip().splitlines()[2])
    normalize, corpus, out = sys.argv[1:4]
    lines = int(sys.argv[4]) if len(sys.argv) == 5 else 20000
    with open(corpus, "rb") as f:
        records = []
        for line in f:
            if len(records) == lines:
                break
            records.append(line.rstrip(b"\n"))
    result = subprocess.run(
        [normalize, "--lines", "--jobs", "1"], input=b"\n".join(records) + b"\n", capture_output=True
    )
    outputs = result.stdout.split(b"\n")[:-1]
    if len(outputs) != len(records):
        sys.exit(f"{normalize} wrote {len(outputs)} lines for {len(records)} records")
    chosen = {}
    for record, output in zip(records, outputs):
        try:
            envelope = json.loads(record)
        except ValueError:
            continue
        if not isinstance(envelope, dict) or envelope.get("kind") != "notification":
            continue
        interaction = json.loads(output)
        if "error" in interaction:
            continue
        vendor = interaction["vendor"]
        if vendor not in chosen or abs(len(record) - 500) < abs(len(chosen[vendor]) - 500):
            chosen[vendor] = record
    with open(out, "wb") as f:
        for vendor in sorted(chosen):
            f.write(chosen[vendor] + b"\n")
    for vendor in sorted(chosen):
        print(f"{vendor}: {len(chosen[vendor])} bytes")


if __name__ == "__main__":
    main()
