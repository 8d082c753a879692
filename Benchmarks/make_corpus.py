#!/usr/bin/env python3
"""Writes a deterministic JSON Lines corpus of TapRoute input envelopes for benchmarks.

Usage: make_corpus.py N OUT.jsonl [--seed S]

The same N, seed and Python version give the same bytes, and a smaller N with the same
seed gives a prefix of a larger one (records are drawn one after another from one random
generator). The mix, by share of records:

  30%  DashX push: `dashx` is a JSON string (half of them ASCII-escaped) whose destination
       is a url, a screen (+ screen_data), a rich landing page, a click action, a routed
       campaigndemoapp:// link or nothing; about 30% carry action_buttons, some tapped by
       id; a few dismisses, blocks sent as objects, blank screen names and screen_data with
       non-string values.
   9%  Adobe Campaign Standard push (uri, _mId, _dId, custom keys).
   9%  Adobe Journey Optimizer push (adb_uri, _xdm; some without _xdm, some buttons).
   5%  Adobe Campaign local notifications (origin local, adb_deeplink, userData keys).
   7%  Adobe in-app click URLs: adbinapp://confirm/?id=…,3&url=<percent-encoded>, cancel
       (tag 5), confirm without url, '+' in the destination, Journey Optimizer dismiss links.
  12%  Bird vendorEvent: Tap or Button with OPEN_APP, URL or DEEP_LINK; the payload a JSON
       string, a plain string or absent.
   8%  TapTalk iOS pushes with data.message.room.roomID.
   8%  TapTalk universal links on web.taptalk.io (trailing or double slashes, a query, a
       fragment, a %2F segment, the bare host) and a few taptalkio:// links.
   7%  Custom-scheme links: mostly campaigndemoapp://products/{id} (the default route), tel:,
       mailto: and a scheme the default configuration does not allow.
   4%  https links on hosts no vendor claims (userActivity or url envelopes).
   1%  Malformed: 40% truncated JSON, 30% JSON that is not an object, 30% with a
       javascript:, data:, vbscript: or file: URL in a url envelope, a DashX block or a
       Bird action.

About 25% of the envelopes carry `phase` and about 3% `vendor`. Titles and bodies mix Latin
with accents, CJK, Cyrillic, Arabic, Thai and emoji. Lines are a few dozen bytes (links) to
about 2 KB (DashX pushes with buttons): with the default seed, a median of about 400 bytes,
a mean of about 440 and a 95th percentile of about 1.1 KB; about 0.5% are not valid JSON.
"""

import json
import random
import sys
from urllib.parse import quote

WORDS = [
    "order", "shipped", "sale", "today", "your", "parcel", "new", "message", "offer",
    "café", "über", "niño", "crème", "façade", "naïve",
    "注文", "発送", "セール", "新しい", "订单", "消息",
    "заказ", "скидка", "новое", "сообщение",
    "طلبك", "تم", "الشحن", "عرض",
    "คำสั่งซื้อ", "ส่งแล้ว", "ลดราคา",
    "🎉", "📦", "🔥", "✅", "🛒",
]
SCREENS = ["OrderDetail", "Cart", "Profile", "ProductList", "Settings", "Inbox"]
HOSTS = ["shop.example.com", "help.example.com", "news.example.org", "promo.example.net"]
WEIRD_SCHEMES = ["javascript:alert(1)", "data:text/html,<script>x</script>", "vbscript:msgbox(1)", "file:///etc/passwd"]


class Corpus:
    def __init__(self, seed):
        self.r = random.Random(seed)

    # Small helpers ------------------------------------------------------------------------

    def chance(self, p):
        return self.r.random() < p

    def text(self, lo, hi):
        return " ".join(self.r.choice(WORDS) for _ in range(self.r.randint(lo, hi)))

    def hexid(self, n=32):
        return "".join(self.r.choice("0123456789abcdef") for _ in range(n))

    def uuid(self):
        h = self.hexid(32)
        return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"

    def https_url(self):
        path = "/".join(self.r.choice(["track", "p", "deals", "a", "b", str(self.r.randint(1, 99999))]) for _ in range(self.r.randint(1, 3)))
        url = f"https://{self.r.choice(HOSTS)}/{path}"
        if self.chance(0.4):
            url += f"?utm_source=push&utm_campaign={self.r.choice(['spring', 'autumn', 'flash'])}"
        return url

    def product_link(self):
        url = f"campaigndemoapp://products/{self.r.randint(1, 99999)}"
        if self.chance(0.5):
            url += f"?ref={self.r.choice(['push', 'email', 'inapp'])}"
        return url

    def custom_keys(self):
        keys = {}
        for _ in range(self.r.randint(0, 3)):
            keys[self.r.choice(["campaign", "segment", "variant", "locale", "cohort"])] = self.text(1, 2)
        return keys

    def aps(self):
        aps = {"alert": {"title": self.text(3, 8), "body": self.text(8, 24)}}
        if self.chance(0.5):
            aps["sound"] = "default"
        if self.chance(0.3):
            aps["badge"] = self.r.randint(1, 9)
        return aps

    def envelope(self, record):
        if self.chance(0.25):
            record["phase"] = self.r.choice(["cold", "warm"])
        return record

    # Vendors ------------------------------------------------------------------------------

    def dashx(self):
        block = {"id": self.uuid(), "title": self.text(3, 8), "body": self.text(8, 24)}
        roll = self.r.random()
        if roll < 0.3:
            block["url"] = self.https_url()
        elif roll < 0.55:
            block["screen_name"] = self.r.choice(SCREENS) if not self.chance(0.03) else "   "
            if self.chance(0.7):
                data = {"orderId": str(self.r.randint(1, 9999))}
                if self.chance(0.1):
                    data["count"] = self.r.randint(1, 5)  # a non-string value
                block["screen_data"] = data if self.chance(0.5) else json.dumps(data)
        elif roll < 0.65:
            block["url"] = self.https_url()
            block["rich_landing"] = self.r.choice([True, "true"])
        elif roll < 0.75:
            block["click_action"] = self.r.choice(["OPEN_CART", "OPEN_INBOX", "SHOW_PROMO"])
        elif roll < 0.9:
            block["url"] = self.product_link()
        tapped = None
        if self.chance(0.3):
            buttons = []
            for i in range(self.r.randint(1, 3)):
                button = {"identifier": f"btn-{i}", "label": self.text(1, 3)}
                if self.chance(0.5):
                    button["url"] = self.https_url()
                else:
                    button["screenName"] = self.r.choice(SCREENS)
                    button["screenData"] = {"id": str(self.r.randint(1, 999))}
                buttons.append(button)
            block["action_buttons"] = buttons
            if self.chance(0.5):
                tapped = self.r.choice(buttons)["identifier"]
        user_info = {"aps": self.aps()}
        if self.chance(0.02):
            user_info["dashx"] = block  # an object instead of a string
        else:
            user_info["dashx"] = json.dumps(block, ensure_ascii=self.chance(0.5), separators=(",", ":"))
        user_info.update(self.custom_keys())
        record = {"kind": "notification", "userInfo": user_info}
        if self.chance(0.03):
            record["action"] = "com.apple.UNNotificationDismissActionIdentifier"
        elif tapped:
            record["action"] = tapped
        if self.chance(0.05):
            record["origin"] = "local"
        return record

    def adobe_acs_push(self):
        user_info = {"aps": self.aps(), "_mId": str(self.r.randint(10**6, 10**7)), "_dId": self.hexid(8)}
        if self.chance(0.8):
            user_info["uri"] = self.r.choice([self.https_url(), self.product_link()])
        user_info.update(self.custom_keys())
        return {"kind": "notification", "userInfo": user_info}

    def adobe_ajo_push(self):
        user_info = {"aps": self.aps(), "adb_uri": self.r.choice([self.https_url(), self.product_link()])}
        if self.chance(0.9):
            user_info["_xdm"] = {"cjm": {"_experience": {"customerJourneyManagement": {"messageExecution": {"messageExecutionID": self.uuid()}}}}}
        record = {"kind": "notification", "userInfo": user_info}
        if self.chance(0.15):
            user_info["adb_act"] = json.dumps([{"label": "Shop", "uri": self.https_url(), "type": "WEBURL"}])
            record["action"] = "Shop"
        return record

    def adobe_local(self):
        user_info = {"adb_deeplink": self.product_link()}
        if self.chance(0.6):
            user_info["broadlogId"] = str(self.r.randint(10**5, 10**6))
            user_info["deliveryId"] = self.hexid(6)
        user_info.update(self.custom_keys())
        return {"kind": "notification", "userInfo": user_info, "origin": "local"}

    def adobe_click(self):
        ids = f"{self.r.randint(10**5, 10**6)},{self.hexid(6)}"
        roll = self.r.random()
        if roll < 0.55:
            destination = self.r.choice([self.https_url(), self.product_link()])
            if self.chance(0.2):
                destination += "&q=a+b"
            url = f"adbinapp://confirm/?id={ids},3&url={quote(destination, safe='')}"
        elif roll < 0.7:
            url = f"adbinapp://cancel?id={ids},5"
        elif roll < 0.8:
            url = f"adbinapp://confirm/?id={ids},4"
        else:
            url = f"adbinapp://dismiss?interaction=click&animate=left&link={quote(self.https_url(), safe='')}"
        return {"kind": "url", "url": url, "messageId": self.uuid()}

    def bird(self):
        kind = self.r.choice(["Tap", "Tap", "Button"])
        action_type = self.r.choice(["OPEN_APP", "URL", "DEEP_LINK"])
        action = {"type": action_type}
        if action_type == "URL":
            action["uri"] = self.https_url()
        elif action_type == "DEEP_LINK":
            action["uri"] = self.product_link()
        if kind == "Button":
            action["identifier"] = f"btn-{self.r.randint(1, 3)}"
        event = {"type": kind, "action": action}
        roll = self.r.random()
        if roll < 0.4:
            event["payload"] = json.dumps({"orderId": str(self.r.randint(1, 9999)), "tier": self.r.choice(["gold", "silver"])})
        elif roll < 0.6:
            event["payload"] = self.text(1, 4)
        record = {"kind": "vendorEvent", "event": event}
        if self.chance(0.3):
            record["automaticallyOpenDeeplinks"] = self.chance(0.5)
        return record

    def taptalk_push(self):
        room = {"roomID": str(self.r.randint(10**5, 10**7)), "xcRoomID": self.hexid(10), "name": self.text(1, 3), "type": self.r.randint(1, 4)}
        message = {"localID": self.uuid(), "messageID": str(self.r.randint(10**6, 10**8)), "body": self.hexid(48), "room": room, "user": {"userID": str(self.r.randint(1, 10**6)), "xcUserID": self.hexid(8), "fullname": self.text(1, 2)}}
        return {"kind": "notification", "userInfo": {"aps": self.aps(), "data": {"message": message}}}

    def taptalk_link(self):
        room = str(self.r.randint(10**5, 10**7))
        roll = self.r.random()
        if roll < 0.1:
            return {"kind": "url", "url": f"taptalkio://{room}"}
        shapes = [f"/{room}", f"/chat/{room}", f"/{room}/", f"//{room}", f"/{room}?from=share", f"/{room}#top", f"/a%2F{room}", ""]
        url = "https://web.taptalk.io" + self.r.choice(shapes)
        if self.chance(0.5):
            return {"kind": "userActivity", "activityType": "NSUserActivityTypeBrowsingWeb", "webpageURL": url}
        return {"kind": "url", "url": url}

    def custom_scheme(self):
        roll = self.r.random()
        if roll < 0.7:
            url = self.product_link()
        elif roll < 0.8:
            url = f"tel:+1555{self.r.randint(1000000, 9999999)}"
        elif roll < 0.9:
            url = f"mailto:help@{self.r.choice(HOSTS)}"
        else:
            url = f"otherapp://open/{self.r.randint(1, 99)}"
        return {"kind": "url", "url": url}

    def plain_https(self):
        url = self.https_url()
        if self.chance(0.5):
            return {"kind": "userActivity", "activityType": "NSUserActivityTypeBrowsingWeb", "webpageURL": url}
        return {"kind": "url", "url": url}

    def malformed(self):
        roll = self.r.random()
        if roll < 0.4:
            text = json.dumps(self.dashx(), ensure_ascii=False, separators=(",", ":"))
            return text[: self.r.randint(1, max(1, len(text) - 1))]
        if roll < 0.7:
            return json.dumps(self.r.choice([[1, 2, 3], "a string", 42, None, True, [{"kind": "url"}]]))
        bad = self.r.choice(WEIRD_SCHEMES)
        which = self.r.random()
        if which < 0.4:
            record = {"kind": "url", "url": bad}
        elif which < 0.7:
            record = {"kind": "notification", "userInfo": {"aps": self.aps(), "dashx": json.dumps({"id": self.uuid(), "title": "t", "body": "b", "url": bad})}}
        else:
            record = {"kind": "vendorEvent", "event": {"type": "Tap", "action": {"type": "URL", "uri": bad}}}
        return json.dumps(record, ensure_ascii=False, separators=(",", ":"))

    # The mix ------------------------------------------------------------------------------

    def record(self):
        roll = self.r.random() * 100
        table = [
            (30, self.dashx, "dashx"),
            (9, self.adobe_acs_push, "adobe"),
            (9, self.adobe_ajo_push, "adobe"),
            (5, self.adobe_local, "adobe"),
            (7, self.adobe_click, "adobe"),
            (12, self.bird, "bird"),
            (8, self.taptalk_push, "taptalk"),
            (8, self.taptalk_link, "taptalk"),
            (7, self.custom_scheme, None),
            (4, self.plain_https, None),
        ]
        for share, make, vendor in table:
            if roll < share:
                record = self.envelope(make())
                if vendor and self.chance(0.03):
                    record["vendor"] = vendor
                return json.dumps(record, ensure_ascii=False, separators=(",", ":"))
            roll -= share
        return self.malformed()


def main(argv):
    args = [a for a in argv[1:]]
    seed = 20240601
    if "--seed" in args:
        i = args.index("--seed")
        seed = int(args[i + 1])
        del args[i : i + 2]
    if len(args) != 2 or not args[0].isdigit():
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    count, out = int(args[0]), args[1]
    corpus = Corpus(seed)
    with open(out, "w", encoding="utf-8") as f:
        for _ in range(count):
            f.write(corpus.record())
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
