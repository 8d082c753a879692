#!/usr/bin/env python3
"""Counts the atomic read-modify-write instructions a callgrind run executed in one object.

    count_atomics.py OBJECT CALLGRIND_OUT

OBJECT is the file the Swift runtime is in (libswiftCore.so, or the executable when the
standard library is linked statically); CALLGRIND_OUT a profile written with
`--dump-instr=yes`. Prints the number of executed instructions of OBJECT that carry x86's
`lock` prefix — in the runtime, nearly all of them are reference counting: each retain and
each release of a heap object is one, and freeing an object takes another — then those
executions by function, the most first. Benchmarks/profile.sh runs it when ATOMICS=1.

    count_atomics.py --by-caller OBJECT CALLGRIND_OUT [BASE_OUT COUNT]

attributes the same executions to the callers whose retain or release they were: record the
profile with `--separate-callers=5` as well, so that callgrind keeps each function apart by
its last five callers, and the runtime's entry points (`swift_retain'swift_bridgeObjectRetain'
DashXAdapter.read'…`) name the code that copied or let go of a value. With BASE_OUT (the
same command on no input, for the start-up) and COUNT (records or iterations), prints the
difference per record, the most first (docs/performance.md, "Twenty-ninth round": how the
copies of the envelope, the writer, detection and DashX were found).
"""
import collections
import os
import re
import subprocess
import sys

import callgrind_instructions


def lock_instructions(path):
    """The addresses of OBJECT's lock-prefixed instructions, and the function of each."""
    listing = subprocess.run(["objdump", "-d", "--no-show-raw-insn", path], capture_output=True, text=True, check=True)
    function = "?"
    locks = {}
    for line in listing.stdout.splitlines():
        header = re.match(r"^[0-9a-f]+ <(.*)>:$", line)
        if header:
            function = header.group(1)
            continue
        instruction = re.match(r"^\s*([0-9a-f]+):\s+lock\b", line)
        if instruction:
            locks[int(instruction.group(1), 16)] = function
    return locks


def executions(profile, path, locks, by_context=False):
    """Executions of each lock-prefixed instruction of the object at `path` in `profile`:
    by address, or with `by_context` by (address, the function context executing it)."""
    path = os.path.realpath(path)
    resolved = {}
    counts = collections.Counter()
    for obj, context, address, count in callgrind_instructions.costs(profile):
        if obj not in resolved:
            resolved[obj] = os.path.realpath(obj)
        if resolved[obj] == path and address in locks:
            counts[(address, context) if by_context else address] += count
    return counts


def by_caller(arguments):
    """`--by-caller OBJECT PROFILE [BASE_PROFILE COUNT]`: executions by function context."""
    if len(arguments) not in (2, 4):
        sys.exit("usage: count_atomics.py --by-caller OBJECT CALLGRIND_OUT [BASE_OUT COUNT]")
    path, profile = arguments[0], arguments[1]
    locks = lock_instructions(path)
    totals = collections.Counter()
    for (_, context), count in executions(profile, path, locks, by_context=True).items():
        totals[context] += count
    divisor = 1.0
    if len(arguments) == 4:
        for (_, context), count in executions(arguments[2], path, locks, by_context=True).items():
            totals[context] -= count
        divisor = float(arguments[3])
    print(f"{sum(totals.values()) / divisor:.2f}")
    for context, count in sorted(totals.items(), key=lambda item: -item[1]):
        if count / divisor < 0.05:
            break
        print(f"{count / divisor:.2f}\t{context}")


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--by-caller":
        by_caller(sys.argv[2:])
        return
    if len(sys.argv) != 3:
        sys.exit("usage: count_atomics.py OBJECT CALLGRIND_OUT")
    path, profile = sys.argv[1], sys.argv[2]
    locks = lock_instructions(path)
    counts = executions(profile, path, locks)
    by_function = collections.Counter()
    for address, count in counts.items():
        by_function[locks[address]] += count
    print(sum(counts.values()))
    for function, count in by_function.most_common(5):
        print(f"{count}\t{function}")


if __name__ == "__main__":
    main()
