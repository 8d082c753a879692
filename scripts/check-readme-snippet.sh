#!/usr/bin/env bash
# Builds and runs README.md's "Using it from Swift" code as a library user would: a new
# package next to a copy of this repository named TapRoute, depending on it with the
# README's own `.package(path: "../TapRoute")` and `.product` lines, whose main.swift is the
# README's snippet verbatim. The few names the snippet takes from an app (`response`, as in
# userNotificationCenter(_:didReceive:), and `router`) are given by a small Support.swift,
# with the userInfo of examples/dashx-push.json and its "View order" button.
# Usage: scripts/check-readme-snippet.sh   (KEEP=1 keeps the scratch folder)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap '[ "${KEEP:-}" = 1 ] && echo "kept $work" || rm -rf "$work"' EXIT

# The blocks are marked in README.md with <!-- readme-check: NAME --> on the line before.
block() {
  awk -v name="$1" '
    $0 == "<!-- readme-check: " name " -->" { armed = 1; next }
    armed && /^```/ { if (inside) exit; inside = 1; next }
    inside { print }
  ' "$repo/README.md"
}
dependency=$(block dependency)
snippet=$(block main)
[ -n "$dependency" ] && [ -n "$snippet" ] || { echo "README.md: a readme-check block is missing" >&2; exit 1; }
package_line=$(printf '%s\n' "$dependency" | grep -E '^\.package\(path:')
products=$(printf '%s\n' "$dependency" | grep -E '^\.product\(')

# The clone as a user has it: a folder named TapRoute beside their package (sources only,
# without this checkout's .build).
mkdir -p "$work/TapRoute" "$work/App/Sources/App"
(cd "$repo" && tar --exclude='./.build*' --exclude=./.git --exclude=./.fuzz --exclude=./fuzz-artifacts -cf - .) | tar -xf - -C "$work/TapRoute"

cat > "$work/App/Package.swift" <<SWIFT
// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "App",
    dependencies: [
        $package_line
    ],
    targets: [
        .executableTarget(
            name: "App",
            dependencies: [
$(printf '%s\n' "$products" | sed 's/^/                /')
            ]
        )
    ]
)
SWIFT

printf '%s\n' "$snippet" > "$work/App/Sources/App/main.swift"
cat > "$work/App/Sources/App/Support.swift" <<'SWIFT'
import TapRoute

/// What userNotificationCenter(_:didReceive:) hands the app, reduced to what the snippet reads.
struct NotificationResponse {
    struct Notification { struct Request { struct Content { let userInfo: [AnyHashable: Any] } ; let content: Content } ; let request: Request }
    let notification: Notification
    let actionIdentifier: String
}

/// The DashX push of examples/dashx-push.json, its "View order" button tapped.
var response: NotificationResponse {
    let userInfo: [AnyHashable: Any] = [
        "aps": ["alert": ["title": "Your order has shipped", "body": "Track parcel 1Z999 or view the order."]],
        "dashx": #"{"id":"6f1c2a9e-0b7d-4c55-9a1e-3d2f8b7c1a40","title":"Your order has shipped","body":"Track parcel 1Z999 or view the order.","url":"https://shop.example.com/track/1Z999","action_buttons":[{"identifier":"view-order","label":"View order","screenName":"OrderDetail","screenData":{"orderId":"7421"}}]}"#,
        "campaign": "autumn-shipping",
    ]
    return NotificationResponse(
        notification: .init(request: .init(content: .init(userInfo: userInfo))),
        actionIdentifier: "view-order"
    )
}

/// The app's navigation: prints what it is asked to do.
struct Router: Sendable {
    func show(_ screen: String, _ parameters: ScreenParameters) {
        print("show \(screen) " + parameters.map { "\($0.name)=\($0.value)" }.joined(separator: "&"))
    }
    func open(_ url: String) { print("open \(url)") }
}
let router = Router()
SWIFT

cd "$work/App"
if ! swift build > "$work/build.log" 2>&1; then
  cat "$work/build.log" >&2
  echo "README.md's snippet does not build in a new package" >&2
  exit 1
fi
out=$(swift run --skip-build App)
echo "$out"
[ "$out" = "show OrderDetail orderId=7421" ] || { echo "README.md's snippet printed the wrong thing" >&2; exit 1; }
echo "README snippet: builds in a new package with a path dependency and runs"
