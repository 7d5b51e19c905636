@testable import PrivacyStatsKit
import TrackerDataKit
import TrackerlessCore

/// The script-message decoder before the single reader: the message parsed into a `JSONValue`
/// tree, then looked up member by member. Kept as the oracle the decoder must agree with,
/// message for message and rejection for rejection.
enum TreeScriptMessageDecoder {
    static func decode(
        _ bytes: [UInt8], limits: PrivacyStats.Limits = .default, acceptsSecret: (String) -> Bool
    ) -> Result<ScriptMessage, MessageRejection> {
        guard bytes.count <= limits.maxMessageBytes else { return .failure(.oversized) }
        guard let root = try? JSONParser.parse(bytes, maxDepth: 16) else { return .failure(.malformedJSON) }
        return decode(root, limits: limits, acceptsSecret: acceptsSecret)
    }

    static func decode(
        _ root: JSONValue, limits: PrivacyStats.Limits = .default, acceptsSecret: (String) -> Bool
    ) -> Result<ScriptMessage, MessageRejection> {
        guard case .object(let object) = root else { return .failure(.malformedJSON) }
        guard case .number(1)? = object["trackerless"] else { return .failure(.unknownVersion) }
        guard case .string(let secret)? = object["secret"], acceptsSecret(secret) else { return .failure(.wrongSecret) }
        return decodeChecked(object, secret: secret, limits: limits)
    }

    private static func decodeChecked(
        _ object: JSONObject, secret: String, limits: PrivacyStats.Limits
    ) -> Result<ScriptMessage, MessageRejection> {
        guard case .string(let scriptName)? = object["script"], let script = ScriptMessage.Script(rawValue: scriptName),
            case .object(let pageObject)? = object["page"],
            case .string(let id)? = pageObject["id"], !id.isEmpty, id.utf8.count <= 64,
            case .string(let pageURL)? = pageObject["url"],
            case .string(let frameURL)? = pageObject["frame"],
            case .bool(let isTopFrame)? = pageObject["isTopFrame"],
            let sequence = Self.count(object["seq"]),
            case .array(let eventValues)? = object["events"]
        else { return .failure(.invalidSchema) }
        var dropped = 0
        if let value = object["dropped"] {
            guard let count = Self.count(value) else { return .failure(.invalidSchema) }
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
            page: ScriptMessage.Page(id: id, url: pageURL, frame: frameURL, isTopFrame: isTopFrame),
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
        case "clickToLoad":
            guard case .string(let action)? = object["action"], case .string(let token)? = object["token"],
                action.hasPrefix("block-ctl-"), action.utf8.count <= 256, token.utf8.count == 16,
                token.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
            else { return .failure(.invalidSchema) }
            return .success(.clickToLoad(url: url, action: action, token: token))
        default:
            return .failure(.invalidSchema)
        }
    }

    /// A count as the message protocol allows it (see `JSONCount`), from a tree's value.
    private static func count(_ value: JSONValue?) -> Int? {
        guard case .number(let number)? = value else { return nil }
        return JSONCount.count(number)
    }
}
