#!/usr/bin/env python3
"""Checks that reference_normalize.py does the job `normalize --lines` does, record by record.

Usage: compare_reference.py CORPUS [--normalize CMD] [--config FILE] [--examples K]

Runs `normalize --lines --config FILE` (CMD: the option, else $NORMALIZE, else `normalize`
on PATH; FILE: the option, else the repository's config.yaml) and reference_normalize.py on
CORPUS, and compares their outputs line by line. Per vendor (the one normalize reports, or
"error" for its error records) it prints how many lines are byte-identical, how many are
the same JSON once both are parsed (key order aside), and how many agree on vendor,
destination and handling (for error records: on the error code), then the first K (default
3) differences of each vendor with the input line. Exit status 0 when the outputs have the
same number of lines, 1 when they do not, 2 for a usage error.
"""

import os
import shlex
import subprocess
import sys

try:
    import orjson

    loads = orjson.loads
except ImportError:  # pragma: no cover - depends on the machine
    import json

    loads = json.loads

HERE = os.path.dirname(os.path.abspath(__file__))


def option(args, name, default):
    if name in args:
        i = args.index(name)
        if i + 1 >= len(args):
            raise ValueError(name)
        value = args[i + 1]
        del args[i : i + 2]
        return value
    return default


def run(argv, corpus):
    with open(corpus, "rb") as source:
        done = subprocess.run(argv, stdin=source, stdout=subprocess.PIPE)
    if done.returncode not in (0, 1):
        print(f"{shlex.join(argv)} exited with status {done.returncode}", file=sys.stderr)
    return done.stdout.splitlines(), done.returncode


def canonical(value):
    """The value with its objects' keys sorted, for comparison regardless of key order."""
    if isinstance(value, dict):
        return {k: canonical(value[k]) for k in sorted(value)}
    if isinstance(value, list):
        return [canonical(v) for v in value]
    return value


def essentials(record):
    if "error" in record:
        return ("error", record["error"].get("code"))
    return (record.get("vendor"), canonical(record.get("destination")), record.get("handling"))


def differences(a, b, path="$"):
    """The paths where a and b differ, as short strings."""
    if isinstance(a, dict) and isinstance(b, dict):
        out = []
        for key in list(a) + [k for k in b if k not in a]:
            if key not in b:
                out.append(f"{path}.{key} only in normalize")
            elif key not in a:
                out.append(f"{path}.{key} only in the reference")
            else:
                out.extend(differences(a[key], b[key], f"{path}.{key}"))
        return out
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        out = []
        for i, (x, y) in enumerate(zip(a, b)):
            out.extend(differences(x, y, f"{path}[{i}]"))
        return out
    if a != b:
        return [f"{path}: {a!r:.160} vs {b!r:.160}"]
    return []


def main(argv):
    args = list(argv[1:])
    try:
        normalize = option(args, "--normalize", os.environ.get("NORMALIZE", "normalize"))
        config = option(args, "--config", os.path.join(HERE, "..", "config.yaml"))
        examples = int(option(args, "--examples", "3"))
    except ValueError:
        args = []
    if len(args) != 1 or args[0].startswith("-"):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    corpus = args[0]
    ours, ours_status = run(shlex.split(normalize) + ["--lines", "--quiet", "--config", config], corpus)
    theirs, theirs_status = run([sys.executable, os.path.join(HERE, "reference_normalize.py"), corpus], corpus)
    with open(corpus, "rb") as f:
        inputs = [line for line in f if line.strip()]
    print(f"{len(inputs)} records; normalize wrote {len(ours)} lines (status {ours_status}), the reference {len(theirs)} (status {theirs_status})")
    if len(ours) != len(theirs):
        return 1

    stats, shown = {}, {}
    for number, (a_line, b_line) in enumerate(zip(ours, theirs)):
        a, b = loads(a_line), loads(b_line)
        vendor = "error" if "error" in a else a.get("vendor", "?")
        row = stats.setdefault(vendor, [0, 0, 0, 0])
        row[0] += 1
        if a_line == b_line:
            row[1] += 1
        same = canonical(a) == canonical(b)
        row[2] += same
        row[3] += essentials(a) == essentials(b)
        if not same and len(shown.setdefault(vendor, [])) < examples:
            shown[vendor].append((number, differences(a, b)))

    print()
    print("| vendor | records | byte-identical | same JSON | vendor + destination + handling |")
    print("| --- | ---: | ---: | ---: | ---: |")
    total = [0, 0, 0, 0]
    for vendor, row in sorted(stats.items(), key=lambda item: -item[1][0]):
        total = [t + r for t, r in zip(total, row)]
        print(f"| {vendor} | {row[0]} | " + " | ".join(f"{r / row[0]:.1%}" for r in row[1:]) + " |")
    print(f"| all | {total[0]} | " + " | ".join(f"{t / total[0]:.1%}" for t in total[1:]) + " |")
    for vendor, cases in shown.items():
        if not cases:
            continue
        print(f"\n{vendor}:")
        for number, diffs in cases:
            text = inputs[number].decode("utf-8", "replace").rstrip("\n")
            print(f"  line {number + 1}: {text[:600]}")
            for d in diffs[:6]:
                print(f"    {d}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
