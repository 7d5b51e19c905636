import TrackerlessCore

extension RuleListParser {
    /// A trigger object read straight from the bytes: for each key WebKit looks up, the value of
    /// its last member (the one a lookup finds), already read, or what was wrong with it.
    ///
    /// Each value is read where it is and its failure kept, not thrown: WebKit reports the first
    /// failure in the order it looks the keys up, which ``trigger(target:ignoredKeys:)`` follows.
    struct TriggerMembers {
        private var urlFilter: Result<String, Failure>?
        private var urlFilterIsCaseSensitive: Bool?
        private var topURLFilterIsCaseSensitive: Bool?
        /// Present (the outer level) and a Boolean (the inner one).
        private var frameURLFilterIsCaseSensitive: Bool??
        private var resourceTypes: Result<[ResourceType], Failure>?
        private var loadTypes: Result<[LoadType], Failure>?
        private var loadContexts: Result<[LoadContext], Failure>?
        private var requestMethod: Result<RequestMethod, Failure>?
        /// By position in ``Condition/keysInParsingOrder``; empty while the trigger has none.
        private var conditions: [Result<Condition, Failure>?] = []

        /// Reads the trigger object that comes next, or fails with WebKit's error for another value.
        static func read(_ reader: inout JSONReader, target: WebKitTarget) throws(JSONReadError) -> Result<Self, Failure> {
            guard try reader.nextKind() == .object else {
                return .failure(Failure(.invalidTrigger, "trigger: found \(typeName(try reader.readValue()))"))
            }
            var trigger = TriggerMembers()
            var members = try reader.enterObject(at: .root)
            while let key = try reader.nextKey(in: &members) {
                switch key {
                case "url-filter": trigger.urlFilter = try readURLFilter(&reader)
                case "url-filter-is-case-sensitive": trigger.urlFilterIsCaseSensitive = try reader.readBoolIfPresent()
                case "top-url-filter-is-case-sensitive": trigger.topURLFilterIsCaseSensitive = try reader.readBoolIfPresent()
                case "frame-url-filter-is-case-sensitive": trigger.frameURLFilterIsCaseSensitive = .some(try reader.readBoolIfPresent())
                case "resource-type":
                    trigger.resourceTypes = try readFlags(&reader, key: "resource-type", target: target) { name in
                        ResourceType(rawValue: name).flatMap { target.supports($0) ? $0 : nil }
                    }
                case "load-type": trigger.loadTypes = try readFlags(&reader, key: "load-type", target: target, LoadType.init(rawValue:))
                case "load-context":
                    trigger.loadContexts = try readFlags(&reader, key: "load-context", target: target, LoadContext.init(rawValue:))
                case "request-method": trigger.requestMethod = try readRequestMethod(&reader)
                case "if-domain": try trigger.readCondition(&reader, at: 0)
                case "unless-domain": try trigger.readCondition(&reader, at: 1)
                case "if-top-url": try trigger.readCondition(&reader, at: 2)
                case "unless-top-url": try trigger.readCondition(&reader, at: 3)
                case "if-frame-url": try trigger.readCondition(&reader, at: 4)
                case "unless-frame-url": try trigger.readCondition(&reader, at: 5)
                default: try reader.skipValue()
                }
            }
            return .success(trigger)
        }

        /// The trigger, or the first failure in WebKit's order; each key the target does not read
        /// is added to `ignoredKeys`, whatever its value.
        func trigger(target: WebKitTarget, ignoredKeys: inout [String]) throws(Failure) -> Trigger {
            guard let urlFilter else { throw Failure(.invalidURLFilterInTrigger, "the trigger has no url-filter") }
            var trigger = Trigger(urlFilter: try urlFilter.get())
            func reads(_ key: String, isPresent: Bool) -> Bool {
                guard isPresent else { return false }
                if target.reads(triggerKey: key) { return true }
                ignoredKeys.append(key)
                return false
            }

            // Non-Boolean values are ignored, as WebKit does.
            if let urlFilterIsCaseSensitive { trigger.urlFilterIsCaseSensitive = urlFilterIsCaseSensitive }
            if let topURLFilterIsCaseSensitive { trigger.topURLFilterIsCaseSensitive = topURLFilterIsCaseSensitive }
            if reads("frame-url-filter-is-case-sensitive", isPresent: frameURLFilterIsCaseSensitive != nil),
                case .some(.some(let value)) = frameURLFilterIsCaseSensitive
            {
                trigger.frameURLFilterIsCaseSensitive = value
            }

            if let resourceTypes { trigger.resourceTypes = try resourceTypes.get() }
            if let loadTypes { trigger.loadTypes = try loadTypes.get() }
            if reads("load-context", isPresent: loadContexts != nil), let loadContexts {
                trigger.loadContexts = try loadContexts.get()
            }
            if reads("request-method", isPresent: requestMethod != nil), let requestMethod {
                trigger.requestMethod = try requestMethod.get()
            }

            for (position, condition) in conditions.enumerated() {
                let key = Condition.keysInParsingOrder[position]
                guard reads(key, isPresent: condition != nil), let condition else { continue }
                if let existing = trigger.condition {
                    throw Failure(.multipleConditions, "trigger has both \(existing.key) and \(key)")
                }
                trigger.condition = try condition.get()
            }
            return trigger
        }

        // MARK: Values

        private static func readURLFilter(_ reader: inout JSONReader) throws(JSONReadError) -> Result<String, Failure> {
            if try reader.nextKind() == .string {
                let urlFilter = try reader.readString(at: .root)
                if !urlFilter.isEmpty { return .success(urlFilter) }
                return .failure(Failure(.invalidURLFilterInTrigger, "trigger[\"url-filter\"]: found \(typeName(.string("")))"))
            }
            return .failure(Failure(.invalidURLFilterInTrigger, "trigger[\"url-filter\"]: found \(typeName(try reader.readValue()))"))
        }

        private static func readRequestMethod(_ reader: inout JSONReader) throws(JSONReadError) -> Result<RequestMethod, Failure> {
            let value = try reader.readValue()
            guard case .string(let name) = value, let method = RequestMethod(name: name) else {
                return .failure(Failure(.invalidRequestMethod, "trigger[\"request-method\"]: found \(typeName(value))"))
            }
            return .success(method)
        }

        private static func readFlags<Flag>(
            _ reader: inout JSONReader, key: String, target: WebKitTarget, _ make: (String) -> Flag?
        ) throws(JSONReadError) -> Result<[Flag], Failure> {
            try readStrings(&reader) { (strings, reader) throws(JSONReadError) -> Failure in
                guard let strings else {
                    return Failure(.invalidTriggerFlagsArray, "trigger[\"\(key)\"]: found \(typeName(try reader.readValue()))")
                }
                let element = try reader.readValue()
                let known = target != .newest && RuleListParser.isKnownToNewest(element, key: key)
                return Failure(
                    .invalidStringInTriggerFlagsArray,
                    "trigger[\"\(key)\"][\(strings.count)]: found \(typeName(element))"
                        + (known ? "; \(target.displayName) does not know it" : ""))
            } accept: { make($0) }
        }

        /// Reads the condition of the key at `position` in ``Condition/keysInParsingOrder``.
        private mutating func readCondition(_ reader: inout JSONReader, at position: Int) throws(JSONReadError) {
            if conditions.isEmpty { conditions = Array(repeating: nil, count: Condition.keysInParsingOrder.count) }
            conditions[position] = try Self.readCondition(&reader, key: Condition.keysInParsingOrder[position])
        }

        private static func readCondition(_ reader: inout JSONReader, key: String) throws(JSONReadError) -> Result<Condition, Failure> {
            let strings = try readStrings(&reader) { (strings, reader) throws(JSONReadError) -> Failure in
                guard let strings else {
                    return Failure(.invalidConditionList, "trigger[\"\(key)\"]: found \(typeName(try reader.readValue()))")
                }
                return Failure(.invalidConditionList, "trigger[\"\(key)\"][\(strings.count)]: found \(typeName(try reader.readValue()))")
            } accept: { $0.isEmpty ? nil : $0 }
            return strings.flatMap { (strings) -> Result<Condition, Failure> in
                if key == "if-domain" || key == "unless-domain" {
                    for (index, domain) in strings.enumerated()
                    where domain.utf8.contains(where: { $0 >= 0x80 || ($0 >= 0x41 && $0 <= 0x5A) }) {
                        return .failure(Failure(.domainNotLowerCaseASCII, "trigger[\"\(key)\"][\(index)]: \(quoted(domain))"))
                    }
                }
                guard !strings.isEmpty, let condition = Condition.make(key: key, values: strings) else {
                    return .failure(Failure(.invalidConditionList, "trigger[\"\(key)\"] is empty"))
                }
                return .success(condition)
            }
        }

        /// An array whose every element is a string `accept` takes, or the failure `reject` makes
        /// at the value (`nil`: not an array) or at the first element it refuses (the elements
        /// before it given); the rest of the array is skipped, its syntax checked.
        private static func readStrings<Element>(
            _ reader: inout JSONReader,
            reject: (_ before: [Element]?, _ reader: inout JSONReader) throws(JSONReadError) -> Failure,
            accept: (String) -> Element?
        ) throws(JSONReadError) -> Result<[Element], Failure> {
            guard try reader.nextKind() == .array else {
                return .failure(try reject(nil, &reader))
            }
            var result: [Element] = []
            var elements = try reader.enterArray(at: .root)
            while try reader.nextElement(in: &elements) {
                if try reader.nextKind() == .string {
                    let start = reader.checkpoint
                    if let element = accept(try reader.readString(at: .root)) {
                        result.append(element)
                        continue
                    }
                    reader.restore(start)
                }
                let failure = try reject(result, &reader)
                while try reader.nextElement(in: &elements) { try reader.skipValue() }
                return .failure(failure)
            }
            return .success(result)
        }
    }
}
