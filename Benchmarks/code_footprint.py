#!/usr/bin/env python3
"""The code a loop runs through on each pass: its hot 64-byte lines, from two callgrind runs.

    code_footprint.py RUN_N RUN_0 N [TOP]

RUN_N and RUN_0 are callgrind profiles, written with `--dump-instr=yes`, of the same program
doing N passes of a loop and none (PushInstructions with N and 0, say). A line of code — 64
bytes, the unit the instruction cache holds — counts as the loop's when its instructions ran
at least N/2 times more in RUN_N than in RUN_0: once a pass, give or take a branch taken every
other time. Prints the count of such lines in each object and in all, and the TOP (default
25) functions with the most of them.

Why it matters: a level-1 instruction cache holds 32 KiB (512 lines) on the machines of
docs/performance.md. A loop whose lines are more than that misses the cache on most of them on
every pass, whatever its instruction count, which callgrind's cache simulation (`--cache-sim=yes`,
the I1mr column) shows and wall time pays (docs/performance.md, "Thirty-sixth round").
"""
import collections
import os
import sys

import callgrind_instructions


def executions(profile):
    """Executions by (object's file name, address), and the function each address is in."""
    counts = collections.Counter()
    function_of = {}
    for obj, function, address, count in callgrind_instructions.costs(profile):
        key = (os.path.basename(obj), address)
        counts[key] += count
        function_of[key] = function
    return counts, function_of


def main():
    if len(sys.argv) not in (4, 5):
        sys.exit("usage: code_footprint.py RUN_N RUN_0 N [TOP]")
    loop, function_of = executions(sys.argv[1])
    base, _ = executions(sys.argv[2])
    passes = int(sys.argv[3])
    top = int(sys.argv[4]) if len(sys.argv) == 5 else 25
    by_object = collections.defaultdict(set)
    by_function = collections.defaultdict(set)
    for (obj, address), count in loop.items():
        if count - base.get((obj, address), 0) >= passes / 2:
            by_object[obj].add(address // 64)
            by_function[function_of[(obj, address)]].add((obj, address // 64))
    total = sum(len(lines) for lines in by_object.values())
    for obj, lines in sorted(by_object.items(), key=lambda item: -len(item[1])):
        print(f"{len(lines)}\tlines\t{obj}")
    print(f"{total}\tlines in all ({total * 64} bytes)")
    for function, lines in sorted(by_function.items(), key=lambda item: -len(item[1]))[:top]:
        print(f"{len(lines)}\t{function}")


if __name__ == "__main__":
    main()
