#!/usr/bin/env python3
"""Seed corpora and dictionaries for the libFuzzer harnesses under Fuzz/ (scripts/fuzz.sh).

Usage: scripts/fuzz-seeds.py OUTDIR

Writes OUTDIR/seeds/<Harness>/ (one input per file, named by content hash, so reruns are
idempotent) and OUTDIR/dict/<Harness>.dict from what the repository already holds: the
conformance vectors (adapters/*/Vectors, Tests/**/Vectors), examples/, config files and
AASA files. Nothing here is hand-maintained: new vectors become new seeds.
"""
import glob
import hashlib
import json
import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))


def rel(*parts):
    return os.path.join(ROOT, *parts)


def load_json(path):
    with open(path, "rb") as f:
        return json.loads(f.read().decode("utf-8"))


def compact(value):
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def strings(value):
    """Every string in a JSON value, keys included, and inside strings that hold JSON."""
    if isinstance(value, str):
        yield value
        if value[:1] in "{[":
            try:
                yield from strings(json.loads(value))
            except ValueError:
                pass
    elif isinstance(value, list):
        for v in value:
            yield from strings(v)
    elif isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from strings(v)


def keys(value):
    if isinstance(value, str) and value[:1] in "{[":
        try:
            yield from keys(json.loads(value))
        except ValueError:
            pass
    elif isinstance(value, list):
        for v in value:
            yield from keys(v)
    elif isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from keys(v)


def vectors():
    paths = sorted(glob.glob(rel("adapters", "*", "Vectors", "*.json")))
    paths += sorted(glob.glob(rel("Tests", "**", "Vectors", "**", "*.json"), recursive=True))
    paths += sorted(glob.glob(rel("examples", "**", "Vectors", "*.json"), recursive=True))
    for path in paths:
        try:
            yield path, load_json(path)
        except ValueError:
            continue


def fenced_blocks(language):
    """The ```language code blocks of the documentation (docs/, adapters' READMEs, README)."""
    paths = sorted(glob.glob(rel("docs", "**", "*.md"), recursive=True)) + sorted(glob.glob(rel("adapters", "*", "README.md"))) + [rel("README.md")]
    for path in paths:
        if not os.path.exists(path):
            continue
        with open(path, "rb") as f:
            text = f.read()
        for block in re.findall(rb"```" + language.encode() + rb"\n(.*?)```", text, re.S):
            yield block


URL_RE = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: fuzz-seeds.py OUTDIR")
    out = sys.argv[1]
    seeds = {h: set() for h in ("RegistryFuzzer", "NormalizeFuzzer", "ConfigurationFuzzer", "RouteFuzzer", "AASAFuzzer", "VendorURLFuzzer", "DefinitionFuzzer")}
    tokens = {h: set() for h in seeds}

    # Envelopes: every vector input and every example.
    urls = set()
    configs = []
    for _, vector in vectors():
        if "input" in vector:
            seeds["RegistryFuzzer"].add(compact(vector["input"]))
            tokens["RegistryFuzzer"].update(k for k in keys(vector["input"]) if len(k) <= 40)
            urls.update(s for s in strings(vector["input"]) if URL_RE.match(s) and len(s) < 2000)
        if "config" in vector:
            config = vector["config"]
            configs.append(config.encode("utf-8") if isinstance(config, str) else compact(config))
    for path in sorted(glob.glob(rel("examples", "*.json"))):
        with open(path, "rb") as f:
            seeds["RegistryFuzzer"].add(f.read())
    for path in sorted(glob.glob(rel("examples", "*.jsonl"))):
        with open(path, "rb") as f:
            for line in f.read().split(b"\n"):
                if line.strip():
                    seeds["RegistryFuzzer"].add(line)

    # Long strings: the parser reads a string with escapes in one pass into a 1 KiB buffer
    # and any other way past it, so seeds put plain text of 0 to 1,100 bytes before an
    # escape, in a payload value and in a DashX block held in a string (escaped twice).
    for plain in (0, 8, 1000, 1017, 1018, 1019, 1024, 1100):
        for escape in ("\\n", "\\u00e9", "\\ud83d\\udc4b", '\\"'):
            text = "a" * plain + escape + "tail"
            seeds["RegistryFuzzer"].add(
                ('{"kind":"notification","userInfo":{"note":"' + text + '","aps":{"alert":"x"}}}').encode("utf-8"))
            block = '{"id":"' + text + '","url":"https://example.com/a"}'
            seeds["RegistryFuzzer"].add(compact({"kind": "notification", "userInfo": {"dashx": block}}))
            # The alert's text, which the registry checks without building it: the same text
            # in its title and as the alert itself, in an envelope and bare.
            seeds["RegistryFuzzer"].add(
                ('{"kind":"notification","userInfo":{"aps":{"alert":{"title":"' + text + '","body":"b"}},"dashx":"{}"}}').encode("utf-8"))
            seeds["RegistryFuzzer"].add(('{"aps":{"alert":"' + text + '"},"gcm.message_id":"1"}').encode("utf-8"))
    # Alert text the parser refuses: each way a string is refused, where it is read for its kind.
    for bad in (b"\xff", b"\xe3\x81", b"\xc0\xaf", b"\\ud800", b"\\q", b"\x01", b"\\u12"):
        seeds["RegistryFuzzer"].add(b'{"kind":"notification","userInfo":{"aps":{"alert":{"title":"a' + bad + b'"}},"ab":{"c":1}}}')
        seeds["RegistryFuzzer"].add(b'{"aps":{"alert":"' + bad + b'"}}')

    # Streams and documents for the whole record path: the examples as they are, and small
    # JSON Lines streams and arrays of vector inputs, with blank lines, CRLF and a byte order
    # mark among them.
    for path in sorted(glob.glob(rel("examples", "*.json*"))):
        with open(path, "rb") as f:
            seeds["NormalizeFuzzer"].add(f.read())
    inputs = sorted(seeds["RegistryFuzzer"])
    for i in range(0, len(inputs), 3):
        group = [line for line in inputs[i:i + 3] if b"\n" not in line]
        seeds["NormalizeFuzzer"].add(b"\n".join(group) + b"\n")
        seeds["NormalizeFuzzer"].add(b"\xef\xbb\xbf" + b"\r\n \n".join(group))
        seeds["NormalizeFuzzer"].add(b"[" + b",\n ".join(group) + b"]")
    tokens["NormalizeFuzzer"].update(tokens["RegistryFuzzer"] | {"\n", "\r\n", "[", "]", ",", "\ufeff", "  \n"})

    # Vendor URLs: the text after each vendor prefix, and whole URLs.
    prefixes = ("adbinapp://", "taptalkio://", "https://web.taptalk.io/")
    for url in urls:
        for prefix in prefixes:
            if url.lower().startswith(prefix):
                seeds["VendorURLFuzzer"].add(url[len(prefix):].encode("utf-8"))
        if url.lower().startswith(("adbinapp:", "taptalkio:", "https://web.taptalk.io")):
            seeds["VendorURLFuzzer"].add(url.encode("utf-8"))
    tokens["VendorURLFuzzer"].update(
        ["confirm", "cancel", "dismiss", "id=", "url=", "link=", "interaction=", "animate=", "room/", "chat/", "%3A", "%2F", "%00", "javascript:", "https://", "?", "&", "#", "//"]
    )

    # Configurations: the repository's, the examples', and each vector's partial one.
    for path in [rel("config.yaml")] + sorted(glob.glob(rel("examples", "**", "*.yaml"), recursive=True)):
        with open(path, "rb") as f:
            seeds["ConfigurationFuzzer"].add(f.read())
    seeds["ConfigurationFuzzer"].update(configs)
    for block in fenced_blocks("yaml"):
        seeds["ConfigurationFuzzer"].add(block)
    tokens["ConfigurationFuzzer"].update(
        ["version", "app", "schemes", "domains", "appID", "aasa", "defaults", "automaticallyOpenDeeplinks", "adapters", "id", "channels",
         "push", "local", "inApp", "hosts", "screens", "routes", "url", "screen", "security", "allowedSchemes", "allowedHosts",
         "maxURLLength", "limits", "maxRecordBytes", "maxDepth", "dashx", "adobe", "bird", "taptalk", "link", "{id}", "/*", "*.",
         ": ", "- ", "[", "]", "{", "}", "&a", "*a", "!!str", "!!int", "---", "...", "\n  "]
    )

    # Routes: each configured pattern with URLs from the vectors, and the documented patterns.
    patterns = {"campaigndemoapp://products/{id}", "https://web.taptalk.io/chat/{roomID}", "myapp://help/*", "myapp:{a}/{b}"}
    for config in configs + [open(rel("config.yaml"), "rb").read()]:
        patterns.update(m.decode("utf-8") for m in re.findall(rb'url:\s*"?([^"\n,}]+)', config) if b"://" in m or b":" in m)
    sample = sorted(urls)[:200]
    for i, pattern in enumerate(sorted(patterns)):
        chunk = sample[i * 4 % max(len(sample), 1):][:4] or ["campaigndemoapp://products/42?ref=push"]
        seeds["RouteFuzzer"].add("\n".join([pattern] + chunk).encode("utf-8"))
    for url in sample:
        seeds["RouteFuzzer"].add(("campaigndemoapp://products/{id}\n" + url).encode("utf-8"))
    tokens["RouteFuzzer"].update(["{", "}", "{id}", "/*", "*", "://", "%", "%2F", "?", "&", "=", "#", "@", ":", "[", "]", "\n"])

    # AASA files, alone and with a URL to match after a 0xFF byte.
    aasa_files = sorted(glob.glob(rel("examples", "aasa", "*.json"))) + sorted(glob.glob(rel("adapters", "*", "*apple-app-site-association*")))
    for path in aasa_files:
        with open(path, "rb") as f:
            data = f.read()
        seeds["AASAFuzzer"].add(data)
        for probe in ("/buy/42?ref=a#top", "/e/1", "/%E2%82%AC"):
            seeds["AASAFuzzer"].add(data + b"\xff" + b"https://example.com" + probe.encode())
        try:
            tokens["AASAFuzzer"].update(k for k in keys(json.loads(data)) if len(k) <= 40)
        except ValueError:
            pass
    for block in fenced_blocks("json"):
        if b'"applinks"' in block:
            seeds["AASAFuzzer"].add(block)
    tokens["AASAFuzzer"].update(
        ["applinks", "details", "appIDs", "appID", "components", "paths", "defaults", "caseSensitive", "percentEncoded", "substitutionVariables",
         "exclude", "comment", "/", "?", "#", "NOT ", "*", "$(alpha)", "$(lang)", "$(region)", "webcredentials", "apps", "?*", "%"]
    )

    # Adapter definitions: every shipped one (adapters/*/*.yaml, examples/**/*.yaml that are
    # definitions, the test fixtures, valid and broken) and the docs' YAML blocks that look like one.
    definition_paths = sorted(glob.glob(rel("adapters", "*", "*.yaml")))
    definition_paths += sorted(glob.glob(rel("examples", "**", "*.yaml"), recursive=True))
    definition_paths += sorted(glob.glob(rel("Tests", "**", "Definitions", "**", "*.yaml"), recursive=True))
    for path in definition_paths:
        with open(path, "rb") as f:
            data = f.read()
        if re.search(rb"^recognize\s*:", data, re.M):
            seeds["DefinitionFuzzer"].add(data)
            tokens["DefinitionFuzzer"].update(m.decode("utf-8") for m in re.findall(rb"([A-Za-z_][A-Za-z0-9_]*)\s*:", data) if len(m) <= 40)
    for block in fenced_blocks("yaml"):
        if re.search(rb"^recognize\s*:", block, re.M):
            seeds["DefinitionFuzzer"].add(block)
    tokens["DefinitionFuzzer"].update(
        ["version", "id", "summary", "reads", "channel", "recognize", "values", "reject", "trigger", "buttons", "destination", "behavior",
         "messageId", "payload", "tracking", "warnings", "notification", "inAppMessage", "vendorEvent", "url", "origin",
         "exists", "nonEmpty", "isString", "isNumber", "isBool", "isObject", "isArray", "isNull", "isTrue", "equals", "oneOf",
         "anyKeyHasPrefix", "hasScheme", "all", "any", "not", "path", "to", "match", "prefix", "schemes", "first", "firstPresent",
         "literal", "as", "map", "default", "trimmedWarning", "string", "text", "boolean", "json", "case", "caseAndSeparators",
         "when", "error", "at", "message", "code", "invalidPayload", "notAnInteraction", "tap", "dismiss", "open", "action", "button",
         "label", "from", "inAppBrowser", "screen", "clickAction", "app", "none", "target", "parameters", "screenURL", "ifAbsent",
         "problems", "missing", "empty", "wrongType", "warn", "opensURL", "followsEventOverride", "without", "withoutPrefixes",
         "inPlace", "broken", "tooDeep", "keepAs", "@action", "@url", "@key", "$.", "[0]", "['", "']", "[id=@action]", "{@key}",
         "{@value|type}", "|quoted", "{{", "}}", ": ", "- ", "[", "]", "{", "}", "\n  ", "\n    ", "deep_link", "gcm.app_link", "CIO-Delivery-ID", "^d"]
    )

    for harness, items in seeds.items():
        directory = os.path.join(out, "seeds", harness)
        os.makedirs(directory, exist_ok=True)
        for item in items:
            name = hashlib.sha1(item).hexdigest()
            path = os.path.join(directory, name)
            if not os.path.exists(path):
                with open(path, "wb") as f:
                    f.write(item)
        os.makedirs(os.path.join(out, "dict"), exist_ok=True)
        with open(os.path.join(out, "dict", harness + ".dict"), "w", encoding="ascii") as f:
            for token in sorted(tokens[harness]):
                escaped = "".join(
                    c if 0x20 <= ord(c) < 0x7F and c not in '\\"' else ("\\" + c if c in '\\"' else "".join("\\x%02X" % b for b in c.encode("utf-8")))
                    for c in token
                )
                f.write('"%s"\n' % escaped)
        print("%-20s %5d seeds, %4d dictionary tokens" % (harness, len(items), len(tokens[harness])))


if __name__ == "__main__":
    main()
