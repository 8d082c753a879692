"""Reads a callgrind profile written with `--dump-instr=yes`, instruction by instruction.

The one reader of that format for the scripts beside it (`count_atomics.py`,
`code_footprint.py`): `costs(profile)` yields, for each cost line of the profile, the object
the instruction is in (its path as the profile names it), the function context executing it
(with `--separate-callers=N`, the function and its last N callers), its address and the
executions it counts. A call's own line (the inclusive cost of the call, after `calls=`) is
skipped: it is not an execution of the calling instruction's own.
"""
import re


def costs(profile):
    """Yields `(object, function, address, count)` for each instruction cost line of `profile`."""
    objects = {}
    functions = {}
    current = "?"
    function = "?"
    position = 0
    after_call = False
    with open(profile, errors="replace") as lines:
        for line in lines:
            if line.startswith(("ob=", "cob=")):
                named = re.match(r"c?ob=\((\d+)\)(?: (.*))?", line.strip())
                if named.group(2):
                    objects[named.group(1)] = named.group(2)
                if line.startswith("ob="):
                    current = objects.get(named.group(1), "?")
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
            # `positions: instr line`: the address, the source line, then the cost.
            if len(fields) > 2:
                yield current, function, position, int(fields[-1])
