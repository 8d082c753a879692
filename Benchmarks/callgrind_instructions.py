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
    # Where a cost line's instruction count is: after its positions (`positions: instr line`,
    # two fields), the column of `Ir` among the events the profile names (`events: Ir …`; a
    # profile of `--cache-sim=yes` has eight more). Trailing zero costs may be left out.
    positions = 2
    ir_column = 0
    with open(profile, errors="replace") as lines:
        for line in lines:
            if line.startswith("positions:"):
                positions = len(line.split()) - 1
                continue
            if line.startswith("events:"):
                events = line.split()[1:]
                if "Ir" not in events:
                    raise ValueError(f"{profile}: no Ir event ({' '.join(events)})")
                ir_column = events.index("Ir")
                continue
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
            # The positions (the address first), then the costs, `Ir` among them.
            if len(fields) > positions + ir_column:
                yield current, function, position, int(fields[positions + ir_column])
