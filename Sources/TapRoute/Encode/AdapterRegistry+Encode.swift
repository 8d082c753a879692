extension AdapterRegistry {
    /// The payload `vendor`'s SDK would hand the app for `message`: the input that
    /// ``normalize(_:)`` reads back to the message's destination, buttons, data and message
    /// id (docs/encode.md).
    ///
    /// The message is first checked against the adapter's ``EncodingCapabilities``: a
    /// destination kind, a button, a button label, a message id or custom data the vendor
    /// cannot carry is an error naming the field, never dropped. A screen the vendor cannot
    /// express becomes the URL of the configuration's route to it when `options.screens` is
    /// `route` (checked: the registry's policy must read that URL back as the same screen).
    ///
    /// - Throws: ``EncodingError``: `unknownVendor` (no enabled adapter has the id),
    ///   `noEncoder`, `cannotExpress` (with the field), or the encoder's own.
    public func encode(_ message: OutgoingMessage, vendor: String, options: EncodeOptions = EncodeOptions()) throws(EncodingError)
        -> InputEvent
    {
        guard let adapter = adapter(forVendor: vendor) else {
            let names = adapters.map(\.id).joined(separator: ", ")
            throw EncodingError(.unknownVendor, vendor: vendor, field: "$", "no enabled adapter has id '\(vendor)'; enabled: \(names)")
        }
        guard let encoder = adapter as? any MessageEncoding, encoder.encodes else {
            throw EncodingError(
                .noEncoder,
                vendor: vendor,
                field: "$",
                "adapter '\(vendor)' cannot encode messages (docs/encode.md lists the vendors that can)"
            )
        }
        let capabilities = encoder.encodingCapabilities
        let lowered = try lower(message, for: capabilities, vendor: vendor, options: options)
        let event = try encoder.encode(lowered)
        // The payload must be the vendor's when it arrives: custom data that looks like another
        // vendor's keys would hand it to that vendor (detection order is the configuration's).
        let claimant = try? self.adapter(for: event)
        guard let claimant, claimant.id == vendor else {
            let who = claimant.map { "adapter '\($0.id)' (earlier in the detection order)" } ?? "no adapter"
            throw EncodingError(
                .cannotExpress,
                vendor: vendor,
                field: message.data.isEmpty ? "$" : "$.data",
                "the \(vendor) payload for this message would be read by \(who), not \(vendor)"
                    + (message.data.isEmpty ? "" : "; a custom data key looks like that vendor's")
            )
        }
        return event
    }

    /// Whether the enabled adapter `vendor` can encode messages.
    public func canEncode(vendor: String) -> Bool {
        encodingCapabilities(vendor: vendor) != nil
    }

    /// What the enabled adapter `vendor` can express, when it can encode.
    public func encodingCapabilities(vendor: String) -> EncodingCapabilities? {
        guard let encoder = adapter(forVendor: vendor) as? any MessageEncoding, encoder.encodes else { return nil }
        return encoder.encodingCapabilities
    }

    /// The message with what the vendor cannot express replaced (a screen by its route's URL
    /// when asked) or refused.
    func lower(_ message: OutgoingMessage, for capabilities: EncodingCapabilities, vendor: String, options: EncodeOptions)
        throws(EncodingError) -> OutgoingMessage
    {
        var message = message
        message.destination = try lower(
            message.destination,
            allowed: capabilities.destinations,
            capabilities: capabilities,
            field: "$.destination",
            vendor: vendor,
            options: options
        )
        if !message.buttons.isEmpty, capabilities.buttonDestinations.isEmpty {
            throw EncodingError(.cannotExpress, vendor: vendor, field: "$.buttons", "\(vendor) payloads have no buttons")
        }
        for i in message.buttons.indices {
            message.buttons[i].destination = try lower(
                message.buttons[i].destination,
                allowed: capabilities.buttonDestinations,
                capabilities: capabilities,
                field: "$.buttons[\(i)].destination",
                vendor: vendor,
                options: options
            )
            if message.buttons[i].label != nil, !capabilities.buttonLabels {
                throw EncodingError(
                    .cannotExpress,
                    vendor: vendor,
                    field: "$.buttons[\(i)].label",
                    "\(vendor) payloads do not carry button labels to the app"
                )
            }
            let button = message.buttons[i]
            if capabilities.buttonIDsAreLabels, button.label != button.id {
                throw EncodingError(
                    .cannotExpress,
                    vendor: vendor,
                    field: "$.buttons[\(i)].label",
                    "\(vendor)'s buttons have no id of their own (its SDK reports the label), so a button's label must be its id"
                )
            }
            if message.buttons[i].label == nil, capabilities.requiresButtonLabels {
                throw EncodingError(
                    .cannotExpress,
                    vendor: vendor,
                    field: "$.buttons[\(i)].label",
                    "\(vendor)'s SDK shows no button without a label"
                )
            }
        }
        if message.messageId == nil, capabilities.requiresMessageId {
            throw EncodingError(
                .cannotExpress,
                vendor: vendor,
                field: "$.messageId",
                "\(vendor) payloads need a message id (its SDK recognizes its pushes by it)"
            )
        }
        if message.messageId != nil, !capabilities.messageId {
            throw EncodingError(
                .cannotExpress,
                vendor: vendor,
                field: "$.messageId",
                "\(vendor) payloads carry no message id the app can read"
            )
        }
        if !message.data.isEmpty {
            guard capabilities.data else {
                throw EncodingError(
                    .cannotExpress,
                    vendor: vendor,
                    field: "$.data",
                    "\(vendor) payloads carry no custom data the app can read"
                )
            }
            for key in message.data.keys where capabilities.reserves(key) {
                throw EncodingError(
                    .cannotExpress,
                    vendor: vendor,
                    field: "$.data." + key,
                    "'\(key)' is a key \(vendor) uses itself; custom data cannot have it"
                )
            }
        }
        return message
    }

    private func lower(
        _ destination: Destination,
        allowed: Set<DestinationKind>,
        capabilities: EncodingCapabilities,
        field: String,
        vendor: String,
        options: EncodeOptions
    ) throws(EncodingError) -> Destination {
        let kind = DestinationKind(destination)
        if allowed.contains(kind), case .screen(let name, let parameters, _) = destination, let screens = capabilities.screens {
            guard let names = screens[name] else {
                throw EncodingError(
                    .cannotExpress,
                    vendor: vendor,
                    field: field,
                    "\(vendor) payloads can name only the screens \(screens.keys.sorted().joined(separator: ", ")), not '\(name)'"
                )
            }
            guard Set(parameters.names) == names else {
                throw EncodingError(
                    .cannotExpress,
                    vendor: vendor,
                    field: field,
                    "\(vendor)'s screen '\(name)' takes exactly the parameters \(names.sorted().joined(separator: ", "))"
                )
            }
        }
        if allowed.contains(kind) {
            if case .url(let url, _) = destination, let schemes = capabilities.urlSchemes {
                let scheme = (try? URLParts.parse(url))?.scheme ?? ""
                guard schemes.contains(scheme) else {
                    throw EncodingError(
                        .cannotExpress,
                        vendor: vendor,
                        field: field,
                        "\(vendor)'s SDK takes only \(schemes.sorted().joined(separator: ", ")) URLs here, not '\(scheme)'"
                    )
                }
            }
            return destination
        }
        if case .screen(let name, let parameters, let url) = destination, allowed.contains(.url) {
            // A screen that carries its link is written as the link when the registry's
            // policy reads the link back as that screen.
            if let url, readsBack(url, as: name, parameters: parameters) { return .url(url, target: .app) }
            guard options.screens == .route else {
                throw EncodingError(
                    .cannotExpress,
                    vendor: vendor,
                    field: field,
                    "\(vendor) payloads cannot name a screen; give the destination as a URL, or encode with screens: route (--screens route) to use the URL of the configuration's route to '\(name)'"
                )
            }
            return .url(try routeURL(to: name, parameters: parameters, field: field, vendor: vendor), target: .app)
        }
        throw EncodingError(
            .cannotExpress,
            vendor: vendor,
            field: field,
            "\(vendor) payloads cannot express a \(kind.rawValue) destination here; they can express \(allowed.map(\.rawValue).sorted().joined(separator: ", "))"
        )
    }

    /// Whether the policy reads `url` back, without a warning, as `screen` with exactly
    /// `parameters`.
    func readsBack(_ url: String, as screen: String, parameters: ScreenParameters) -> Bool {
        var warnings: [Warning] = []
        let back = policy.resolve(.url(url, target: .app), warnings: &warnings, label: "the route's URL")
        guard warnings.isEmpty, case .screen(screen, let found, _) = back else { return false }
        return found == parameters
    }

    /// The URL of the first route to `screen` that the policy reads back as that screen with
    /// exactly `parameters`.
    func routeURL(to screen: String, parameters: ScreenParameters, field: String, vendor: String) throws(EncodingError) -> String {
        var tried = false
        for route in configuration.routes where route.screen == screen {
            tried = true
            guard let url = route.url(for: parameters) else { continue }
            if readsBack(url, as: screen, parameters: parameters) { return url }
        }
        throw EncodingError(
            .cannotExpress,
            vendor: vendor,
            field: field,
            tried
                ? "no route to screen '\(screen)' reads back with parameters \(parameters.map { "\($0.name)=\($0.value)" }.joined(separator: ", ")); \(vendor) payloads cannot name a screen"
                : "no route in the configuration leads to screen '\(screen)', and \(vendor) payloads cannot name a screen"
        )
    }
}
