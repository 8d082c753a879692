#!/usr/bin/env python3
"""Measures how much of two cores a command leaves unused: its idle core time.

Usage: idle_time.py CORPUS RUNS CMD [CMD...]

Runs each CMD (one shell-free string: the program and its options; the corpus path is added
last) RUNS times, alternating the commands and reversing their order every other round, with
standard output to /dev/null. For each it prints the median wall time, the median CPU time
(user + system, every thread, from wait4) and the median idle core time — twice the wall
time less the CPU time: the time one of two cores had no work from the command (start-up,
the waits between blocks, the end) — with its quartiles. The idle time separates what the
threads wait for from how fast each record goes, which on a shared host drifts by more than
the waits between minutes (docs/performance.md, "Forty-second round"). Exit status 0; 1 when
a command exits with a status other than 0 or 1 (1: the corpus has malformed lines), or
cannot be started; 2 for a usage error.
"""

import os
import statistics
import sys
import time


def run(command, corpus):
    """Runs `command` on `corpus` once; returns (wall, cpu) in seconds."""
    arguments = command.split() + [corpus]
    start = time.monotonic()
    pid = os.fork()
    if pid == 0:  # the child
        try:
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, 1)
            os.execvp(arguments[0], arguments)
        finally:
            os._exit(127)
    _, status, usage = os.wait4(pid, 0)
    wall = time.monotonic() - start
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        sys.exit(f"idle_time.py: {command} exited with {os.waitstatus_to_exitcode(status)}")
    return wall, usage.ru_utime + usage.ru_stime


def main():
    if len(sys.argv) < 4 or not sys.argv[2].isdigit() or int(sys.argv[2]) < 1:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    corpus, runs, commands = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    if not os.access(corpus, os.R_OK):
        print(f"idle_time.py: cannot read {corpus}", file=sys.stderr)
        return 2
    results = {command: [] for command in commands}
    for round_number in range(runs):
        order = commands if round_number % 2 == 0 else commands[::-1]
        for command in order:
            results[command].append(run(command, corpus))
    for command in commands:
        walls = [wall for wall, _ in results[command]]
        cpus = [cpu for _, cpu in results[command]]
        idles = sorted(2 * wall - cpu for wall, cpu in results[command])
        quartiles = statistics.quantiles(idles, n=4) if len(idles) > 1 else [idles[0]] * 3
        print(
            f"wall {statistics.median(walls) * 1000:7.1f} ms  cpu {statistics.median(cpus) * 1000:7.1f} ms  "
            f"idle {statistics.median(idles) * 1000:5.1f} ms (quartiles {quartiles[0] * 1000:.1f}–{quartiles[2] * 1000:.1f})  "
            f"{command}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
