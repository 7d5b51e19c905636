import TrackerDataKit
import TrackerlessCore

/// What a message's members said, read in one pass in document order, for
/// ``ScriptMessage/decode(_:limits:acceptsSecret:)`` to check in protocol order.
///
/// A member's last occurrence wins (as a lookup in `JSON.parse`'s result finds it); a member of
/// the wrong type is kept as nil, which the checks reject as they would a missing one.
struct MessageDraft {
    var isVersionOne = false
    var secret: String?
    var script: ScriptMessage.Script?
    var page: PageDraft?
    var sequence: Int?
    var events: EventsDraft?
    /// nil when absent; `.some(nil)` when present but not a count.
    var dropped: Int??

    /// The page's members, each nil when absent or of the wrong type.
    struct PageDraft {
        var id: String?
        var url: String?
        var frame: String?
        var isTopFrame: Bool?
    }

    /// The events: how many there are, those decoded, and the first event's rejection.
    struct EventsDraft {
        var count = 0
        var events: [ObservedEvent] = []
        var firstRejection: MessageRejection?
    }

    /// Reads the message in `bytes`; nil when they are not JSON or not an object.
    static func read(_ bytes: [UInt8], maxDepth: Int, limits: PrivacyStats.Limits) -> MessageDraft? {
        try? JSONReader.read(bytes, maxDepth: maxDepth) { (reader) throws(JSONReadError) -> MessageDraft? in
            guard var members = try reader.enterObjectIfPresent() else { return nil }
            var draft = MessageDraft()
            while let key = try reader.nextKey(in: &members) {
                switch key {
                case "trackerless": draft.isVersionOne = try number(&reader) == 1
                case "secret": draft.secret = try string(&reader)
                case "script": draft.script = try string(&reader).flatMap(ScriptMessage.Script.init(rawValue:))
                case "page": draft.page = try page(&reader)
                case "seq": draft.sequence = try count(&reader)
                case "events": draft.events = try events(&reader, limits: limits)
                case "dropped": draft.dropped = .some(try count(&reader))
                default: try reader.skipValue()
                }
            }
            return draft
        } ?? nil
    }

    /// The checks of protocol v1 in order; the first that fails is the rejection.
    func message(limits: PrivacyStats.Limits, acceptsSecret: (String) -> Bool) -> Result<ScriptMessage, MessageRejection> {
        guard isVersionOne else { return .failure(.unknownVersion) }
        guard let secret, acceptsSecret(secret) else { return .failure(.wrongSecret) }
        guard let script, let page, let id = page.id, !id.isEmpty, id.utf8.count <= 64, let pageURL = page.url,
            let frameURL = page.frame, let isTopFrame = page.isTopFrame, let sequence, let events
        else { return .failure(.invalidSchema) }
        var droppedCount = 0
        if let dropped {
            guard let dropped else { return .failure(.invalidSchema) }
            droppedCount = dropped
        }
        guard events.count <= limits.maxEventsPerMessage else { return .failure(.tooManyEvents) }
        guard pageURL.utf8.count <= limits.maxURLBytes, frameURL.utf8.count <= limits.maxURLBytes else {
            return .failure(.urlTooLong)
        }
        if let rejection = events.firstRejection { return .failure(rejection) }
        return .success(ScriptMessage(
            secret: secret, script: script,
            page: ScriptMessage.Page(id: id, url: pageURL, frame: frameURL, isTopFrame: isTopFrame),
            sequence: sequence, events: events.events, dropped: droppedCount))
    }

    // MARK: Members

    /// The string that comes next, or nil after skipping another value.
    private static func string(_ reader: inout JSONReader) throws(JSONReadError) -> String? {
        try reader.readStringIfPresent()
    }

    /// The number that comes next, or nil after skipping another value.
    private static func number(_ reader: inout JSONReader) throws(JSONReadError) -> Double? {
        try reader.readDoubleIfPresent()
    }

    /// The count (see ``JSONCount``) that comes next, or nil after skipping another value.
    private static func count(_ reader: inout JSONReader) throws(JSONReadError) -> Int? {
        JSONCount.count(try number(&reader))
    }

    private static func page(_ reader: inout JSONReader) throws(JSONReadError) -> PageDraft? {
        guard var members = try reader.enterObjectIfPresent() else { return nil }
        var page = PageDraft()
        while let key = try reader.nextKey(in: &members) {
            switch key {
            case "id": page.id = try string(&reader)
            case "url": page.url = try string(&reader)
            case "frame": page.frame = try string(&reader)
            case "isTopFrame": page.isTopFrame = try reader.readBoolIfPresent()
            default: try reader.skipValue()
            }
        }
        return page
    }

    /// The events, decoded while they are within the limit: past it the message is refused
    /// anyway, and the rest are only checked for syntax.
    private static func events(_ reader: inout JSONReader, limits: PrivacyStats.Limits) throws(JSONReadError) -> EventsDraft? {
        guard var elements = try reader.enterArrayIfPresent() else { return nil }
        var draft = EventsDraft()
        while try reader.nextElement(in: &elements) {
            draft.count += 1
            guard draft.count <= limits.maxEventsPerMessage, draft.firstRejection == nil else {
                try reader.skipValue()
                continue
            }
            switch try event(&reader, limits: limits) {
            case .success(let event): draft.events.append(event)
            case .failure(let rejection): draft.firstRejection = rejection
            }
        }
        return draft
    }

    private static func event(
        _ reader: inout JSONReader, limits: PrivacyStats.Limits
    ) throws(JSONReadError) -> Result<ObservedEvent, MessageRejection> {
        guard var members = try reader.enterObjectIfPresent() else { return .failure(.invalidSchema) }
        var kind: String?, url: String?, type: String?, state: String?, surrogate: String?, action: String?, token: String?
        while let key = try reader.nextKey(in: &members) {
            switch key {
            case "kind": kind = try string(&reader)
            case "url": url = try string(&reader)
            case "type": type = try string(&reader)
            case "state": state = try string(&reader)
            case "surrogate": surrogate = try string(&reader)
            case "action": action = try string(&reader)
            case "token": token = try string(&reader)
            default: try reader.skipValue()
            }
        }
        guard let kind, let url else { return .failure(.invalidSchema) }
        guard url.utf8.count <= limits.maxURLBytes else { return .failure(.urlTooLong) }
        switch kind {
        case "request":
            guard let type, RequestType.observable.contains(RequestType(rawValue: type)),
                let state, let observed = ObservedState(rawValue: state)
            else { return .failure(.invalidSchema) }
            return .success(.request(url: url, type: RequestType(rawValue: type), state: observed))
        case "surrogate":
            guard let surrogate, !surrogate.isEmpty, surrogate.utf8.count <= 256 else { return .failure(.invalidSchema) }
            return .success(.surrogate(url: url, surrogate: surrogate))
        case "navigation":
            return .success(.navigation(url: url))
        case "clickToLoad":
            guard let action, let token, ClickToLoadEvent.isValid(action: action, token: token) else { return .failure(.invalidSchema) }
            return .success(.clickToLoad(url: url, action: action, token: token))
        default:
            return .failure(.invalidSchema)
        }
    }
}
