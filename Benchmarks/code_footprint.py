#!/usr/bin/env python3
"""The code a loop runs through on each pass: its hot 64-byte lines, from two callgrind runs.

    code_footprint.py RUN_N RUN_0 N [TOP] [--binary PATH]

RUN_N and RUN_0 are callgrind profiles, written with `--dump-instr=yes`, of the same program
doing N passes of a loop and none (PushInstructions with N and 0, say). A line of code — 64
bytes, the unit the instruction cache holds — counts as the loop's when its instructions ran
at least N/2 times more in RUN_N than in RUN_0: once a pass, give or take a branch taken every
other time. Prints the count of such lines in each object and in all, and the TOP (default
25) functions with the most of them.

With `--binary PATH` (the program the profiles ran, or a copy of it with the same code), it also
says how full the program's own hot lines are: the bytes of the loop's instructions in them
(each instruction's size from `objdump -d`), the lines those bytes would take packed, and the
functions whose hot lines hold the most such waste — hot instructions spread among code the loop
does not run, as an error message's construction inlined among them (docs/performance.md,
"Forty-sixth round").

Why it matters: a level-1 instruction cache holds 32 KiB (512 lines) on the machines of
docs/performance.md. A loop whose lines are more than that misses the cache on most of them on
every pass, whatever its instruction count, which callgrind's cache simulation (`--cache-sim=yes`,
the I1mr column) shows and wall time pays (docs/performance.md, "Thirty-sixth round").
"""
import collections
import os
import re
import subprocess
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


def instruction_sizes(binary):
    """Each instruction's size in bytes by address: its bytes as `objdump -d` lists them, on
    one line (`--insn-width=16`: an x86 instruction has at most 15)."""
    listing = subprocess.run(["objdump", "-d", "--insn-width=16", binary], capture_output=True, text=True, check=True)
    sizes = {}
    for line in listing.stdout.splitlines():
        match = re.match(r"\s+([0-9a-f]+):\t((?:[0-9a-f]{2} )+)", line)
        if match:
            sizes[int(match.group(1), 16)] = len(match.group(2).split())
    return sizes


def fill(binary, hot, function_of, top):
    """Prints how full the hot lines of `binary`'s own code are (`hot`: its hot addresses)."""
    sizes = instruction_sizes(binary)
    missing = [address for address in hot if address not in sizes]
    if missing:
        sys.exit(f"{len(missing)} hot addresses are not instructions of {binary}: not the program profiled?")
    lines_of = collections.defaultdict(set)
    bytes_of = collections.Counter()
    for address in hot:
        function = function_of[(os.path.basename(binary), address)]
        lines_of[function].add(address // 64)
        bytes_of[function] += sizes[address]
    lines = len({address // 64 for address in hot})
    used = sum(bytes_of.values())
    packed = (used + 63) // 64
    print(f"{binary}: {lines} hot lines hold {used} bytes of hot instructions ({used / (lines * 64):.0%} full); packed: {packed} lines")
    waste = {function: len(lines_of[function]) - (bytes_of[function] + 63) // 64 for function in lines_of}
    for function, lost in sorted(waste.items(), key=lambda item: -item[1])[:top]:
        print(f"{lost}\tlines over packed ({len(lines_of[function])} hot, {bytes_of[function]} bytes)\t{function}")


def main():
    arguments = sys.argv[1:]
    binary = None
    if "--binary" in arguments:
        flag = arguments.index("--binary")
        if flag + 1 >= len(arguments):
            sys.exit("usage: code_footprint.py RUN_N RUN_0 N [TOP] [--binary PATH]")
        binary = arguments[flag + 1]
        del arguments[flag : flag + 2]
    if len(arguments) not in (3, 4):
        sys.exit("usage: code_footprint.py RUN_N RUN_0 N [TOP] [--binary PATH]")
    loop, function_of = executions(arguments[0])
    base, _ = executions(arguments[1])
    passes = int(arguments[2])
    top = int(arguments[3]) if len(arguments) == 4 else 25
    by_object = collections.defaultdict(set)
    by_function = collections.defaultdict(set)
    hot = collections.defaultdict(set)
    for (obj, address), count in loop.items():
        if count - base.get((obj, address), 0) >= passes / 2:
            hot[obj].add(address)
            by_object[obj].add(address // 64)
            by_function[function_of[(obj, address)]].add((obj, address // 64))
    total = sum(len(lines) for lines in by_object.values())
    for obj, lines in sorted(by_object.items(), key=lambda item: -len(item[1])):
        print(f"{len(lines)}\tlines\t{obj}")
    print(f"{total}\tlines in all ({total * 64} bytes)")
    for function, lines in sorted(by_function.items(), key=lambda item: -len(item[1]))[:top]:
        print(f"{len(lines)}\t{function}")
    if binary:
        name = os.path.basename(binary)
        if not hot[name]:
            sys.exit(f"no hot instructions in an object named {name}: give the program the profiles ran")
        fill(binary, hot[name], function_of, top)


if __name__ == "__main__":
    main()
