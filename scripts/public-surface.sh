#!/usr/bin/env bash
# Lists the public declarations of one module of this package, one per line, sorted:
#
#     scripts/public-surface.sh [MODULE] [--access public|package]
#
# MODULE defaults to TapRoute (the core); `--access package` lists the `package` declarations
# too. Each line is `path<TAB>kind<TAB>declaration`, where path is the declaration's qualified
# name (`AdapterRegistry.normalize(_:)`). The list comes
# from the compiler's symbol graph of the built module (swift-symbolgraph-extract), so it holds
# exactly what another module can name: members a protocol's default implementation adds
# (`!=` from `Equatable`) are left out, extensions of other modules' types are included. Diff
# two runs to see what a change added to or removed from a module's API.
#
# The module is built first (`swift build --target MODULE`, debug) in a build directory of its
# own, so the flags of the usual builds in .build are left alone. Environment: SWIFT (the `swift`
# driver, default `swift` on PATH), BUILD_PATH (default .build-surface).
set -euo pipefail

module=TapRoute
access=public
while [[ $# -gt 0 ]]; do
    case "$1" in
        --access) access="$2"; shift 2 ;;
        -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
        *) module="$1"; shift ;;
    esac
done

cd "$(dirname "$0")/.."
swift=${SWIFT:-swift}
build_path=${BUILD_PATH:-.build-surface}
"$swift" build --build-path "$build_path" --target "$module" >&2
bin=$("$swift" build --build-path "$build_path" --show-bin-path)
extract="$(dirname "$(command -v "$swift")")/swift-symbolgraph-extract"

modules="$bin/Modules"
[[ -d "$modules" ]] || modules="$bin"
triple=$("$swift" -print-target-info | python3 -c 'import json, sys; print(json.load(sys.stdin)["target"]["triple"])')

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$extract" -module-name "$module" -target "$triple" -I "$modules" \
    -minimum-access-level "$access" -skip-synthesized-members -output-dir "$out" >&2

python3 - "$out" "$access" <<'PY'
import glob, json, os, sys

directory, access = sys.argv[1], sys.argv[2]
levels = {"public": {"public", "open"}, "package": {"public", "open", "package"}}[access]
lines = set()
for path in glob.glob(os.path.join(directory, "*.symbols.json")):
    with open(path, encoding="utf-8") as f:
        graph = json.load(f)
    for symbol in graph.get("symbols", []):
        if symbol.get("accessLevel") not in levels:
            continue
        kind = symbol["kind"]["identifier"].removeprefix("swift.")
        name = ".".join(symbol["pathComponents"])
        declaration = "".join(f["spelling"] for f in symbol.get("declarationFragments", []))
        lines.add(f"{name}\t{kind}\t{' '.join(declaration.split())}")
print("\n".join(sorted(lines)))
PY
