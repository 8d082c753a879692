#!/usr/bin/env python3
"""The script a back end might write instead of `normalize --lines`: a throughput baseline.

Usage: reference_normalize.py [--stdlib] [FILE|-]

Reads JSON Lines envelopes and writes one JSON object per non-blank line, in order: an
Interaction in TapRoute's JSON form, or {"error": {"code", "message", "line"}}. Exit status
0 when every record normalized, 1 when some failed, 2 for a usage error. Parsing and writing
use orjson when it is installed (`pip install orjson`), else the standard `json` module;
`--stdlib` forces the standard module.

It does the work `normalize` does for the corpus of make_corpus.py with the repository's
default config.yaml — detect the vendor, read its conventions, apply URL safety, the
products/{id} route, app schemes and domains, and the handling defaults — but it is a
baseline for timing, not a specification: it covers the common cases of each vendor and
leaves out most warnings, the vendors' edge cases and AASA rules. The adapters' READMEs and
conformance vectors are the specification.
"""

import sys
from urllib.parse import unquote, urlsplit, parse_qsl

try:
    import orjson
except ImportError:  # pragma: no cover - depends on the machine
    orjson = None
import json

APP_SCHEMES = {"campaigndemoapp", "taptalkio"}
APP_DOMAINS = {"web.taptalk.io"}
ALLOWED_SCHEMES = {"https", "http", "campaigndemoapp", "taptalkio", "tel", "mailto"}
MAX_URL = 4096
DEFAULT_ACTION = "com.apple.UNNotificationDefaultActionIdentifier"
DISMISS_ACTION = "com.apple.UNNotificationDismissActionIdentifier"


class Failure(Exception):
    def __init__(self, code, message, path="$"):
        super().__init__(message)
        self.code, self.message, self.path = code, message, path


def trigger(action, label=None):
    if action is None or action == DEFAULT_ACTION:
        return {"type": "tap"}
    if action == DISMISS_ACTION:
        return {"type": "dismiss"}
    out = {"type": "button", "id": action}
    if label:
        out["label"] = label
    return out


# Policy ------------------------------------------------------------------------------------


def safe(url):
    """The reason a URL is rejected, or None."""
    if not isinstance(url, str) or not url or len(url) > MAX_URL or any(ord(c) < 0x21 for c in url):
        return "malformed"
    scheme, sep, _ = url.partition(":")
    if not sep or not scheme:
        return "no scheme"
    if scheme.lower() not in ALLOWED_SCHEMES:
        return f"scheme '{scheme.lower()}' is not allowed"
    return None


def route(url):
    """campaigndemoapp://products/{id} → the product screen, with the query items."""
    parts = urlsplit(url)
    if parts.scheme.lower() != "campaigndemoapp" or parts.netloc != "products":
        return None
    segments = [s for s in parts.path.split("/") if s]
    if len(segments) != 1:
        return None
    parameters = {"id": unquote(segments[0])}
    for name, value in parse_qsl(parts.query, keep_blank_values=True):
        parameters.setdefault(name, value)
    return {"type": "screen", "name": "product", "parameters": parameters, "url": url}


def apply_policy(interaction, automatic):
    destination = interaction["destination"]
    if destination["type"] != "url":
        interaction["handling"] = "app"
        return interaction
    url = destination["url"]
    reason = safe(url)
    if reason:
        interaction["destination"] = {"type": "app"}
        interaction["handling"] = "app"
        interaction.setdefault("warnings", []).append({"code": "urlRejected", "message": f"{reason}: {url[:200]}"})
        return interaction
    routed = route(url)
    if routed:
        interaction["destination"] = routed
        interaction["handling"] = "app"
        return interaction
    scheme = url.partition(":")[0].lower()
    if destination["target"] == "inAppBrowser" and scheme not in ("http", "https"):
        destination["target"] = "external"
    if scheme in APP_SCHEMES or (scheme == "https" and (urlsplit(url).hostname or "") in APP_DOMAINS):
        destination["target"] = "app"
    interaction["handling"] = "automatic" if automatic else "app"
    return interaction


def finish(interaction, envelope, automatic):
    override = envelope.get("automaticallyOpenDeeplinks")
    if isinstance(override, bool):
        automatic = override
    interaction = apply_policy(interaction, automatic)
    phase = envelope.get("phase")
    if phase in ("cold", "warm"):
        interaction["phase"] = phase
    return interaction


def url_destination(url, target="external"):
    return {"type": "url", "url": url, "target": target}


# Vendors -----------------------------------------------------------------------------------


def dashx_destination(fields, button):
    screen = fields.get("screenName" if button else "screen_name")
    if isinstance(screen, str) and screen.strip():
        data = fields.get("screenData" if button else "screen_data")
        if isinstance(data, str):
            try:
                data = loads(data)
            except ValueError:
                data = None
        parameters = {}
        if isinstance(data, dict):
            for k, v in data.items():
                if v is not None:
                    parameters[k] = v if isinstance(v, str) else dumps(v)
        out = {"type": "screen", "name": screen.strip()}
        if parameters:
            out["parameters"] = parameters
        return out
    url = fields.get("url")
    rich = fields.get("richLanding" if button else "rich_landing")
    if isinstance(url, str) and url.strip():
        return url_destination(url.strip(), "inAppBrowser" if rich in (True, "true") else "external")
    click = fields.get("clickAction" if button else "click_action")
    if isinstance(click, str) and click.strip():
        return {"type": "clickAction", "value": click.strip()}
    return {"type": "app"}


def dashx(envelope, user_info, action):
    block = user_info["dashx"]
    if isinstance(block, str):
        try:
            block = loads(block)
        except ValueError:
            raise Failure("invalidPayload", "userInfo.dashx is not JSON", "$.userInfo.dashx")
    if not isinstance(block, dict):
        raise Failure("invalidPayload", "userInfo.dashx is not an object", "$.userInfo.dashx")
    buttons = block.get("action_buttons") or []
    if isinstance(buttons, str):
        buttons = loads(buttons)
    listed = [(b, dashx_destination(b, True)) for b in buttons if isinstance(b, dict) and isinstance(b.get("identifier"), str)]
    trig = trigger(action)
    if trig["type"] == "dismiss":
        destination = {"type": "none"}
    elif trig["type"] == "button":
        match = next(((b, d) for b, d in listed if b["identifier"] == action), None)
        destination = match[1] if match else {"type": "app"}
        if match and isinstance(match[0].get("label"), str):
            trig["label"] = match[0]["label"]
    else:
        destination = dashx_destination(block, False)
    out = {"vendor": "dashx", "channel": "local" if envelope.get("origin") == "local" else "push", "trigger": trig, "destination": destination}
    message_id = block.get("id")
    if isinstance(message_id, str) and message_id:
        out["messageId"] = message_id
    payload = {k: v for k, v in user_info.items() if k not in ("aps", "dashx")}
    if payload:
        out["payload"] = payload
    if isinstance(message_id, str) and message_id:
        out["tracking"] = {"notificationId": message_id}
    if listed:
        out["buttons"] = [dict({"id": b["identifier"], "label": b.get("label", "")}, destination=apply_policy({"destination": d}, True)["destination"]) for b, d in listed]
    return finish(out, envelope, True)


def adobe_notification(envelope, user_info, action):
    tracking = {}
    if "adb_deeplink" in user_info or (envelope.get("origin") == "local" and ("broadlogId" in user_info or "deliveryId" in user_info)):
        link = user_info.get("adb_deeplink")
        destination = url_destination(link) if isinstance(link, str) else {"type": "app"}
        payload = {k: v for k, v in user_info.items() if k not in ("adb_deeplink", "broadlogId", "deliveryId")}
        for key in ("broadlogId", "deliveryId"):
            if key in user_info:
                tracking[key] = user_info[key]
        out = {"vendor": "adobe", "channel": "local", "trigger": trigger(action), "destination": destination}
    elif any(k in user_info for k in ("_xdm", "adb_uri", "adb_a_type", "adb_act", "adb_iam_id", "adb_media")):
        link = user_info.get("adb_uri")
        trig = trigger(action)
        destination = url_destination(link) if isinstance(link, str) and trig["type"] == "tap" else {"type": "app"}
        if "_xdm" in user_info:
            tracking["_xdm"] = user_info["_xdm"]
        payload = {k: v for k, v in user_info.items() if k not in ("aps", "_xdm", "adb_uri", "adb_act", "adb_a_type", "adb_media", "adb_iam_id")}
        out = {"vendor": "adobe", "channel": "push", "trigger": trig, "destination": destination}
    else:
        link = user_info.get("uri")
        destination = url_destination(link) if isinstance(link, str) else {"type": "app"}
        if "_mId" in user_info:
            tracking["broadlogId"] = user_info["_mId"]
        if "_dId" in user_info:
            tracking["deliveryId"] = user_info["_dId"]
        payload = {k: v for k, v in user_info.items() if k not in ("aps", "_mId", "_dId", "uri", "media-attachment-url")}
        out = {"vendor": "adobe", "channel": "push", "trigger": trigger(action), "destination": destination}
        if "_mId" in user_info:
            out["messageId"] = user_info["_mId"]
    if payload:
        out["payload"] = payload
    if tracking:
        out["tracking"] = tracking
    # config.yaml leaves every Adobe push to the app, and Adobe never opens local links.
    return finish(out, envelope, False)


def adobe_click(envelope, url):
    parts = urlsplit(url)
    query = dict(parse_qsl(parts.query, keep_blank_values=True))
    host = parts.netloc.lower()
    link = query.get("url") or query.get("link")
    if host == "cancel":
        trig, destination = {"type": "dismiss"}, {"type": "none"}
    else:
        trig = {"type": "tap"}
        destination = url_destination(unquote(link) if host == "dismiss" else link) if link else {"type": "app"}
    out = {"vendor": "adobe", "channel": "inApp", "trigger": trig, "destination": destination}
    if isinstance(envelope.get("messageId"), str):
        out["messageId"] = envelope["messageId"]
    ids = query.get("id", "").split(",")
    if len(ids) == 3:
        out["tracking"] = {"broadlogId": ids[0], "deliveryId": ids[1], "tag": ids[2]}
    return finish(out, envelope, True)


def bird(envelope, event):
    kind = event.get("type")
    if kind == "Received":
        raise Failure("notAnInteraction", "a Received event is a delivery, not an interaction", "$.event.type")
    action = event.get("action")
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise Failure("invalidPayload", "event.action.type is missing", "$.event.action")
    action_type = action["type"]
    link = action.get("uri") if action.get("uri") is not None else action.get("url")
    if action_type in ("URL", "DEEP_LINK") and isinstance(link, str) and link:
        destination = url_destination(link)
    else:
        destination = {"type": "app"}
    trig = {"type": "button", "id": action.get("identifier", "")} if kind == "Button" else {"type": "tap"}
    out = {"vendor": "bird", "channel": "push", "trigger": trig, "destination": destination}
    payload = event.get("payload")
    if isinstance(payload, str):
        try:
            decoded = loads(payload) if payload.startswith("{") else None
        except ValueError:
            decoded = None
        out["payload"] = decoded if isinstance(decoded, dict) else {"value": payload}
    automatic = action_type == "URL"
    if action_type == "URL":
        return apply_phase(apply_policy(out, automatic), envelope)
    return finish(out, envelope, automatic)


def apply_phase(interaction, envelope):
    if envelope.get("phase") in ("cold", "warm"):
        interaction["phase"] = envelope["phase"]
    return interaction


def taptalk_push(envelope, message, action):
    room = message.get("room") if isinstance(message.get("room"), dict) else {}
    room_id = room.get("roomID")
    if action == DISMISS_ACTION:
        destination = {"type": "none"}
    elif isinstance(room_id, (str, int)) and str(room_id):
        destination = {"type": "screen", "name": "chatRoom", "parameters": {"roomID": str(room_id)}}
    else:
        destination = {"type": "screen", "name": "roomList"}
    out = {"vendor": "taptalk", "channel": "push", "trigger": trigger(action), "destination": destination}
    message_id = message.get("messageID") or message.get("localID")
    if isinstance(message_id, str) and message_id:
        out["messageId"] = message_id
    return finish(out, envelope, False)


def taptalk_link(envelope, url):
    parts = urlsplit(url)
    if parts.scheme == "taptalkio":
        room = unquote(parts.netloc or parts.path.strip("/"))
    else:
        segments = [unquote(s) for s in parts.path.split("/") if s]
        room = segments[-1] if segments else ""
    if room:
        destination = {"type": "screen", "name": "chatRoom", "parameters": {"roomID": room}, "url": url}
    else:
        destination = {"type": "screen", "name": "roomList", "url": url}
    channel = "customScheme" if parts.scheme == "taptalkio" else "universalLink"
    out = {"vendor": "taptalk", "channel": channel, "trigger": {"type": "open"}, "destination": destination}
    return finish(out, envelope, False)


def link(envelope, url):
    scheme = url.partition(":")[0].lower()
    channel = "universalLink" if scheme in ("http", "https") else "customScheme"
    out = {"vendor": "link", "channel": channel, "trigger": {"type": "open"}, "destination": url_destination(url)}
    if isinstance(envelope.get("messageId"), str):
        out["messageId"] = envelope["messageId"]
    return finish(out, envelope, False)


def normalize(envelope):
    if not isinstance(envelope, dict):
        raise Failure("notAnObject", "the record is not a JSON object")
    kind = envelope.get("kind", "notification")
    if kind == "notification":
        user_info = envelope.get("userInfo", envelope if "kind" not in envelope else None)
        if not isinstance(user_info, dict):
            raise Failure("invalidEnvelope", "userInfo is not an object", "$.userInfo")
        action = envelope.get("action")
        if "dashx" in user_info:
            return dashx(envelope, user_info, action)
        if any(k in user_info for k in ("adb_deeplink", "_xdm", "adb_uri", "_mId", "_dId", "adb_act")) or (
            envelope.get("origin") == "local" and ("broadlogId" in user_info or "deliveryId" in user_info)
        ):
            return adobe_notification(envelope, user_info, action)
        data = user_info.get("data")
        if isinstance(data, dict) and isinstance(data.get("message"), dict):
            return taptalk_push(envelope, data["message"], action)
        raise Failure("unrecognized", "no adapter recognizes this notification")
    if kind in ("url", "userActivity"):
        url = envelope.get("url") if kind == "url" else envelope.get("webpageURL")
        if not isinstance(url, str):
            raise Failure("invalidEnvelope", "the link is missing", "$.url")
        scheme = url.partition(":")[0].lower()
        if scheme == "adbinapp":
            return adobe_click(envelope, url)
        if scheme == "taptalkio" or ((urlsplit(url).hostname or "") == "web.taptalk.io" and scheme in ("http", "https")):
            return taptalk_link(envelope, url)
        return link(envelope, url)
    if kind == "vendorEvent":
        event = envelope.get("event")
        if not isinstance(event, dict):
            raise Failure("invalidEnvelope", "event is not an object", "$.event")
        return bird(envelope, event)
    raise Failure("invalidEnvelope", f"unknown kind {kind!r}", "$.kind")


# I/O ---------------------------------------------------------------------------------------

if orjson is not None and "--stdlib" not in sys.argv:

    def loads(text):
        return orjson.loads(text)

    def dumps(value):
        return orjson.dumps(value).decode()

    def dump_line(value):
        return orjson.dumps(value) + b"\n"

else:

    def loads(text):
        return json.loads(text)

    def dumps(value):
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))

    def dump_line(value):
        return (json.dumps(value, ensure_ascii=False, separators=(",", ":")) + "\n").encode()


def main(argv):
    args = [a for a in argv[1:] if a != "--stdlib"]
    if len(args) > 1 or any(a.startswith("-") and a != "-" for a in args):
        print("usage: reference_normalize.py [--stdlib] [FILE|-]", file=sys.stderr)
        return 2
    source = sys.stdin.buffer if not args or args[0] == "-" else open(args[0], "rb")
    out = sys.stdout.buffer
    failed = False
    for number, line in enumerate(source, 1):
        if not line.strip():
            continue
        try:
            record = normalize(loads(line))
        except Failure as failure:
            failed = True
            record = {"error": {"code": failure.code, "message": failure.message, "line": number, "path": failure.path}}
        except (ValueError, TypeError, AttributeError, KeyError) as error:
            failed = True
            record = {"error": {"code": "invalidJSON" if isinstance(error, ValueError) else "invalidPayload", "message": str(error)[:200], "line": number}}
        out.write(dump_line(record))
    out.flush()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
