import TrackerDataKit
public import TrackerlessCore

extension ScriptMessage {
    /// Decodes and checks a message body: size, JSON, version, secret, then every field and
    /// limit of protocol v1, in that order; the first failure is the rejection.
    ///
    /// Both forms take one decoder: the bytes (or text) are read by `JSONReader`; an object a
    /// web view decoded is written as JSON first and read the same way.
    ///
    /// - Parameters:
    ///   - body: the message as received.
    ///   - limits: the size limits.
    ///   - acceptsSecret: whether a secret is one of the host's; checked before the rest of the
    ///     schema, so a forged message is reported as such whatever else is wrong with it.
    public static func decode(
        _ body: MessageBody, limits: PrivacyStats.Limits = .default, acceptsSecret: (String) -> Bool
    ) -> Result<ScriptMessage, MessageRejection> {
        let draft: MessageDraft?
        switch body.storage {
        case .bytes(let bytes):
            guard bytes.count <= limits.maxMessageBytes else { return .failure(.oversized) }
            draft = MessageDraft.read(bytes, maxDepth: 16, limits: limits)
        case .value(let value):
            // Its size was checked when it was converted; its depth is the converter's to limit.
            var writer = JSONWriter()
            writer.write(value)
            draft = MessageDraft.read(writer.bytes, maxDepth: .max, limits: limits)
        case .tooLarge: return .failure(.oversized)
        case .notJSON: return .failure(.malformedJSON)
        }
        guard let draft else { return .failure(.malformedJSON) }
        return draft.message(limits: limits, acceptsSecret: acceptsSecret)
    }

    /// The message as protocol v1 JSON, members in protocol order (what the scripts send).
    public func jsonValue() -> JSONValue {
        var object = JSONObject()
        object.append("trackerless", .number(Double(version)))
        object.append("secret", .string(secret))
        object.append("script", .string(script.rawValue))
        object.append("page", .object(JSONObject([
            ("id", .string(page.id)), ("url", .string(page.url)), ("frame", .string(page.frame)),
            ("isTopFrame", .bool(page.isTopFrame)),
        ])))
        object.append("seq", .number(Double(sequence)))
        object.append("events", .array(events.map(\.jsonValue)))
        if dropped > 0 { object.append("dropped", .number(Double(dropped))) }
        return .object(object)
    }
}

extension ObservedEvent {
    /// The event as protocol v1 JSON.
    public var jsonValue: JSONValue {
        switch self {
        case .request(let url, let type, let state):
            .object(JSONObject([
                ("kind", .string("request")), ("url", .string(url)), ("type", .string(type.rawValue)),
                ("state", .string(state.rawValue)),
            ]))
        case .surrogate(let url, let surrogate):
            .object(JSONObject([("kind", .string("surrogate")), ("url", .string(url)), ("surrogate", .string(surrogate))]))
        case .navigation(let url):
            .object(JSONObject([("kind", .string("navigation")), ("url", .string(url))]))
        case .clickToLoad(let url, let action, let token):
            .object(JSONObject([
                ("kind", .string("clickToLoad")), ("url", .string(url)), ("action", .string(action)), ("token", .string(token)),
            ]))
        }
    }
}

extension RequestType {
    /// The types a request event may carry: the tds names of what a page can load
    /// (never `main_frame`, nor the DOM's `link`, `iframe` or `fetch`).
    static let observable: Set<RequestType> = [
        .script, .image, .stylesheet, .subdocument, .xmlhttprequest, .font, .media, .websocket, .ping, .object, .other,
    ]
}
