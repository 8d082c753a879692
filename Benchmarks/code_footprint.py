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
import re
import sys


def executions(profile):
    """Executions by (object, address), and the function each address is in."""
    objects = {}
    functions = {}
    current = "?"
    function = "?"
    position = 0
    after_call = False
    counts = collections.Counter()
    function_of = {}
    with open(profile, errors="replace") as lines:
        for line in lines:
            if line.startswith(("ob=", "cob=")):
                named = re.match(r"c?ob=\((\d+)\)(?: (.*))?", line.strip())
                if named.group(2):
                    objects[named.group(1)] = named.group(2)
                if line.startswith("ob="):
                    current = os.path.basename(objects.get(named.group(1), "?"))
                continue
            if line.startswith(("fn=", "cfn=")):
                # Names are compressed: `(id) name` the first time, `(id)` after.
                named = re.match(r"c?fn=\((\d+)\)(?: (.*))?", line.strip())
                if named:
                    if named.group(2):
                        functions[named.group(1)] = named.group(2)
                    if line.startswith("fn="):
                        function = functions.get(named.group(1), "?")
                continue
            if line.startswith("calls="):
                after_call = True  # the next line is the call's cost, at the call's position
                continue
            if not line or line[0] not in "0123456789+-*":
                continue
            fields = line.split()
            address = fields[0]
            if address.startswith("0x"):
                position = int(address, 16)
            elif address.startswith("+"):
                position += int(address[1:])
            elif address.startswith("-"):
                position -= int(address[1:])
            if after_call:
                after_call = False
                continue
            # `positions: instr line`: address, line, then the cost.
            if len(fields) > 2:
                counts[(current, position)] += int(fields[-1])
                function_of[(current, position)] = function
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
