import TrackerDataKit
import TrackerlessCore

extension ScriptMessage {
    /// Decodes and checks a message body: size, JSON, version, secret, then every field and
    /// limit of protocol v1, in that order; the first failure is the rejection.
    ///
    /// - Parameters:
    ///   - body: the message as received.
    ///   - limits: the size limits.
    ///   - acceptsSecret: whether a secret is one of the host's; checked before the rest of the
    ///     schema, so a forged message is reported as such whatever else is wrong with it.
    public static func decode(
        _ body: MessageBody, limits: PrivacyStats.Limits = .default, acceptsSecret: (String) -> Bool
    ) -> Result<ScriptMessage, MessageRejection> {
        let root: JSONValue
        switch body.storage {
        case .bytes(let bytes):
            guard bytes.count <= limits.maxMessageBytes else { return .failure(.oversized) }
            if let message = fastDecode(bytes, limits: limits, acceptsSecret: acceptsSecret) { return .success(message) }
            guard let value = try? JSONParser.parse(bytes, maxDepth: 16) else { return .failure(.malformedJSON) }
            root = value
        case .value(let value): root = value
        case .tooLarge: return .failure(.oversized)
        case .notJSON: return .failure(.malformedJSON)
        }
        guard case .object(let object) = root else { return .failure(.malformedJSON) }
        guard case .number(1)? = object["trackerless"] else { return .failure(.unknownVersion) }
        guard case .string(let secret)? = object["secret"], acceptsSecret(secret) else { return .failure(.wrongSecret) }
        return decodeChecked(object, secret: secret, limits: limits)
    }

    private static func decodeChecked(
        _ object: JSONObject, secret: String, limits: PrivacyStats.Limits
    ) -> Result<ScriptMessage, MessageRejection> {
        guard case .string(let scriptName)? = object["script"], let script = Script(rawValue: scriptName),
            case .object(let pageObject)? = object["page"],
            case .string(let id)? = pageObject["id"], !id.isEmpty, id.utf8.count <= 64,
            case .string(let pageURL)? = pageObject["url"],
            case .string(let frameURL)? = pageObject["frame"],
            case .bool(let isTopFrame)? = pageObject["isTopFrame"],
            let sequence = JSONCount.count(object["seq"]),
            case .array(let eventValues)? = object["events"]
        else { return .failure(.invalidSchema) }
        var dropped = 0
        if let value = object["dropped"] {
            guard let count = JSONCount.count(value) else { return .failure(.invalidSchema) }
            dropped = count
        }
        guard eventValues.count <= limits.maxEventsPerMessage else { return .failure(.tooManyEvents) }
        guard pageURL.utf8.count <= limits.maxURLBytes, frameURL.utf8.count <= limits.maxURLBytes else {
            return .failure(.urlTooLong)
        }
        var events: [ObservedEvent] = []
        events.reserveCapacity(eventValues.count)
        for value in eventValues {
            switch event(value, limits: limits) {
            case .success(let event): events.append(event)
            case .failure(let rejection): return .failure(rejection)
            }
        }
        return .success(ScriptMessage(
            secret: secret, script: script,
            page: Page(id: id, url: pageURL, frame: frameURL, isTopFrame: isTopFrame),
            sequence: sequence, events: events, dropped: dropped))
    }

    private static func event(_ value: JSONValue, limits: PrivacyStats.Limits) -> Result<ObservedEvent, MessageRejection> {
        guard case .object(let object) = value, case .string(let kind)? = object["kind"],
            case .string(let url)? = object["url"]
        else { return .failure(.invalidSchema) }
        guard url.utf8.count <= limits.maxURLBytes else { return .failure(.urlTooLong) }
        switch kind {
        case "request":
            guard case .string(let type)? = object["type"], RequestType.observable.contains(RequestType(rawValue: type)),
                case .string(let stateName)? = object["state"], let state = ObservedState(rawValue: stateName)
            else { return .failure(.invalidSchema) }
            return .success(.request(url: url, type: RequestType(rawValue: type), state: state))
        case "surrogate":
            guard case .string(let name)? = object["surrogate"], !name.isEmpty, name.utf8.count <= 256 else {
                return .failure(.invalidSchema)
            }
            return .success(.surrogate(url: url, surrogate: name))
        case "navigation":
            return .success(.navigation(url: url))
        default:
            return .failure(.invalidSchema)
        }
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
