#!/usr/bin/env python3
"""Validates every adapter definition the repository ships against
docs/adapter-definition.schema.json, and checks that the schema rejects broken ones.

Usage: scripts/check-definitions.py [REPO_ROOT]   (exit 0: all good; 1: a problem)
Needs Python's `jsonschema` and `yaml` (PyYAML) packages (.ci/run installs both).

Definitions checked (each must validate):
  - adapters/*/*.yaml                        built-in definitions
  - examples/**/*.yaml, except config.yaml   examples (config.yaml files are configurations)
  - Tests/**/Definitions/*.yaml              test fixtures
Each shipped one (adapters/, examples/) must start with the comment
  # yaml-language-server: $schema=<relative path to docs/adapter-definition.schema.json>
naming the schema by a path that exists, so editors complete and check it.

  - the ```yaml blocks of docs/*.md that are whole definitions (top-level id and recognize)

Broken definitions (each must be REJECTED by the schema):
  - Tests/**/Definitions/Broken/*.yaml       one mistake per file, named on its first line
"""
import glob
import json
import os
import re
import sys

try:
    import jsonschema
    import yaml
except ImportError as error:
    print(f"check-definitions: a Python package is missing ({error}); pip install jsonschema pyyaml", file=sys.stderr)
    sys.exit(1)

root = os.path.normpath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
schema_path = os.path.join(root, "docs", "adapter-definition.schema.json")
schema = json.load(open(schema_path, encoding="utf-8"))
Validator = jsonschema.validators.validator_for(schema)
Validator.check_schema(schema)
validator = Validator(schema)
COMMENT = "# yaml-language-server: $schema="


def load(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    return text, yaml.safe_load(text)


def rel(path):
    return os.path.relpath(path, root)


def find(*pattern):
    return sorted(glob.glob(os.path.join(root, *pattern), recursive=True))


shipped = find("adapters", "*", "*.yaml") + [p for p in find("examples", "**", "*.yaml") if os.path.basename(p) != "config.yaml"]
fixtures = [p for p in find("Tests", "**", "Definitions", "*.yaml")]
broken = find("Tests", "**", "Definitions", "Broken", "*.yaml")

problems = 0
for path in shipped + fixtures:
    try:
        text, document = load(path)
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as error:
        problems += 1
        print(f"{rel(path)}: cannot read: {error}")
        continue
    for error in sorted(validator.iter_errors(document), key=lambda e: list(e.absolute_path)):
        problems += 1
        where = "/".join(str(p) for p in error.absolute_path) or "(root)"
        print(f"{rel(path)}: {where}: {error.message}")
    if path in shipped:
        first = text.split("\n", 1)[0]
        if not first.startswith(COMMENT):
            problems += 1
            print(f"{rel(path)}:1: the first line must be '{COMMENT}<path to docs/adapter-definition.schema.json>'")
        else:
            target = os.path.normpath(os.path.join(os.path.dirname(path), first[len(COMMENT):].strip()))
            if target != os.path.normpath(schema_path):
                problems += 1
                print(f"{rel(path)}:1: the $schema comment names {first[len(COMMENT):].strip()}, not docs/adapter-definition.schema.json")

for doc in find("docs", "*.md"):
    text = open(doc, encoding="utf-8").read()
    for match in re.finditer(r"```yaml\n(.*?)```", text, re.S):
        block = match.group(1)
        if not (re.search(r"^id\s*:", block, re.M) and re.search(r"^recognize\s*:", block, re.M)):
            continue
        line = text.count("\n", 0, match.start()) + 2
        try:
            document = yaml.safe_load(block)
        except yaml.YAMLError as error:
            problems += 1
            print(f"{rel(doc)}:{line}: a definition example that is not YAML: {error}")
            continue
        fixtures.append(doc)
        for error in validator.iter_errors(document):
            problems += 1
            where = "/".join(str(p) for p in error.absolute_path) or "(root)"
            print(f"{rel(doc)}:{line}: {where}: {error.message}")

if not broken:
    problems += 1
    print("no broken definitions found under Tests/**/Definitions/Broken: the rejection check would prove nothing")
for path in broken:
    try:
        text, document = load(path)
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as error:
        problems += 1
        print(f"{rel(path)}: a broken fixture must be valid YAML (its mistake is the definition's), but: {error}")
        continue
    if validator.is_valid(document):
        problems += 1
        mistake = text.split("\n", 1)[0].lstrip("# ").strip()
        print(f"{rel(path)}: the schema accepts this broken definition ({mistake})")

valid = len(shipped) + len(fixtures)
if problems:
    print(f"check-definitions: {problems} problem(s)", file=sys.stderr)
    sys.exit(1)
print(f"check-definitions: {valid} definition(s) valid, {len(broken)} broken one(s) rejected")
