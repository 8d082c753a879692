#!/usr/bin/env python3
"""Lists public and open declarations without a `///` doc comment.

Usage: scripts/check-doc-comments.py [DIR…]   (default: Sources adapters/*/Sources)
Exit 1 when any is missing. Attributes (`@inlinable`, `@discardableResult`, …) between the
comment and the declaration are allowed.
"""
import glob
import os
import re
import sys

roots = sys.argv[1:] or ["Sources"] + sorted(glob.glob("adapters/*/Sources"))
decl = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(public|open)\s+(?!import\b)(?:(?:static|final|class|override|mutating|nonisolated|convenience|required|indirect|lazy|let|var|func|init|subscript|struct|enum|protocol|typealias|extension|actor|case)\b)")
missing = []
for root in roots:
    for path in sorted(glob.glob(os.path.join(root, "**", "*.swift"), recursive=True)):
        lines = open(path, encoding="utf-8").read().split("\n")
        for i, line in enumerate(lines):
            if not decl.match(line) or re.match(r"^\s*(public|open)\s+extension\b", line):
                continue
            j = i - 1
            while j >= 0 and re.match(r"^\s*@\w+", lines[j]) and not lines[j].strip().startswith("///"):
                j -= 1
            if j < 0 or not lines[j].strip().startswith("///"):
                missing.append(f"{path}:{i + 1}: {line.strip()}")
for m in missing:
    print(m)
print(f"check-doc-comments: {len(missing)} public declarations without ///", file=sys.stderr)
sys.exit(1 if missing else 0)
