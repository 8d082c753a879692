import TapRoute

/// The DashX block read in place from its JSON text: the fast path of
/// ``DashXAdapter/read(_:using:)`` for a block about which the adapter has nothing to say.
///
/// It reads the text once with a ``TapRoute/PlainJSONScanner``, building only what the
/// ``TapRoute/Interaction`` keeps (the id, the URL, screen names and parameters, the buttons),
/// where the reference path parses the block into a value tree, looks its fields up and frees
/// it. It takes a block only when that reference path would raise no warning about it and
/// reads it exactly so: every field of the kind its SDKs expect (``FieldNames/stringKeys``
/// strings or `null`, `rich_landing` a Boolean, `"true"`, `"false"` or `null`), the required
/// `id`, `title` and `body` present, no key of the other case convention, `screen_data` an
/// object of strings (in place or as JSON text), every action button an object with a string
/// `identifier` and `label`, no URL with whitespace to trim, no key read twice, and nothing
/// the scanner does not take (an escaped key, a lone surrogate, JSON nesting past
/// `limits.maxDepth`). For anything else ``read(_:maximumDepth:)`` gives `nil` and the adapter
/// reads the block as a tree, which says what is wrong. A test holds the two paths to the
/// same result on every vector and on thousands of generated and broken blocks
/// (`DashXBlockInPlaceTests`).
enum DashXBlockInPlace {
    /// A block as read: the notification's `id`, its own fields, and the action buttons in
    /// order, each with the destination its own fields lead to. A tuple rather than a struct,
    /// so that the adapter takes the three apart and moves each into its result: a struct's
    /// fields were copied out of it and released with it (two retains and two releases a
    /// push, each an atomic operation).
    typealias Block = (id: String, fields: DashXNavigation, buttons: [Interaction.Button])

    /// What a key holds, and how the fast path reads it.
    enum Role {
        /// The notification's `id` or a button's `identifier`: a string.
        case id
        /// A button's `label`: a string.
        case label
        /// The notification's `title` or `body`: a string, read for its kind only.
        case requiredText
        /// `image`, `interruption_level`, a button's `icon`: a string or `null`, not read.
        case optionalText
        /// One of the navigation fields the notification and a button both have.
        case navigation(Navigation)
        /// The notification's `action_buttons`.
        case actionButtons
        /// A key of the other case convention, which the reference path warns about.
        case otherCase
    }

    /// The navigation fields (see ``DashXFields``).
    enum Navigation {
        case url, screenName, clickAction, screenData, richLanding
    }

    /// The keys of one kind of object and the role of each.
    struct KeyTable {
        /// The keys, numbered as ``roles``.
        let keys: PlainJSONScanner.Keys
        /// Each key's role.
        let roles: [Role]
        /// The bits of the keys that must be there (the notification's `id`, `title`, `body`).
        let required: UInt32

        init(_ entries: [(key: String, role: Role)], otherCase: [String], required requiredKeys: [String]) {
            let all = entries + otherCase.map { (key: $0, role: Role.otherCase) }
            keys = PlainJSONScanner.Keys(all.map(\.key))
            roles = all.map(\.role)
            required = entries.enumerated().reduce(0) { bits, entry in
                requiredKeys.contains(entry.element.key) ? bits | 1 << UInt32(entry.offset) : bits
            }
        }

        /// The navigation keys as `names` spells them.
        static func navigation(_ names: FieldNames) -> [(key: String, role: Role)] {
            [
                ("url", .navigation(.url)), (names.screenName, .navigation(.screenName)),
                (names.clickAction, .navigation(.clickAction)), (names.screenData, .navigation(.screenData)),
                (names.richLanding, .navigation(.richLanding)),
            ]
        }
    }

    /// The notification's keys.
    static let topKeys = KeyTable(
        [
            ("id", .id), ("title", .requiredText), ("body", .requiredText), ("image", .optionalText),
            ("interruption_level", .optionalText), ("action_buttons", .actionButtons),
        ] + KeyTable.navigation(.topLevel),
        otherCase: FieldNames.topLevel.otherCase.map(\.ignored),
        required: FieldNames.topLevel.requiredKeys
    )
    /// A button's keys.
    static let buttonKeys = KeyTable(
        [("identifier", .id), ("label", .label), ("icon", .optionalText)] + KeyTable.navigation(.button),
        otherCase: FieldNames.button.otherCase.map(\.ignored),
        required: ["identifier", "label"]
    )

    /// Reads the block from `text` (the string `userInfo.dashx` holds), nesting at most
    /// `maximumDepth` levels (the block itself is level 1); `nil` when the reference path
    /// is to read it (see the type's description).
    ///
    /// With `readsDestination` `false` — a button's action or a dismiss, where the result
    /// never asks for the notification's own destination — the notification's `url` and
    /// `screen_name` are checked as they would be read and not built: the block's
    /// `fields` then hold neither. (Its `click_action`, which a tapped button without a
    /// destination of its own falls back to in a warning, is read either way.)
    static func read(_ text: String, maximumDepth: Int, readsDestination: Bool = true) -> Block? {
        // Read where the string keeps its bytes: `withUTF8` would need a copy of the string
        // (a retain and a release of its storage). A string without contiguous UTF-8 (a
        // bridged one) is not read here.
        text.utf8.withContiguousStorageIfAvailable { read($0, maximumDepth: maximumDepth, readsDestination: readsDestination) }
            ?? nil
    }

    /// ``read(_:maximumDepth:readsDestination:)`` of the block's UTF-8 bytes.
    static func read(_ bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int, readsDestination: Bool = true) -> Block? {
        guard var scanner = PlainJSONScanner(bytes, maximumDepth: maximumDepth) else { return nil }
        var id: String?
        var label: String?
        var fields = DashXNavigation()
        var buttons: [Interaction.Button] = []
        guard
            readObject(
                &scanner,
                keys: topKeys,
                depth: 1,
                readsDestination: readsDestination,
                id: &id,
                label: &label,
                fields: &fields,
                buttons: &buttons
            ),
            scanner.isAtEnd(), let id
        else { return nil }
        return (id, fields, buttons)
    }

    /// Reads the object at the scanner, at `depth` (the block 1, a button 3), by `table`,
    /// into the variables given (the URL and screen name only when `readsDestination`);
    /// `false` when a required key is missing or anything is for the reference path. (The
    /// caller's variables rather than a struct returned: the struct was copied out and
    /// destroyed, about 400 instructions an object, measured.)
    private static func readObject(
        _ scanner: inout PlainJSONScanner,
        keys table: KeyTable,
        depth: Int,
        readsDestination: Bool,
        id: inout String?,
        label: inout String?,
        fields: inout DashXNavigation,
        buttons: inout [Interaction.Button]
    ) -> Bool {
        guard scanner.beginObject(depth: depth) else { return false }
        var seen: UInt32 = 0
        var first = true
        while true {
            guard let next = scanner.nextKey(first: first) else { return false }
            first = false
            guard let key = next else { break }
            guard let index = table.keys.index(of: key) else {
                // A key the adapter does not read: any value.
                guard scanner.skipValue(depth: depth) else { return false }
                continue
            }
            // A key read twice (the reference keeps the last value) is for the reference path.
            guard seen & (1 << index) == 0 else { return false }
            seen |= 1 << index
            switch table.roles[index] {
            case .id:
                guard let value = scanner.stringValue() else { return false }
                id = value
            case .label:
                guard let value = scanner.stringValue() else { return false }
                label = value
            case .requiredText:
                guard scanner.skipString() else { return false }
            case .optionalText:
                guard scanner.skipLiteral("null") || scanner.skipString() else { return false }
            case .navigation(let field):
                guard readNavigation(field, &scanner, into: &fields, depth: depth, builds: readsDestination) else { return false }
            case .actionButtons:
                guard let list = actionButtons(&scanner) else { return false }
                buttons = list
            case .otherCase:
                return false
            }
        }
        return seen & table.required == table.required
    }

    /// Reads the navigation field `field` of the object at `depth` into `fields` — a URL or
    /// a screen name only when `builds`, checked either way —; `false` when its value is for
    /// the reference path.
    private static func readNavigation(
        _ field: Navigation,
        _ scanner: inout PlainJSONScanner,
        into fields: inout DashXNavigation,
        depth: Int,
        builds: Bool
    ) -> Bool {
        switch field {
        case .url:
            // Not built, a URL without escapes is checked where it is (``url(_:)`` on its bytes).
            if !builds, let bytes = scanner.plainString() {
                return PayloadReader.hasNothingToTrim(bytes) || url(PlainJSONScanner.string(bytes)) != nil
            }
            guard let url = optionalURL(&scanner) else { return false }
            if builds { fields.url = url }
        case .screenName:
            if !builds, scanner.skipLiteral("null") || scanner.plainString() != nil { return true }
            guard let value = optionalString(&scanner) else { return false }
            if builds { fields.screenName = value }
        case .clickAction:
            guard let value = optionalString(&scanner) else { return false }
            fields.clickAction = value
        case .screenData:
            guard let parameters = parameters(&scanner, depth: depth) else { return false }
            fields.parameters = parameters
        case .richLanding:
            guard let flag = richLanding(&scanner) else { return false }
            fields.richLanding = flag
        }
        return true
    }

    /// A string or `null` (`.some(nil)`); `nil` for anything else.
    private static func optionalString(_ scanner: inout PlainJSONScanner) -> String?? {
        if scanner.skipLiteral("null") { return .some(nil) }
        guard let value = scanner.stringValue() else { return nil }
        return .some(value)
    }

    /// A URL as ``DashXFields/url(using:)`` reads it: trimmed, blank as none (`.some(nil)`);
    /// `nil` for anything else, and for a URL with whitespace to trim (a warning).
    private static func optionalURL(_ scanner: inout PlainJSONScanner) -> String?? {
        guard let value = optionalString(&scanner) else { return nil }
        guard let raw = value else { return .some(nil) }
        return url(raw)
    }

    /// The URL `raw` (a string read) as ``optionalURL(_:)`` gives it.
    private static func url(_ raw: String) -> String?? {
        // Nearly every URL: the string as read, where trimming returned a copy of it (a
        // retain, and the release of the original).
        if PayloadReader.hasNothingToTrim(raw) { return .some(raw) }
        guard let trimmed = PayloadReader.trimmedNonEmpty(raw) else { return .some(nil) }
        guard trimmed.utf8.count == raw.utf8.count else { return nil }
        return .some(trimmed)
    }

    /// The rich-landing flag without a warning: `true`, `false`, `"true"`, `"false"` or `null`
    /// (unset).
    private static func richLanding(_ scanner: inout PlainJSONScanner) -> Bool? {
        if scanner.skipLiteral("true") { return true }
        if scanner.skipLiteral("false") || scanner.skipLiteral("null") { return false }
        guard let text = scanner.plainString() else { return nil }
        if text.elementsEqual("true".utf8) { return true }
        if text.elementsEqual("false".utf8) { return false }
        return nil
    }

    /// Screen parameters from an object of strings in the object at `depth` — written in
    /// place, or held as JSON text in a string (read under `limits.maxDepth` counted from
    /// where the string is, as ``TapRoute/PayloadReader/object(_:heldAt:)`` reads it) — or
    /// `null` (none); `nil` for anything else (a value to convert, a key read twice, text that
    /// is not such an object).
    private static func parameters(_ scanner: inout PlainJSONScanner, depth: Int) -> ScreenParameters? {
        if scanner.skipLiteral("null") { return ScreenParameters(uniqueNames: []) }
        guard scanner.peek() == UInt8(ascii: "\"") else { return parameterObject(&scanner, depth: depth) }
        guard var held = scanner.stringValue() else { return nil }
        let maximumDepth = Swift.max(0, scanner.maximumDepth - depth)
        return held.withUTF8 { bytes -> ScreenParameters? in
            guard var inner = PlainJSONScanner(bytes, maximumDepth: maximumDepth),
                let parameters = parameterObject(&inner, depth: 0), inner.isAtEnd()
            else { return nil }
            return parameters
        }
    }

    /// Screen parameters from the object of strings at the scanner, in the object or array at
    /// `depth`; `nil` for anything else.
    private static func parameterObject(_ scanner: inout PlainJSONScanner, depth: Int) -> ScreenParameters? {
        guard scanner.beginObject(depth: depth + 1) else { return nil }
        var pairs: [ScreenParameters.Element] = []
        var first = true
        while true {
            guard let next = scanner.nextKey(first: first) else { return nil }
            first = false
            guard let key = next else { break }
            // Keys compared with each other, as the parser finds a repeated key; past
            // ``JSONObject``'s index threshold the reference path reads the object instead,
            // so that this stays linear.
            guard pairs.count < JSONObject.indexThreshold else { return nil }
            let name = PlainJSONScanner.string(key)
            guard !pairs.contains(where: { $0.name.utf8.elementsEqual(name.utf8) }),
                let value = scanner.stringValue()
            else { return nil }
            if pairs.capacity == 0 { pairs.reserveCapacity(4) }
            pairs.append((name: name, value: value))
        }
        return ScreenParameters(uniqueNames: pairs)
    }

    /// The action buttons: an array of button objects at depth 2, or `null` (none).
    private static func actionButtons(_ scanner: inout PlainJSONScanner) -> [Interaction.Button]? {
        if scanner.skipLiteral("null") { return [] }
        guard scanner.beginArray(depth: 2) else { return nil }
        var buttons: [Interaction.Button] = []
        var first = true
        while true {
            guard let more = scanner.hasNextElement(first: first) else { return nil }
            first = false
            guard more else { return buttons }
            guard let button = button(&scanner) else { return nil }
            buttons.append(button)
        }
    }

    /// One action button (an object at depth 3).
    private static func button(_ scanner: inout PlainJSONScanner) -> Interaction.Button? {
        var id: String?
        var label: String?
        var fields = DashXNavigation()
        var buttons: [Interaction.Button] = []
        guard
            readObject(
                &scanner,
                keys: buttonKeys,
                depth: 3,
                readsDestination: true,
                id: &id,
                label: &label,
                fields: &fields,
                buttons: &buttons
            ),
            let id, let label
        else { return nil }
        return Interaction.Button(id: id, label: label, destination: fields.destination)
    }
}
