#!/usr/bin/env python3
"""Writes a deterministic JSON Lines corpus of TapRoute input envelopes for benchmarks.

Usage: make_corpus.py N OUT.jsonl [--seed S] [--mix all|classic]

The same N, seed, mix and Python version give the same bytes, and a smaller N with the same
seed and mix gives a prefix of a larger one (records are drawn one after another from one
random generator). The mix, by share of records (`all`, the default | `classic`, the mix
before the definition vendors, whose records are byte for byte the ones it always wrote):

  21.8% | 30%  DashX push: `dashx` is a JSON string (half of them ASCII-escaped) whose
               destination is a url, a screen (+ screen_data), a rich landing page, a click
               action, a routed campaigndemoapp:// link or nothing; about 30% carry
               action_buttons, some tapped by id; a few dismisses, blocks sent as objects,
               blank screen names and screen_data with non-string values.
   6.5% |  9%  Adobe Campaign Standard push (uri, _mId, _dId, custom keys).
   6.5% |  9%  Adobe Journey Optimizer push (adb_uri, _xdm; some without _xdm, some buttons).
   3.6% |  5%  Adobe Campaign local notifications (origin local, adb_deeplink, userData keys).
   5.1% |  7%  Adobe in-app click URLs: adbinapp://confirm/?id=…,3&url=<percent-encoded>,
               cancel (tag 5), confirm without url, '+' in the destination, Journey
               Optimizer dismiss links.
   8.7% | 12%  Bird vendorEvent: Tap or Button with OPEN_APP, URL or DEEP_LINK; the payload a
               JSON string, a plain string or absent.
   5.8% |  8%  TapTalk iOS pushes with data.message.room.roomID.
   5.8% |  8%  TapTalk universal links on web.taptalk.io (trailing or double slashes, a query,
               a fragment, a %2F segment, the bare host) and a few taptalkio:// links.
   5.1% |  7%  Custom-scheme links: mostly campaigndemoapp://products/{id} (the default route),
               tel:, mailto: and a scheme the default configuration does not allow.
   2.9% |  4%  https links on hosts no vendor claims (userActivity or url envelopes).
     5% |  -   OneSignal: custom {i, u, a (custom data), sometimes ti/tn} or, a quarter, os_data
               {i, u, buttons [{i, n}]} with the custom keys at the root.
     5% |  -   Braze: ab {c, sometimes ab_cat buttons with a_uri or none}, ab_uri (a fifth with
               ab_use_webview), custom keys at the root.
     4% |  -   FCM: gcm.message_id, google.c.sender.id, mostly google.c.a.* analytics,
               google.c.fid, fcm_options.image, gcm.app_link (an https or routed link, or
               none), custom keys.
     3% |  -   Airship: _ (send id), com.urbanairship.metadata, one of ^d (deep link), ^u, ^p (a
               string or {url}), ^mc auto with _uamid, or none; a quarter with
               com.urbanairship.interactive_actions buttons.
     3% |  -   Iterable: itbl {campaignId, templateId, messageId, isGhostPush, defaultAction
               openUrl (https or routed) / a custom action / openApp / none, sometimes
               actionButtons with openUrl and custom actions}.
     3% |  -   CleverTap: wzrk_id, wzrk_pivot, wzrk_acct_id, some wzrk_cid and W$ keys, wzrk_dl.
     2% |  -   Customer.io: CIO-Delivery-ID, CIO-Delivery-Token, CIO.push {link, image}.
     1% |  -   Klaviyo: body {_k, a third with action_buttons open_app / deep_link}, root url.
     1% |  -   Pushwoosh: pw_msg, p (hash), l or a page r, u (custom data as a JSON string).
     1% |  1%  Malformed: 40% truncated JSON, 30% JSON that is not an object, 30% with a
               javascript:, data:, vbscript: or file: URL in a url envelope, a DashX block or
               a Bird action.

The definition vendors' links are https URLs (some with utm_ parameters), routed
campaigndemoapp://products/{id} links or nothing (a quarter of them); their actions are mostly
taps (about 10% name the default-action identifier), about 2% dismisses, and button taps:
10-15% of the pushes that list buttons, and a few app-category buttons the push does not list
(FCM, CleverTap, Customer.io, Pushwoosh). About 25% of all envelopes carry `phase` and about 3% `vendor`.
Titles and bodies mix Latin with accents, CJK, Cyrillic, Arabic, Thai and emoji.

Line sizes with the default seed and N = 200000 (bytes, without the newline):
  all:     median 447, mean 450, 95th percentile 1006, 99th 1293, largest 1837; 90.2 MB.
  classic: median 396, mean 436, 95th percentile 1067, 99th 1339, largest 1902; 87.4 MB.
By vendor (all): links 65 (median) and Bird 158; Adobe 348, Pushwoosh 397, Braze 418,
OneSignal 438, CleverTap 464, TapTalk 467, Klaviyo 487, Airship 507, Customer.io 519,
Iterable 539, FCM 572 (95th percentiles 500-860 bytes); DashX 810 (95th 1279). About 0.4% of
the lines are not valid JSON and 0.3% are JSON that is not an object.
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
    def __init__(self, seed, mix="all"):
        self.r = random.Random(seed)
        self.table = MIXES[mix]

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

    # Definition vendors ---------------------------------------------------------------------

    def destination_link(self, none_share=0.25, product_share=0.3):
        """An https URL, a routed campaigndemoapp://products/{id} link or None (no destination)."""
        roll = self.r.random()
        if roll < none_share:
            return None
        if roll < none_share + product_share:
            return self.product_link()
        return self.https_url()

    def button_label(self):
        return self.text(1, 3)

    def tap_action(self, button_ids, button_share=0.15, dismiss_share=0.02):
        """The envelope's action: None (a tap), a default action, a dismiss or one of button_ids."""
        roll = self.r.random()
        if roll < dismiss_share:
            return "com.apple.UNNotificationDismissActionIdentifier"
        if button_ids and roll < dismiss_share + button_share:
            return self.r.choice(button_ids)
        if roll > 0.9:
            return "com.apple.UNNotificationDefaultActionIdentifier"
        return None

    def notification(self, user_info, action):
        record = {"kind": "notification", "userInfo": user_info}
        if action is not None:
            record["action"] = action
        return record

    def onesignal(self):
        user_info = {"aps": self.aps()}
        link = self.destination_link()
        data = self.custom_keys()
        if self.chance(0.3):
            data["orderId"] = str(self.r.randint(1, 9999))
        button_ids = []
        if self.chance(0.75):
            custom = {"i": self.uuid()}
            if link:
                custom["u"] = link
            if data:
                custom["a"] = data
            if self.chance(0.2):
                custom["ti"] = self.uuid()
                custom["tn"] = self.text(1, 3)
            user_info["custom"] = custom
        else:
            os_data = {"i": self.uuid()}
            if link:
                os_data["u"] = link
            if self.chance(0.7):
                buttons = [{"i": f"id{i}", "n": self.button_label()} for i in range(1, self.r.randint(2, 3))]
                os_data["buttons"] = buttons
                button_ids = [b["i"] for b in buttons]
            user_info["os_data"] = os_data
            user_info.update(data)
        return self.notification(user_info, self.tap_action(button_ids))

    def braze(self):
        user_info = {"aps": self.aps()}
        ab = {"c": self.r.choice(["dGVzdF9jYW1wYWlnbl8x", "Y2FtcGFpZ25fMjAyNg==", None]) if self.chance(0.95) else self.hexid(24)}
        button_ids = []
        if self.chance(0.3):
            category = {}
            for name in self.r.sample(["shop", "later", "track", "open"], self.r.randint(1, 2)):
                link = self.destination_link(0.3)
                category[name] = {"a_t": "ab_uri", "a_uri": link} if link else {"a_t": "ab_open"}
            ab["ab_cat"] = category
            button_ids = list(category)
        user_info["ab"] = ab
        link = self.destination_link()
        if link:
            user_info["ab_uri"] = link
            if self.chance(0.2):
                user_info["ab_use_webview"] = self.r.choice([True, False, "true"])
        user_info.update(self.custom_keys())
        return self.notification(user_info, self.tap_action(button_ids))

    def airship(self):
        send_id = self.uuid()
        user_info = {"aps": self.aps(), "_": send_id, "com.urbanairship.metadata": self.hexid(48)}
        roll = self.r.random()
        if roll < 0.45:
            user_info["^d"] = self.r.choice([self.product_link(), self.https_url()])
        elif roll < 0.6:
            user_info["^u"] = self.https_url()
        elif roll < 0.7:
            user_info["^p"] = self.https_url() if self.chance(0.5) else {"url": self.https_url()}
        elif roll < 0.8:
            user_info["^mc"] = "auto"
            user_info["_uamid"] = self.hexid(22)
        button_ids = []
        if self.chance(0.25):
            user_info["com.urbanairship.interactive_actions"] = {
                "shop_now": {"^d": self.product_link()},
                "read_later": {"^p": {"url": self.https_url()}},
            }
            button_ids = ["shop_now", "read_later"]
        user_info.update(self.custom_keys())
        return self.notification(user_info, self.tap_action(button_ids))

    def iterable(self):
        itbl = {"campaignId": self.r.randint(10**5, 10**7), "templateId": self.r.randint(10**5, 10**7), "messageId": self.hexid(32), "isGhostPush": False}
        roll = self.r.random()
        if roll < 0.65:
            itbl["defaultAction"] = {"type": "openUrl", "data": self.r.choice([self.https_url(), self.https_url(), self.product_link()])}
        elif roll < 0.8:
            itbl["defaultAction"] = {"type": self.r.choice(["openCart", "showPromo"])}
        elif roll < 0.9:
            itbl["defaultAction"] = {"type": "openApp"} if self.chance(0.5) else {}
        button_ids = []
        if self.chance(0.3):
            buttons = [{"identifier": "view", "title": self.button_label(), "buttonType": "default", "openApp": True, "action": {"type": "openUrl", "data": self.r.choice([self.https_url(), self.product_link()])}}]
            if self.chance(0.5):
                buttons.append({"identifier": "snooze", "title": self.button_label(), "buttonType": "default", "openApp": False, "action": {"type": "snooze"}})
            itbl["actionButtons"] = buttons
            button_ids = [b["identifier"] for b in buttons]
        user_info = {"aps": self.aps(), "itbl": itbl}
        user_info.update(self.custom_keys())
        return self.notification(user_info, self.tap_action(button_ids))

    def clevertap(self):
        stamp = self.r.randint(1700000000, 1800000000)
        user_info = {"aps": self.aps(), "wzrk_id": f"{stamp}_{self.r.randint(20240101, 20261231)}", "wzrk_pivot": self.r.choice(["wzrk_default", "variant_a", "variant_b"]), "wzrk_acct_id": "TEST-R78-ZZK-955Z"}
        if self.chance(0.3):
            user_info["wzrk_cid"] = self.r.choice(["promotions", "orders"])
        if self.chance(0.2):
            user_info["W$ttl"] = str(stamp + 86400)
        link = self.destination_link()
        if link:
            user_info["wzrk_dl"] = link
        user_info.update(self.custom_keys())
        return self.notification(user_info, self.tap_action(["later"] if self.chance(0.3) else [], 0.1))

    def customerio(self):
        user_info = {"aps": self.aps(), "CIO-Delivery-ID": "dlv_" + self.hexid(20), "CIO-Delivery-Token": self.hexid(64)}
        push = {}
        link = self.destination_link()
        if link:
            push["link"] = link
        if self.chance(0.3):
            push["image"] = f"https://cdn.{self.r.choice(HOSTS)}/img/{self.r.randint(1, 9999)}.png"
        if push or self.chance(0.5):
            user_info["CIO"] = {"push": push}
        user_info.update(self.custom_keys())
        return self.notification(user_info, self.tap_action(["later"] if self.chance(0.2) else [], 0.1))

    def klaviyo(self):
        body = {"_k": json.dumps({"Message": self.hexid(8), "Company": self.hexid(6), "Flow": self.hexid(6)}, separators=(",", ":"))}
        button_ids = []
        if self.chance(0.35):
            buttons = [{"id": "com.klaviyo.open", "label": self.button_label(), "action": "open_app"}]
            if self.chance(0.7):
                buttons.append({"id": "com.klaviyo.shop", "label": self.button_label(), "action": "deep_link", "url": self.r.choice([self.product_link(), self.https_url()])})
            body["action_buttons"] = buttons
            button_ids = [b["id"] for b in buttons]
        user_info = {"aps": self.aps(), "body": body}
        link = self.destination_link()
        if link:
            user_info["url"] = link
        user_info.update(self.custom_keys())
        return self.notification(user_info, self.tap_action(button_ids))

    def pushwoosh(self):
        user_info = {"aps": self.aps(), "pw_msg": "1", "p": self.r.choice("0123456789abcdef") + "-" + self.hexid(7)}
        link = self.destination_link()
        if link:
            user_info["l"] = link
        elif self.chance(0.3):
            user_info["r"] = self.https_url()
        data = self.custom_keys()
        if data:
            user_info["u"] = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
        return self.notification(user_info, self.tap_action(["read"] if self.chance(0.2) else [], 0.1))

    def fcm(self):
        user_info = {
            "aps": self.aps(),
            "gcm.message_id": f"{self.r.randint(1700000000, 1800000000)}{self.r.randint(100000, 999999)}",
            "google.c.sender.id": str(self.r.randint(10**11, 10**12)),
        }
        if self.chance(0.7):
            user_info["google.c.a.e"] = "1"
            user_info["google.c.a.c_id"] = str(self.r.randint(10**18, 10**19))
            user_info["google.c.a.c_l"] = self.text(1, 3)
            user_info["google.c.a.ts"] = str(self.r.randint(1700000000, 1800000000))
            user_info["google.c.a.udt"] = "0"
        if self.chance(0.3):
            user_info["google.c.fid"] = self.hexid(22)
        if self.chance(0.2):
            user_info["fcm_options"] = {"image": f"https://cdn.{self.r.choice(HOSTS)}/img/{self.r.randint(1, 9999)}.png"}
        link = self.destination_link(0.3, 0.2)
        if link:
            user_info["gcm.app_link"] = link
        user_info.update(self.custom_keys())
        if self.chance(0.3):
            user_info["orderId"] = str(self.r.randint(1, 9999))
        return self.notification(user_info, self.tap_action(["later"] if self.chance(0.1) else [], 0.1))

    # The mix ------------------------------------------------------------------------------

    def record(self):
        roll = self.r.random() * 100
        for share, make, vendor in self.table:
            if roll < share:
                record = self.envelope(getattr(self, make)())
                if vendor and self.chance(0.03):
                    record["vendor"] = vendor
                return json.dumps(record, ensure_ascii=False, separators=(",", ":"))
            roll -= share
        return self.malformed()


# Shares in percent of records; whatever the table leaves (1%) is malformed.
CLASSIC = [
    (30, "dashx", "dashx"),
    (9, "adobe_acs_push", "adobe"),
    (9, "adobe_ajo_push", "adobe"),
    (5, "adobe_local", "adobe"),
    (7, "adobe_click", "adobe"),
    (12, "bird", "bird"),
    (8, "taptalk_push", "taptalk"),
    (8, "taptalk_link", "taptalk"),
    (7, "custom_scheme", None),
    (4, "plain_https", None),
]
DEFINITIONS = [
    (5, "onesignal", "onesignal"),
    (5, "braze", "braze"),
    (4, "fcm", "fcm"),
    (3, "airship", "airship"),
    (3, "iterable", "iterable"),
    (3, "clevertap", "clevertap"),
    (2, "customerio", "customerio"),
    (1, "klaviyo", "klaviyo"),
    (1, "pushwoosh", "pushwoosh"),
]
# `all`: the definition vendors take 27%, the classic shares are scaled down to the other 72%.
MIXES = {
    "all": [(share * 72 / 99, make, vendor) for share, make, vendor in CLASSIC] + DEFINITIONS,
    "classic": CLASSIC,
}


def main(argv):
    args = [a for a in argv[1:]]
    seed, mix = 20240601, "all"
    for option in ("--seed", "--mix"):
        if option in args:
            i = args.index(option)
            if i + 1 >= len(args):
                args = []
                break
            if option == "--seed":
                seed = int(args[i + 1]) if args[i + 1].lstrip("-").isdigit() else None
            else:
                mix = args[i + 1]
            del args[i : i + 2]
    if len(args) != 2 or not args[0].isdigit() or seed is None or mix not in MIXES:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    count, out = int(args[0]), args[1]
    corpus = Corpus(seed, mix)
    with open(out, "w", encoding="utf-8") as f:
        for _ in range(count):
            f.write(corpus.record())
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
