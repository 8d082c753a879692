#!/usr/bin/env python3
"""Validates every expected Interaction in the repository's conformance vectors against
docs/interaction.schema.json, and checks that the schema rejects deliberately wrong ones.

Usage: scripts/validate-schema.py [REPO_ROOT]   (exit 0: all valid; 1: a problem)
Needs Python's `jsonschema` package (pip install jsonschema).
"""
import glob
import json
import os
import sys

try:
    import jsonschema
except ImportError:
    print("validate-schema: the Python package 'jsonschema' is missing (pip install jsonschema)", file=sys.stderr)
    sys.exit(1)

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
schema = json.load(open(os.path.join(root, "docs", "interaction.schema.json"), encoding="utf-8"))
validator = jsonschema.Draft202012Validator(schema)
jsonschema.Draft202012Validator.check_schema(schema)

files = sorted(glob.glob(os.path.join(root, "adapters", "*", "Vectors", "*.json"))
               + glob.glob(os.path.join(root, "Tests", "**", "Vectors", "**", "*.json"), recursive=True))
checked = 0
failures = 0
for path in files:
    document = json.load(open(path, encoding="utf-8"))
    vectors = document if isinstance(document, list) else [document]
    for i, vector in enumerate(vectors):
        expected = vector.get("expected")
        if not isinstance(expected, dict) or "error" in expected:
            continue
        checked += 1
        for error in validator.iter_errors(expected):
            failures += 1
            where = "/".join(str(p) for p in error.absolute_path) or "(root)"
            print(f"{os.path.relpath(path, root)}[{i}]: {where}: {error.message}")

wrong = [
    ("an unknown target", {"vendor": "x", "channel": "push", "trigger": {"type": "tap"},
                           "destination": {"type": "url", "url": "a:b", "target": "safari"}, "handling": "app"}),
    ("a missing handling", {"vendor": "x", "channel": "push", "trigger": {"type": "tap"}, "destination": {"type": "app"}}),
    ("an automatic screen", {"vendor": "x", "channel": "push", "trigger": {"type": "tap"},
                             "destination": {"type": "screen", "name": "s"}, "handling": "automatic"}),
    ("an empty payload", {"vendor": "x", "channel": "push", "trigger": {"type": "tap"}, "destination": {"type": "app"},
                          "handling": "app", "payload": {}}),
    ("a button trigger without id", {"vendor": "x", "channel": "push", "trigger": {"type": "button"},
                                     "destination": {"type": "app"}, "handling": "app"}),
    ("a non-string parameter", {"vendor": "x", "channel": "push", "trigger": {"type": "tap"},
                                "destination": {"type": "screen", "name": "s", "parameters": {"id": 1}}, "handling": "app"}),
]
for name, instance in wrong:
    if validator.is_valid(instance):
        failures += 1
        print(f"the schema accepts a deliberately wrong Interaction ({name})")

# Outgoing messages (docs/message.schema.json): every encode vector's message and every
# examples/message*.json, and deliberately wrong ones.
message_schema = json.load(open(os.path.join(root, "docs", "message.schema.json"), encoding="utf-8"))
jsonschema.Draft202012Validator.check_schema(message_schema)
message_validator = jsonschema.Draft202012Validator(message_schema)
message_files = sorted(glob.glob(os.path.join(root, "adapters", "*", "Vectors", "encode", "*.json"))
                       + glob.glob(os.path.join(root, "examples", "**", "Vectors", "encode", "*.json"), recursive=True))
messages = 0
for path in message_files:
    vector = json.load(open(path, encoding="utf-8"))
    messages += 1
    for error in message_validator.iter_errors(vector.get("message")):
        failures += 1
        where = "/".join(str(p) for p in error.absolute_path) or "(root)"
        print(f"{os.path.relpath(path, root)}: message/{where}: {error.message}")
for path in sorted(glob.glob(os.path.join(root, "examples", "message*.json"))):
    document = json.load(open(path, encoding="utf-8"))
    for i, message in enumerate(document if isinstance(document, list) else [document]):
        messages += 1
        for error in message_validator.iter_errors(message):
            failures += 1
            print(f"{os.path.relpath(path, root)}[{i}]: {error.message}")
wrong_messages = [
    ("no body", {"title": "x"}),
    ("an unknown key", {"body": "x", "url": "https://example.com"}),
    ("a url without url", {"body": "x", "destination": {"type": "url"}}),
    ("a button without id", {"body": "x", "buttons": [{"label": "a"}]}),
    ("a non-string parameter", {"body": "x", "destination": {"type": "screen", "name": "s", "parameters": {"id": 1}}}),
]
for name, instance in wrong_messages:
    if message_validator.is_valid(instance):
        failures += 1
        print(f"the message schema accepts a deliberately wrong message ({name})")

print(f"validate-schema: {checked} expected Interactions in {len(files)} vector files, "
      f"{len(wrong)} wrong ones; {messages} messages, {len(wrong_messages)} wrong ones; {failures} problems")
sys.exit(1 if failures or checked == 0 else 0)
