#!/usr/bin/env python3
"""The script a back end might write instead of `normalize --lines`: a throughput baseline.

Usage: reference_normalize.py [--stdlib] [FILE|-]

Reads JSON Lines envelopes and writes one JSON object per non-blank line, in order: an
Interaction in TapRoute's JSON form, or {"error": {"code", "message", "line", "path"}}. Exit
status 0 when every record normalized, 1 when some failed, 2 for a usage error. Parsing and
writing use orjson when it is installed (`pip install orjson`), else the standard `json`
module; `--stdlib` forces the standard module.

It does the work `normalize` does for the corpus of make_corpus.py with the repository's
default config.yaml — detect the vendor (DashX, Adobe, Bird, TapTalk, then the definition
vendors OneSignal, Braze, Airship, Iterable, CleverTap, Customer.io, Klaviyo, Pushwoosh and
FCM, in `normalize adapters`' order, then plain links), read its conventions, apply URL
safety, the products/{id} route, app schemes and domains, and the handling defaults, and
write the Interaction with normalize's key order and the warnings the corpus raises — but it
is a baseline for timing, not a specification: it covers the common cases of each vendor and
leaves out most other warnings, URL repair, the vendors' edge cases and reject rules, and AASA
rules. compare_reference.py checks it against `normalize --lines`; the adapters' READMEs,
definitions and conformance vectors are the specification.
"""

import sys
from urllib.parse import unquote, urlsplit

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


FORBIDDEN_SCHEMES = {"javascript", "data", "file", "vbscript", "blob", "filesystem"}


def safe(url):
    """The reason a URL is rejected, phrased to follow it, or None."""
    if not isinstance(url, str) or not url or len(url) > MAX_URL or any(ord(c) < 0x21 for c in url):
        return "is malformed"
    scheme, sep, _ = url.partition(":")
    if not sep or not scheme:
        return "has no scheme"
    scheme = scheme.lower()
    if scheme in FORBIDDEN_SCHEMES:
        return f"scheme '{scheme}' is never allowed"
    if scheme not in ALLOWED_SCHEMES:
        return f"scheme '{scheme}' is not in security.allowedSchemes"
    return None


def query_items(query):
    """(name, value) pairs, percent-decoded; '+' stays '+' as it does in normalize."""
    items = []
    for item in query.split("&"):
        if item:
            name, _, value = item.partition("=")
            items.append((unquote(name), unquote(value)))
    return items


def route(url):
    """campaigndemoapp://products/{id} → the product screen, with the query items."""
    parts = urlsplit(url)
    if parts.scheme.lower() != "campaigndemoapp" or parts.netloc != "products":
        return None
    segments = [s for s in parts.path.split("/") if s]
    if len(segments) != 1:
        return None
    parameters = {"id": unquote(segments[0])}
    for name, value in query_items(parts.query):
        parameters.setdefault(name, value)
    return {"type": "screen", "name": "product", "parameters": parameters, "url": url}


def resolve(destination, automatic):
    """The policy for one destination: (destination, handling, urlRejected warning or None)."""
    if destination["type"] != "url":
        return destination, "app", None
    url = destination["url"]
    reason = safe(url)
    if reason:
        shown = f"'{url}'" if len(url.encode()) <= 200 else f"(a {len(url.encode())}-byte url)"
        return {"type": "app"}, "app", {"code": "urlRejected", "message": f"destination url {shown} {reason}"}
    routed = route(url)
    if routed:
        return routed, "app", None
    scheme = url.partition(":")[0].lower()
    if destination["target"] == "inAppBrowser" and scheme not in ("http", "https"):
        destination["target"] = "external"
    if scheme in APP_SCHEMES or (scheme == "https" and (urlsplit(url).hostname or "") in APP_DOMAINS):
        destination["target"] = "app"
    return destination, "automatic" if automatic else "app", None


def interaction(vendor, envelope, trig, destination, automatic, message_id=None, payload=None, tracking=None, buttons=None, warnings=None, follows=True, channel=None):
    """An Interaction in normalize's key order, with the policy applied: the envelope's
    automaticallyOpenDeeplinks (when the vendor follows it), safety, routes, targets, phase."""
    override = envelope.get("automaticallyOpenDeeplinks")
    if follows and isinstance(override, bool):
        automatic = override
    destination, handling, rejected = resolve(destination, automatic)
    if channel is None:
        channel = "local" if envelope.get("origin") == "local" else "push"
    out = {"vendor": vendor, "channel": channel, "trigger": trig, "destination": destination, "handling": handling}
    if isinstance(message_id, str) and message_id:
        out["messageId"] = message_id
    if payload:
        out["payload"] = payload
    if tracking:
        out["tracking"] = tracking
    if buttons:
        out["buttons"] = [dict(button, destination=resolve(button["destination"], True)[0]) for button in buttons]
    phase = envelope.get("phase")
    if phase in ("cold", "warm"):
        out["phase"] = phase
    if rejected:
        warnings = (warnings or []) + [rejected]
    if warnings:
        out["warnings"] = warnings
    return out


def url_destination(url, target="external"):
    return {"type": "url", "url": url, "target": target}


# Vendors -----------------------------------------------------------------------------------


def dashx_destination(fields, button, warnings=None):
    screen = fields.get("screenName" if button else "screen_name")
    if isinstance(screen, str) and screen.strip():
        data = fields.get("screenData" if button else "screen_data")
        if isinstance(data, str):
            try:
                data = loads(data)
            except ValueError:
                data = None
        parameters, converted = {}, False
        if isinstance(data, dict):
            for k, v in data.items():
                if v is not None:
                    converted = converted or not isinstance(v, str)
                    parameters[k] = v if isinstance(v, str) else dumps(v)
        if converted and warnings is not None:
            warnings.append(SCREEN_DATA_CONVERTED)
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
    warnings = [DASHX_OBJECT] if isinstance(user_info["dashx"], dict) else []
    trig = trigger(action)
    if trig["type"] == "dismiss":
        destination = {"type": "none"}
    elif trig["type"] == "button":
        match = next(((b, d) for b, d in listed if b["identifier"] == action), None)
        destination = match[1] if match else {"type": "app"}
        if match and isinstance(match[0].get("label"), str):
            trig["label"] = match[0]["label"]
    else:
        destination = dashx_destination(block, False, warnings)
    message_id = block.get("id")
    tracking = {"notificationId": message_id} if isinstance(message_id, str) and message_id else None
    payload = {k: v for k, v in user_info.items() if k not in ("aps", "dashx")}
    buttons = [{"id": b["identifier"], "label": b.get("label", ""), "destination": d} for b, d in listed]
    return interaction("dashx", envelope, trig, destination, True, message_id, payload, tracking, buttons, warnings)


SCREEN_DATA_CONVERTED = {"code": "androidDiffers", "message": "dashx.screen_data has values that are not strings; the DashX iOS SDK drops the whole map: numbers and booleans became their JSON text and objects and arrays compact JSON, as the DashX Android SDK does"}
DASHX_OBJECT = {"code": "dashxNotString", "message": "userInfo.dashx is an object, not a JSON string: the DashX iOS SDK ignores it (no navigation, no tracking); read as intended"}


def adobe_notification(envelope, user_info, action):
    tracking, buttons, warnings, message_id = {}, None, [], None
    if "adb_deeplink" in user_info or (envelope.get("origin") == "local" and ("broadlogId" in user_info or "deliveryId" in user_info)):
        link = user_info.get("adb_deeplink")
        destination = url_destination(link) if isinstance(link, str) else {"type": "app"}
        payload = {k: v for k, v in user_info.items() if k not in ("adb_deeplink", "broadlogId", "deliveryId")}
        for key in ("broadlogId", "deliveryId"):
            if key in user_info:
                tracking[key] = user_info[key]
        message_id = user_info.get("broadlogId")
        trig = trigger(action)
    elif any(k in user_info for k in ("_xdm", "adb_uri", "adb_a_type", "adb_act", "adb_iam_id", "adb_media")):
        link = user_info.get("adb_uri")
        trig = trigger(action)
        if isinstance(user_info.get("_xdm"), dict):
            tracking["_xdm"] = user_info["_xdm"]
        else:
            warnings.append(NO_XDM)
        buttons = adobe_buttons(user_info.get("adb_act"))
        if trig["type"] == "tap":
            destination = url_destination(link) if isinstance(link, str) and link else {"type": "app"}
        elif trig["type"] == "dismiss":
            destination = {"type": "none"}
        else:
            match = next((b for b in buttons if b["id"] == action), None)
            destination = dict(match["destination"]) if match else {"type": "app"}
            if match:
                trig["label"] = match["label"]
                if destination["type"] == "url":
                    warnings.append({"code": "iOSWouldDrop", "message": f"button '{action}' opens '{destination['url']}' on Android, but Adobe's iOS SDK opens no URL for a custom action; TapRoute keeps it as the destination and leaves opening it to the app"})
        payload = {k: v for k, v in user_info.items() if k not in ("aps", "_xdm", "adb_uri", "adb_act", "adb_a_type", "adb_media", "adb_iam_id")}
    else:
        link = user_info.get("uri")
        destination = url_destination(link) if isinstance(link, str) else {"type": "app"}
        if "_mId" in user_info:
            tracking["broadlogId"] = user_info["_mId"]
        if "_dId" in user_info:
            tracking["deliveryId"] = user_info["_dId"]
        payload = {k: v for k, v in user_info.items() if k not in ("aps", "_mId", "_dId", "uri", "media-attachment-url")}
        trig = trigger(action)
        message_id = user_info.get("_mId")
    # config.yaml leaves every Adobe push to the app, and Adobe never opens local links.
    return interaction("adobe", envelope, trig, destination, False, message_id, payload, tracking, buttons, warnings)


NO_XDM = {"code": "noTrackingData", "message": "_xdm is missing: Adobe's iOS SDK (handleNotificationResponse) reports noTrackingData and opens no URL; TapRoute keeps the destination and leaves it to the app"}


def adobe_buttons(actions):
    """adb_act: a JSON string (or a list) of {label, uri, type}; the label is the button's id."""
    if isinstance(actions, str):
        try:
            actions = loads(actions)
        except ValueError:
            return []
    buttons = []
    for action in actions if isinstance(actions, list) else []:
        if isinstance(action, dict) and isinstance(action.get("label"), str) and action["label"] and isinstance(action.get("type"), str):
            link = action.get("uri")
            destination = url_destination(link) if isinstance(link, str) and link else {"type": "app"}
            buttons.append({"id": action["label"], "label": action["label"], "destination": destination})
    return buttons


def adobe_click(envelope, url):
    parts = urlsplit(url)
    items = query_items(parts.query)
    query = dict(items)
    host = parts.netloc.lower()
    tracking = {}
    if host == "dismiss":
        # Journey Optimizer: interaction is tracked, link decoded twice and opened.
        if query.get("interaction"):
            tracking["interaction"] = query["interaction"]
        payload = {k: v for k, v in items if k not in ("interaction", "animate", "link")}
        link = query.get("link")
        destination = url_destination(unquote(link)) if link else {"type": "none"}
    else:
        # Campaign: id=broadlogId,deliveryId,tag; any url item is opened, whatever the host.
        ids = query.get("id", "").split(",")
        if len(ids) == 3 and ids[2] in ("3", "4", "5"):
            tracking = {"broadlogId": ids[0], "deliveryId": ids[1], "action": ids[2]}
        payload = {k: v for k, v in items if k not in ("id", "url")}
        link = query.get("url")
        destination = url_destination(link) if link else {"type": "app"} if host == "confirm" else {"type": "none"}
    return interaction("adobe", envelope, {"type": "button", "id": host}, destination, True, envelope.get("messageId"), payload, tracking, channel="inApp")


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
    payload = event.get("payload")
    if isinstance(payload, str):
        try:
            decoded = loads(payload) if payload.startswith("{") else None
        except ValueError:
            decoded = None
        payload = decoded if isinstance(decoded, dict) else {"value": payload}
    # Bird's SDK opens a URL action itself, whatever the envelope says; deep links follow it.
    automatic = action_type == "URL"
    return interaction("bird", envelope, trig, destination, automatic, None, payload, follows=not automatic)


def taptalk_push(envelope, message, action):
    room = message.get("room") if isinstance(message.get("room"), dict) else {}
    room_id = room.get("roomID")
    if action == DISMISS_ACTION:
        destination = {"type": "none"}
    elif isinstance(room_id, (str, int)) and str(room_id):
        destination = {"type": "screen", "name": "chatRoom", "parameters": {"roomID": str(room_id)}}
    else:
        destination = {"type": "screen", "name": "roomList"}
    payload = {}
    kind = room.get("type")
    if isinstance(kind, int) and not isinstance(kind, bool):
        payload["roomType"] = kind
    if isinstance(room.get("xcRoomID"), str) and room["xcRoomID"]:
        payload["xcRoomID"] = room["xcRoomID"]
    user = message.get("user")
    if isinstance(user, dict):
        for name, key in (("senderUserID", "userID"), ("senderXCUserID", "xcUserID")):
            if isinstance(user.get(key), str) and user[key]:
                payload[name] = user[key]
    message_id = message.get("messageID") or message.get("localID")
    return interaction("taptalk", envelope, trigger(action), destination, False, message_id, payload)


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
    return interaction("taptalk", envelope, {"type": "open"}, destination, False, channel=channel)


def link(envelope, url):
    scheme = url.partition(":")[0].lower()
    channel = "universalLink" if scheme in ("http", "https") else "customScheme"
    return interaction("link", envelope, {"type": "open"}, url_destination(url), False, envelope.get("messageId"), channel=channel)


# Definition vendors (adapters/<Vendor>/<id>.yaml): their common cases ----------------------


def text_url(value, target="external"):
    """A URL destination for a non-empty string (trimmed), else None."""
    if isinstance(value, str):
        value = value.strip()
        if value:
            return {"type": "url", "url": value, "target": target}
    return None


def is_button(action):
    return action is not None and action not in (DEFAULT_ACTION, DISMISS_ACTION)


def without(user_info, keys, prefixes=()):
    return {k: v for k, v in user_info.items() if k not in keys and not k.startswith(prefixes)}


def picked(user_info, names):
    """{name: userInfo[key]} for the (name, key) pairs present."""
    return {name: user_info[key] for name, key in names if key in user_info}


def button_trigger(action, buttons):
    label = next((b.get("label") for b in buttons if b["id"] == action), None)
    return trigger(action, label)


def onesignal(envelope, user_info, action):
    os_data = user_info.get("os_data")
    custom = user_info.get("custom") if isinstance(user_info.get("custom"), dict) else {}
    layout = os_data if isinstance(os_data, dict) else custom
    launch = text_url(layout.get("u")) or {"type": "app"}
    buttons = []
    if isinstance(os_data, dict) and isinstance(os_data.get("buttons"), list):
        for b in os_data["buttons"]:
            if isinstance(b, dict) and (b.get("i") or b.get("n")):
                button = {"id": b.get("i") or b.get("n")}
                if isinstance(b.get("n"), str):
                    button["label"] = b["n"]
                button["destination"] = dict(launch)
                buttons.append(button)
    destination = {"type": "none"} if action == DISMISS_ACTION else launch
    payload = custom.get("a")
    if isinstance(payload, str):
        payload = {"value": payload}
    tracking = {}
    for name, key in (("templateId", "ti"), ("templateName", "tn")):
        value = os_data.get(key) if isinstance(os_data, dict) and key in os_data else custom.get(key)
        if value is not None:
            tracking[name] = value
    return interaction("onesignal", envelope, button_trigger(action, buttons), destination, True, layout.get("i"), payload if isinstance(payload, dict) else None, tracking, buttons)


def braze(envelope, user_info, action):
    category = user_info["ab"].get("ab_cat")
    buttons = []
    if isinstance(category, dict):
        for name, entry in category.items():
            if isinstance(entry, dict):
                buttons.append({"id": name, "destination": text_url(entry.get("a_uri")) or {"type": "app"}})
    if action == DISMISS_ACTION:
        destination = {"type": "none"}
    elif is_button(action):
        destination = next((dict(b["destination"]) for b in buttons if b["id"] == action), {"type": "app"})
    else:
        webview = user_info.get("ab_use_webview") in (True, "true", 1)
        destination = text_url(user_info.get("ab_uri"), "inAppBrowser" if webview else "external") or {"type": "app"}
    payload = without(user_info, ("ab", "ab_uri", "aps", "ab_use_webview"))
    return interaction("braze", envelope, button_trigger(action, buttons), destination, True, None, payload, None, buttons)


def airship_actions(actions):
    """(destination, opens the URL itself, follows the envelope override) for an Airship actions dictionary."""
    deep_link = actions.get("^d", actions.get("deep_link_action"))
    if deep_link is not None:
        return text_url(deep_link) or {"type": "app"}, True, True
    page = actions.get("^p", actions.get("landing_page_action"))
    if page is not None:
        return text_url(page.get("url") if isinstance(page, dict) else page, "inAppBrowser") or {"type": "app"}, True, False
    external = actions.get("^u", actions.get("open_external_url_action"))
    if external is not None:
        return text_url(external) or {"type": "app"}, True, False
    inbox = actions.get("^mc", actions.get("_uamid"))
    if inbox is not None:
        uamid = actions.get("_uamid") if inbox == "auto" else inbox
        uamid = uamid[0] if isinstance(uamid, list) and uamid else uamid
        out = {"type": "screen", "name": "messageCenter"}
        if isinstance(uamid, str):
            out["parameters"] = {"messageId": uamid}
        return out, True, True
    return {"type": "app"}, True, True


def airship(envelope, user_info, action):
    buttons = []
    interactive = user_info.get("com.urbanairship.interactive_actions")
    if isinstance(interactive, dict):
        for name, actions in interactive.items():
            if isinstance(actions, dict):
                actions = dict(actions, _uamid=user_info.get("_uamid")) if actions.get("^mc") == "auto" else actions
                buttons.append({"id": name, "destination": airship_actions(actions)[0]})
    automatic, follows = True, True
    if action == DISMISS_ACTION:
        destination = {"type": "none"}
    elif is_button(action):
        destination = next((dict(b["destination"]) for b in buttons if b["id"] == action), {"type": "app"})
    else:
        destination, automatic, follows = airship_actions(user_info)
    send_id = user_info.get("_")
    tracking = {}
    if isinstance(send_id, str):
        tracking["sendId"] = send_id
    if "com.urbanairship.metadata" in user_info:
        tracking["metadata"] = user_info["com.urbanairship.metadata"]
    payload = without(user_info, AIRSHIP_KEYS, ("^", "com.urbanairship."))
    return interaction("airship", envelope, trigger(action), destination, automatic, send_id, payload, tracking, buttons, follows=follows)


AIRSHIP_KEYS = {"aps", "_", "_uamid", "deep_link_action", "landing_page_action", "open_external_url_action", "wallet_action", "display_inbox_action", "overlay_inbox_action", "add_tags_action", "remove_tags_action", "share_action", "clipboard_action"}
ITERABLE_NOT_HTTPS = "{} is not https: Iterable's iOS SDK offers it to the app's IterableURLDelegate and opens nothing itself; Android's SDK drops it before asking the app's IterableUrlHandler unless allowedProtocols lists its scheme"


def iterable_action(action):
    """The destination of an Iterable action {type, data}."""
    kind = action.get("type") if isinstance(action, dict) else None
    if kind == "openUrl":
        return text_url(action.get("data")) or {"type": "app"}
    if isinstance(kind, str) and kind:
        return {"type": "clickAction", "value": kind}
    return None


def iterable(envelope, user_info, action):
    itbl = user_info["itbl"]
    listed = itbl.get("actionButtons") if isinstance(itbl.get("actionButtons"), list) else []
    buttons, warnings = [], []
    for b in listed:
        if isinstance(b, dict) and isinstance(b.get("identifier"), str):
            button = {"id": b["identifier"]}
            if isinstance(b.get("title"), str):
                button["label"] = b["title"]
            button["destination"] = iterable_action(b.get("action")) or ({"type": "none"} if b.get("openApp") is False else {"type": "app"})
            buttons.append(button)
    automatic = False
    if action == DISMISS_ACTION:
        destination = {"type": "none"}
    elif is_button(action):
        match = next((b for b in buttons if b["id"] == action), None)
        destination = dict(match["destination"]) if match else {"type": "app"}
        if destination["type"] == "url":
            automatic = destination["url"].lower().startswith("https:")
            if not automatic:
                warnings.append({"code": "androidDiffers", "message": ITERABLE_NOT_HTTPS.format(f"'{destination['url']}'")})
    elif isinstance(itbl.get("defaultAction"), dict):
        destination = iterable_action(itbl["defaultAction"]) or {"type": "app"}
        if destination["type"] == "url":
            automatic = destination["url"].lower().startswith("https:")
            if not automatic:
                warnings.append({"code": "androidDiffers", "message": ITERABLE_NOT_HTTPS.format(f"'{destination['url']}'")})
    else:
        destination = text_url(user_info.get("url")) or {"type": "app"}
        automatic = destination["type"] == "url" and destination["url"].lower().startswith("https:")
    tracking = picked(itbl, (("campaignId", "campaignId"), ("templateId", "templateId"), ("messageId", "messageId")))
    payload = without(user_info, ("aps", "itbl", "url"))
    return interaction("iterable", envelope, button_trigger(action, buttons), destination, automatic, itbl.get("messageId"), payload, tracking, buttons, warnings)


def clevertap(envelope, user_info, action):
    link = user_info.get("wzrk_dl")
    warnings = []
    if action == DISMISS_ACTION:
        destination = {"type": "none"}
        if isinstance(link, str) and link:
            warnings.append({"code": "linkOnDismiss", "message": f"the notification was dismissed, but CleverTap's swizzled didReceive handler passes every response to handlePushNotification:, which opens wzrk_dl '{link}' for a dismiss too; the destination is none"})
    else:
        destination = text_url(link) or {"type": "app"}
        if is_button(action) and isinstance(link, str) and link:
            warnings.append({"code": "appDefinedAction", "message": f"button '{action}' is an action of the app's own notification category: CleverTap's iOS SDK reads no button from the payload and opens wzrk_dl for any action, so the destination is the message's deep link"})
    message_id = user_info.get("wzrk_id", user_info.get("W$id"))
    tracking = {}
    for name, keys in (("wzrk_id", ("wzrk_id", "W$id")), ("wzrk_pivot", ("wzrk_pivot", "W$pivot")), ("wzrk_cgId", ("wzrk_cgId", "W$cgId")), ("wzrk_acct_id", ("wzrk_acct_id",))):
        for key in keys:
            if key in user_info:
                tracking[name] = user_info[key]
                break
    payload = without(user_info, ("aps",), ("W$", "wzrk_"))
    return interaction("clevertap", envelope, trigger(action), destination, True, message_id, payload, tracking, None, warnings)


def customerio(envelope, user_info, action):
    push = user_info.get("CIO", {}).get("push") if isinstance(user_info.get("CIO"), dict) else None
    link = push.get("link") if isinstance(push, dict) else None
    warnings = []
    if action == DISMISS_ACTION:
        destination = {"type": "none"}
    elif is_button(action):
        destination = {"type": "app"}
        if isinstance(link, str) and link:
            message = f"button '{action}' is an action of the app's notification category; Customer.io's iOS SDK opens CIO.push.link '{link}' only for a tap on the notification itself, so the app is opened"
        else:
            message = f"button '{action}' is an action of the app's notification category; Customer.io's payload gives it no destination, so the app is opened"
        warnings.append({"code": "appDefinedAction", "message": message})
    else:
        destination = text_url(link) or {"type": "app"}
    delivery = user_info["CIO-Delivery-ID"]
    tracking = {"deliveryId": delivery, "deliveryToken": user_info["CIO-Delivery-Token"]}
    payload = without(user_info, ("aps", "CIO-Delivery-ID", "CIO-Delivery-Token", "CIO", "link"), ("gcm.", "google."))
    return interaction("customerio", envelope, trigger(action), destination, True, delivery, payload, tracking, None, warnings)


def klaviyo(envelope, user_info, action):
    body = user_info["body"]
    listed = body.get("action_buttons") if isinstance(body.get("action_buttons"), list) else []
    buttons = []
    for b in listed:
        if isinstance(b, dict) and isinstance(b.get("id"), str):
            button = {"id": b["id"]}
            if isinstance(b.get("label"), str):
                button["label"] = b["label"]
            link = text_url(b.get("url")) if b.get("action") == "deep_link" else None
            button["destination"] = link or {"type": "app"}
            buttons.append(button)
    if action == DISMISS_ACTION:
        destination = {"type": "none"}
    elif is_button(action):
        destination = next((dict(b["destination"]) for b in buttons if b["id"] == action), {"type": "app"})
    else:
        destination = text_url(user_info.get("url")) or {"type": "app"}
    tracking = {"_k": body["_k"]} if "_k" in body else None
    payload = without(user_info, ("aps", "body", "url"))
    return interaction("klaviyo", envelope, button_trigger(action, buttons), destination, True, None, payload, tracking, buttons)


def pushwoosh(envelope, user_info, action):
    if action == DISMISS_ACTION:
        destination = {"type": "none"}
    else:
        destination = text_url(user_info.get("l")) or text_url(user_info.get("r"), "inAppBrowser") or {"type": "app"}
    custom = user_info.get("u")
    payload = None
    if isinstance(custom, str):
        try:
            payload = loads(custom) if custom.startswith("{") else None
        except ValueError:
            payload = None
        if not isinstance(payload, dict):
            payload = {"value": custom}
    message_id = user_info.get("p")
    tracking = {"hash": message_id} if isinstance(message_id, str) else None
    return interaction("pushwoosh", envelope, trigger(action), destination, True, message_id, payload, tracking)


FCM_TRACKING = tuple((key, key) for key in ("google.c.a.e", "google.c.a.c_id", "google.c.a.c_l", "google.c.a.m_l", "google.c.a.ts", "google.c.a.udt", "google.c.a.tc")) + (("from", "from"),)


def fcm(envelope, user_info, action):
    link = user_info.get("gcm.app_link")
    warnings = []
    if action == DISMISS_ACTION:
        destination = {"type": "none"}
        if isinstance(link, str) and link:
            warnings.append({"code": "linkOnDismiss", "message": f"the notification was dismissed, but FCM's swizzled didReceive handler passes gcm.app_link '{link}' to application(_:continue:restorationHandler:) for a dismiss too; the destination is none"})
    else:
        destination = text_url(link) or {"type": "app"}
        if destination["type"] == "url" and destination["url"].partition(":")[0].lower() not in ("http", "https"):
            warnings.append({"code": "iOSWouldDrop", "message": f"gcm.app_link '{link}' is not an http(s) link: FCM's iOS SDK hands it to application(_:continue:restorationHandler:) as an NSUserActivity webpageURL, which accepts only http and https (setting another scheme raises NSInvalidArgumentException), so the app never receives it; TapRoute keeps the link"})
        if is_button(action) and isinstance(link, str) and link:
            category = user_info.get("aps", {}).get("category")
            warnings.append({"code": "appDefinedAction", "message": f"button '{action}' is an action of the app's own notification category (aps.category {repr(category) if isinstance(category, str) else ('missing' if category is None else '')}): FCM gives buttons no destination of their own and hands gcm.app_link to the app for any action, so the destination is the message's link"})
    payload = without(user_info, ("aps", "fcm_options", "from", "gcms"), ("gcm.", "google."))
    return interaction("fcm", envelope, trigger(action), destination, False, user_info.get("gcm.message_id"), payload, picked(user_info, FCM_TRACKING), None, warnings)


def definition_vendor(user_info, origin):
    """The definition vendor that claims a notification, in `normalize adapters` order, or None."""
    custom, os_data = user_info.get("custom"), user_info.get("os_data")
    if (isinstance(custom, dict) and "i" in custom) or (isinstance(os_data, dict) and "i" in os_data):
        return onesignal
    if isinstance(user_info.get("ab"), dict) and user_info["ab"]:
        return braze
    if "_" in user_info or "com.urbanairship.metadata" in user_info or "com.urbanairship.media_attachment" in user_info:
        return airship
    if isinstance(user_info.get("itbl"), dict):
        return iterable
    keys = tuple(user_info)
    if any(k.startswith(("W$", "wzrk_")) for k in keys):
        return clevertap
    if isinstance(user_info.get("CIO-Delivery-ID"), str) and isinstance(user_info.get("CIO-Delivery-Token"), str):
        return customerio
    if isinstance(user_info.get("body"), dict) and "_k" in user_info["body"]:
        return klaviyo
    if (origin != "local" and "pw_msg" in user_info) or "pw_push" in user_info:
        return pushwoosh
    if any(k.startswith(("gcm.", "google.c.")) for k in keys) and not any(k in user_info for k in FCM_OTHERS):
        return fcm
    return None


# Keys by which another vendor claims a push that also carries FCM's (fcm.yaml recognize; the
# prefixes adb_, wzrk_, W$ and data.message are claimed by the vendors detected before FCM).
FCM_OTHERS = ("dashx", "_xdm", "_mId", "_dId", "itbl", "CIO", "CIO-Delivery-ID", "ab", "os_data", "_", "_k", "pw_msg")


def json_type(value):
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    return {list: "an array", str: "a string", int: "a number", float: "a number"}.get(type(value), "a value")


def normalize(envelope):
    if not isinstance(envelope, dict):
        raise Failure("notAnObject", f"expected a JSON object, got {json_type(envelope)}")
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
        vendor = definition_vendor(user_info, envelope.get("origin"))
        if vendor is not None:
            return vendor(envelope, user_info, action)
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
            record = {"error": {"code": "invalidJSON" if isinstance(error, ValueError) else "invalidPayload", "message": str(error)[:200], "line": number, "path": "$"}}
        out.write(dump_line(record))
    out.flush()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
