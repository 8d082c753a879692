#!/usr/bin/env bash
# Builds the DocC documentation of every module that has a catalog (Sources/<Module>/
# <Module>.docc), failing on any DocC warning: a broken symbol link, an unknown topic, a
# malformed article. The archives land in .build/docs/<Module>.doccarchive.
# Usage: scripts/docs.sh [Module...]   (default: every catalogued module)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -gt 0 ]; then
  modules=("$@")
else
  modules=()
  for catalog in Sources/*/*.docc; do modules+=("$(basename "$(dirname "$catalog")")"); done
fi
[ ${#modules[@]} -gt 0 ] || { echo "no documentation catalog under Sources/" >&2; exit 1; }
mkdir -p .build/docs
for module in "${modules[@]}"; do
  echo "==> $module"
  swift package --allow-writing-to-directory .build/docs generate-documentation \
    --target "$module" --warnings-as-errors \
    --output-path ".build/docs/$module.doccarchive"
done
echo "documentation built without warnings: ${modules[*]}"
