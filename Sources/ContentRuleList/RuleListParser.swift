import TrackerlessCore

// Stage 1 of the pipeline: JSON bytes -> RuleList, accepting and rejecting exactly what WebKit's
// ContentExtensionParser does (same key order, same silent ignores, same messages), then
// validating every pattern as WebKit's compiler does.

/// WebKit's parser, one JSON rule at a time.
enum RuleListParser {
    /// A parse error found inside one rule, before the rule index is known to the reporter.
    struct Failure: Error {
        var kind: RuleListError.Kind
        var detail: String?
        init(_ kind: RuleListError.Kind, _ detail: String? = nil) {
            self.kind = kind
            self.detail = detail
        }
    }

    /// Parses a list; `validatingPatterns: false` skips the regex pass (for tests that already
    /// validated the same patterns).
    static func parse(
        _ json: [UInt8], target: WebKitTarget = .newest, validatingPatterns: Bool = true
    ) throws(RuleListError) -> ParsedRuleList {
        if json.isEmpty {
            throw RuleListError(
                .jsonInvalid,
                detail: #"the input is empty; WebKitGTK reports "Source JSON rule set cannot be empty""#)
        }
        // The array is read rule by rule with JSONReader, without a tree: each key of a rule is read
        // where it is, and its failure kept for the order in which WebKit's parser looks keys up.
        let parsed: (rules: [ContentRule], sourceIndices: [Int], count: Int, warnings: [RuleListWarning])
        do throws(JSONReadError) {
            parsed = try JSONReader.read(json) { (reader) throws(JSONReadError) in
                guard try reader.nextKind() == .array else {
                    let document = try reader.readValue()
                    throw .rejected(RuleListError(.topLevelStructureNotAnArray, detail: "found \(typeName(document))"))
                }
                return try parseRules(&reader, target: target)
            }
        } catch {
            switch error {
            case .syntax(let error): throw RuleListError(.jsonInvalid, detail: error.description)
            case .rejected(let error as RuleListError): throw error
            case .invalidValue, .rejected: preconditionFailure("the rule list reader threw \(error)")
            }
        }
        let rules = parsed.rules
        let sourceIndices = parsed.sourceIndices
        if rules.isEmpty {
            throw RuleListError(
                .containsNoRules,
                detail: parsed.count == 0 ? "the array is empty" : "every rule has an invalid css-display-none selector")
        }

        // WebKit's compiler (Safari 11 to 16) refuses a list that mixes domain and top-URL
        // conditions before it compiles a pattern.
        if target.refusesDomainAndTopURLConditionsInOneList {
            try checkConditionKinds(rules, sourceIndices: sourceIndices)
        }
        // WebKit's compiler validates patterns only after the whole list parsed.
        guard validatingPatterns else {
            return ParsedRuleList(ruleList: RuleList(rules), sourceIndices: sourceIndices, warnings: parsed.warnings)
        }
        // A pattern whose skeleton (its literal runs as one letter) is known valid is valid
        // without being parsed itself: the url-filters of a list differ mostly in their hosts.
        var validated = Set<PatternKey>()
        var skeletons: KnownSkeletons? = KnownSkeletons()
        for (position, rule) in rules.enumerated() {
            do {
                try CompiledRule.validatePatterns(of: rule.trigger, validated: &validated, skeletons: &skeletons)
            } catch {
                throw RuleListError(error.kind, ruleIndex: sourceIndices[position], detail: error.detail)
            }
        }
        return ParsedRuleList(ruleList: RuleList(rules), sourceIndices: sourceIndices, warnings: parsed.warnings)
    }

    /// `JSONTopURLAndDomainConditions`: a list with both `if-domain`/`unless-domain` and
    /// `if-top-url`/`unless-top-url` conditions, named by the first rule of each kind.
    static func checkConditionKinds(_ rules: [ContentRule], sourceIndices: [Int]) throws(RuleListError) {
        var firstDomain: Int?
        var firstTopURL: Int?
        // By index: enumerating the rules copied each one.
        for position in rules.indices {
            switch rules[position].trigger.condition {
            case .ifDomain?, .unlessDomain?: if firstDomain == nil { firstDomain = position }
            case .ifTopURL?, .unlessTopURL?: if firstTopURL == nil { firstTopURL = position }
            default: continue
            }
            if let domain = firstDomain, let topURL = firstTopURL {
                throw RuleListError(
                    .topURLAndDomainConditions, ruleIndex: sourceIndices[max(domain, topURL)],
                    detail: "rule \(sourceIndices[domain]) has a domain condition, rule \(sourceIndices[topURL]) a top-URL condition")
            }
        }
    }

    /// The rules of the array that comes next, with their indices, and how many elements it has.
    ///
    /// Reported in WebKit's order: too many rules before any rule's error, then the first rule
    /// that is wrong; the rest of the array is still read, for its syntax errors, which come first.
    private static func parseRules(
        _ reader: inout JSONReader, target: WebKitTarget
    ) throws(JSONReadError) -> (rules: [ContentRule], sourceIndices: [Int], count: Int, warnings: [RuleListWarning]) {
        var warnings: [RuleListWarning] = []
        var rules: [ContentRule] = []
        var sourceIndices: [Int] = []
        var count = 0
        var firstError: RuleListError?
        var elements = try reader.enterArray(at: .root)
        while try reader.nextElement(in: &elements) {
            let index = count
            count += 1
            guard firstError == nil, count <= target.maximumRuleCount else {
                try reader.skipValue()
                continue
            }
            guard try reader.nextKind() == .object else {
                firstError = RuleListError(.invalidRule, ruleIndex: index, detail: "found \(typeName(try reader.readValue()))")
                continue
            }
            // The last member of each key is the one a lookup finds.
            var trigger: Result<TriggerMembers, Failure>?
            var action: Result<Action?, Failure>?
            var members = try reader.enterObject(at: .root)
            while let key = try reader.nextKey(in: &members) {
                switch key {
                case "trigger": trigger = try TriggerMembers.read(&reader, target: target)
                case "action": action = try readAction(&reader, target: target)
                default: try reader.skipValue()
                }
            }
            do {
                var ignored: [String] = []
                if let rule = try rule(trigger: trigger, action: action, target: target, ignoredKeys: &ignored) {
                    rules.append(rule)
                    sourceIndices.append(index)
                }
                for key in ignored { warnings.append(RuleListWarning(ruleIndex: index, key: key, target: target)) }
            } catch {
                firstError = RuleListError(error.kind, ruleIndex: index, detail: error.detail)
            }
        }
        if count > target.maximumRuleCount {
            throw .rejected(RuleListError(.tooManyRules, detail: "\(count) rules; at most \(target.maximumRuleCount)"))
        }
        if let firstError { throw .rejected(firstError) }
        return (rules, sourceIndices, count, warnings)
    }

    /// One rule: trigger first, then action, each as read from its last member. Nil when WebKit
    /// drops the rule silently.
    private static func rule(
        trigger: Result<TriggerMembers, Failure>?, action: Result<Action?, Failure>?, target: WebKitTarget,
        ignoredKeys: inout [String]
    ) throws(Failure) -> ContentRule? {
        guard let trigger else { throw Failure(.invalidTrigger, "the rule has no trigger") }
        let parsedTrigger = try trigger.get().trigger(target: target, ignoredKeys: &ignoredKeys)
        guard let action else { throw Failure(.invalidAction, "the rule has no action") }
        guard let parsedAction = try action.get() else { return nil }
        return ContentRule(trigger: parsedTrigger, action: parsedAction)
    }

    // MARK: Action

    /// Reads the action object that comes next: one without parameters (`block`, ...) straight
    /// from the bytes, any other as a tree for ``parseAction(_:target:)``.
    private static func readAction(_ reader: inout JSONReader, target: WebKitTarget) throws(JSONReadError) -> Result<Action?, Failure> {
        let start = reader.checkpoint
        if try reader.nextKind() == .object {
            var type: String?
            var members = try reader.enterObject(at: .root)
            while let key = try reader.nextKey(in: &members) {
                if case "type" = key {
                    type = try reader.readStringIfPresent()
                } else {
                    try reader.skipValue()
                }
            }
            if let type, let action = parameterlessAction(type), target.supports(actionType: type) {
                return .success(action)
            }
            reader.restore(start)
        }
        let value = try reader.readValue()
        do throws(Failure) {
            return .success(try parseAction(value, target: target))
        } catch {
            return .failure(error)
        }
    }

    /// The action of a type that takes no parameters, or nil for another type.
    private static func parameterlessAction(_ type: String) -> Action? {
        switch type {
        case "block": .block
        case "ignore-previous-rules": .ignorePreviousRules
        case "ignore-following-rules": .ignoreFollowingRules
        case "block-cookies": .blockCookies
        case "make-https": .makeHTTPS
        default: nil
        }
    }

    /// The action, or nil for a css-display-none rule whose selector WebKit rejects.
    static func parseAction(_ actionValue: JSONValue, target: WebKitTarget = .newest) throws(Failure) -> Action? {
        guard case .object(let object) = actionValue else {
            throw Failure(.invalidAction, "action: found \(typeName(actionValue))")
        }
        guard case .string(let type)? = object["type"] else {
            throw Failure(.invalidActionType, "action[\"type\"]: found \(typeName(object["type"]))")
        }
        if !target.supports(actionType: type) && WebKitTarget.newest.supports(actionType: type) {
            throw Failure(.invalidActionType, "action[\"type\"]: \(quoted(type)); \(target.displayName) does not know it")
        }
        switch type {
        case "block": return .block
        case "ignore-previous-rules": return .ignorePreviousRules
        case "ignore-following-rules": return .ignoreFollowingRules
        case "block-cookies": return .blockCookies
        case "css-display-none":
            guard case .string(let selector)? = object["selector"] else {
                throw Failure(.invalidCSSDisplayNoneActionType, "action[\"selector\"]: found \(typeName(object["selector"]))")
            }
            // Backwards compatibility in WebKit: a rule with an invalid selector is skipped.
            guard CSSSelectorValidator.isValid(selector, for: target) else { return nil }
            return .cssDisplayNone(selector: selector)
        case "make-https": return .makeHTTPS
        case "notify":
            guard case .string(let notification)? = object["notification"] else {
                throw Failure(.invalidNotification, "action[\"notification\"]: found \(typeName(object["notification"]))")
            }
            return .notify(notification)
        case "redirect":
            return .redirect(try parseRedirect(object))
        case "modify-headers":
            return .modifyHeaders(try parseModifyHeaders(object))
        default:
            throw Failure(.invalidActionType, "action[\"type\"]: \(quoted(type))")
        }
    }

    private static func parseRedirect(_ action: JSONObject) throws(Failure) -> Redirect {
        guard case .object(let redirect)? = action["redirect"] else {
            throw Failure(.redirectMissing, "action[\"redirect\"]: found \(typeName(action["redirect"]))")
        }
        if case .string(let path)? = redirect["extension-path"] {
            guard path.hasPrefix("/") else {
                throw Failure(.redirectExtensionPathDoesNotStartWithSlash, "extension-path \(quoted(path))")
            }
            return .extensionPath(path)
        }
        if case .string(let substitution)? = redirect["regex-substitution"] {
            return .regexSubstitution(substitution)
        }
        if case .object(let transform)? = redirect["transform"] {
            return .transform(try parseTransform(transform))
        }
        if case .string(let url)? = redirect["url"] {
            if let scheme = schemeOf(url), scheme == "javascript" {
                throw Failure(.redirectToJavaScriptURL, "url \(quoted(url))")
            }
            guard schemeOf(url) != nil, CanonicalURL(url) != nil else {
                throw Failure(.redirectURLInvalid, "url \(quoted(url))")
            }
            return .url(url)
        }
        throw Failure(.redirectInvalidType)
    }

    private static func parseTransform(_ object: JSONObject) throws(Failure) -> URLTransform {
        var transform = URLTransform()
        if case .string(let fragment)? = object["fragment"] {
            if !fragment.isEmpty && !fragment.hasPrefix("#") {
                throw Failure(.redirectInvalidFragment, "fragment \(quoted(fragment))")
            }
            transform.fragment = fragment
        }
        transform.host = string(object["host"])
        transform.password = string(object["password"])
        transform.path = string(object["path"])
        if case .string(let port)? = object["port"] {
            if port.isEmpty {
                transform.port = .remove
            } else {
                guard let number = parsePort(port) else { throw Failure(.redirectInvalidPort, "port \(quoted(port))") }
                transform.port = .number(number)
            }
        }
        if case .string(let scheme)? = object["scheme"] {
            guard let canonical = canonicalScheme(scheme) else {
                throw Failure(.redirectURLSchemeInvalid, "scheme \(quoted(scheme))")
            }
            if canonical == "javascript" { throw Failure(.redirectToJavaScriptURL, "scheme \(quoted(scheme))") }
            transform.scheme = canonical
        }
        transform.username = string(object["username"])
        if case .object(let queryTransform)? = object["query-transform"] {
            transform.queryTransform = try parseQueryTransform(queryTransform)
        } else if let query = string(object["query"]) {
            if !query.isEmpty && !query.hasPrefix("?") {
                throw Failure(.redirectInvalidQuery, "query \(quoted(query))")
            }
            transform.query = query
        }
        return transform
    }

    private static func parseQueryTransform(_ object: JSONObject) throws(Failure) -> QueryTransform {
        var transform = QueryTransform()
        if let value = object["remove-parameters"] {
            guard case .array(let elements) = value else {
                throw Failure(.removeParametersNotStringArray, "remove-parameters: found \(typeName(value))")
            }
            var names: [String] = []
            for (index, element) in elements.enumerated() {
                guard case .string(let name) = element else {
                    throw Failure(.removeParametersNotStringArray, "remove-parameters[\(index)]: found \(typeName(element))")
                }
                names.append(name)
            }
            transform.removeParameters = names
        }
        if let value = object["add-or-replace-parameters"] {
            guard case .array(let elements) = value else {
                throw Failure(.addOrReplaceParametersNotArray, "add-or-replace-parameters: found \(typeName(value))")
            }
            var parameters: [QueryTransform.Parameter] = []
            for (index, element) in elements.enumerated() {
                let place = "add-or-replace-parameters[\(index)]"
                guard case .object(let entry) = element else {
                    throw Failure(.addOrReplaceParametersKeyValueNotADictionary, "\(place): found \(typeName(element))")
                }
                guard case .string(let key)? = entry["key"] else {
                    throw Failure(.addOrReplaceParametersKeyValueMissingKeyString, "\(place)[\"key\"]: found \(typeName(entry["key"]))")
                }
                guard case .string(let parameterValue)? = entry["value"] else {
                    throw Failure(
                        .addOrReplaceParametersKeyValueMissingValueString, "\(place)[\"value\"]: found \(typeName(entry["value"]))")
                }
                var replaceOnly = false
                if case .bool(let flag)? = entry["replace-only"] { replaceOnly = flag }
                parameters.append(QueryTransform.Parameter(key: key, value: parameterValue, replaceOnly: replaceOnly))
            }
            transform.addOrReplaceParameters = parameters
        }
        return transform
    }

    private static func parseModifyHeaders(_ action: JSONObject) throws(Failure) -> ModifyHeaders {
        let requestHeaders = try headerOperations(action, key: "request-headers")
        let responseHeaders = try headerOperations(action, key: "response-headers")
        // WebKit reads the priority as a C++ int: fractions are truncated, out-of-range is negative.
        guard case .number(let number)? = action["priority"], number > -2_147_483_649, number < 2_147_483_648,
            Int(number) >= 0
        else {
            throw Failure(.modifyHeadersInvalidPriority, "priority: found \(typeName(action["priority"]))")
        }
        return ModifyHeaders(priority: Int(number), requestHeaders: requestHeaders, responseHeaders: responseHeaders)
    }

    private static func headerOperations(_ action: JSONObject, key: String) throws(Failure) -> [ModifyHeaders.Operation] {
        guard let value = action[key] else { return [] }
        guard case .array(let elements) = value else {
            throw Failure(.modifyHeadersNotArray, "\(key): found \(typeName(value))")
        }
        var operations: [ModifyHeaders.Operation] = []
        for (index, element) in elements.enumerated() {
            let place = "\(key)[\(index)]"
            guard case .object(let info) = element else {
                throw Failure(.modifyHeadersInfoNotADictionary, "\(place): found \(typeName(element))")
            }
            guard case .string(let operation)? = info["operation"] else {
                throw Failure(.modifyHeadersMissingOperation, "\(place)[\"operation\"]: found \(typeName(info["operation"]))")
            }
            guard case .string(let header)? = info["header"] else {
                throw Failure(.modifyHeadersMissingHeader, "\(place)[\"header\"]: found \(typeName(info["header"]))")
            }
            let headerValue = string(info["value"])
            switch operation {
            case "set", "append":
                guard let headerValue else {
                    throw Failure(.modifyHeadersMissingValue, "\(place)[\"value\"]: found \(typeName(info["value"]))")
                }
                operations.append(operation == "set" ? .set(header: header, value: headerValue) : .append(header: header, value: headerValue))
            case "remove":
                operations.append(.remove(header: header))
            default:
                throw Failure(.modifyHeadersInvalidOperation, "\(place)[\"operation\"]: \(quoted(operation))")
            }
        }
        return operations
    }

    // MARK: Helpers

    /// Whether the newest WebKit knows a flag that the target does not.
    static func isKnownToNewest(_ element: JSONValue, key: String) -> Bool {
        guard case .string(let name) = element else { return false }
        switch key {
        case "resource-type": return ResourceType(rawValue: name) != nil
        case "load-context": return LoadContext(rawValue: name) != nil
        default: return false
        }
    }

    private static func string(_ value: JSONValue?) -> String? {
        if case .string(let string)? = value { return string }
        return nil
    }

    /// A port as WebKit's `parseInteger<uint16_t>` reads it: optional `+`, digits, at most 65535.
    static func parsePort(_ text: String) -> UInt16? {
        var digits = Substring(text)
        if digits.first == "+" { digits = digits.dropFirst() }
        guard !digits.isEmpty else { return nil }
        var value: UInt32 = 0
        for byte in digits.utf8 {
            guard byte >= 0x30 && byte <= 0x39 else { return nil }
            value = value * 10 + UInt32(byte - 0x30)
            guard value <= 65_535 else { return nil }
        }
        return UInt16(value)
    }

    /// A scheme canonicalized as WebKit's URL parser does (ASCII letter, then letters, digits,
    /// `+`, `-`, `.`; lowercased), or nil when it is not a scheme.
    static func canonicalScheme(_ text: String) -> String? {
        var result = ""
        for (offset, byte) in text.utf8.enumerated() {
            let isLetter = (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            let isOther = (byte >= 0x30 && byte <= 0x39) || byte == 0x2B || byte == 0x2D || byte == 0x2E
            guard isLetter || (offset > 0 && isOther) else { return nil }
            let lower = byte >= 0x41 && byte <= 0x5A ? byte + 32 : byte
            result.unicodeScalars.append(Unicode.Scalar(lower))
        }
        return result.isEmpty ? nil : result
    }

    /// The canonical scheme of an absolute URL string, or nil when it has none.
    static func schemeOf(_ url: String) -> String? {
        let trimmed = url.drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let colon = trimmed.firstIndex(of: ":") else { return nil }
        return canonicalScheme(String(trimmed[..<colon]))
    }

    static func typeName(_ value: JSONValue?) -> String {
        switch value {
        case nil: "nothing"
        case .null?: "null"
        case .bool(let bool)?: bool ? "true" : "false"
        case .number(let number)?: "the number \(number)"
        case .string(let string)?: string.isEmpty ? "an empty string" : "the string \(quoted(string))"
        case .array?: "an array"
        case .object?: "an object"
        }
    }

    /// A string in double quotes for messages, shortened when long.
    static func quoted(_ text: String) -> String {
        var body = text
        if body.utf8.count > 200 { body = String(body.prefix(200)) + "…" }
        body = body.replacingBackslashesAndQuotes()
        return "\"\(body)\""
    }
}

extension String {
    fileprivate func replacingBackslashesAndQuotes() -> String {
        guard utf8.contains(where: { $0 == 0x22 || $0 == 0x5C }) else { return self }
        var result = ""
        for scalar in unicodeScalars {
            if scalar == "\"" || scalar == "\\" { result.unicodeScalars.append("\\") }
            result.unicodeScalars.append(scalar)
        }
        return result
    }
}
