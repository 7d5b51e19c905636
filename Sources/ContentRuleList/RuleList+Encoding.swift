import TrackerlessCore

// The last stage of the pipeline: RuleList -> compact, deterministic JSON that WebKit accepts.

extension RuleList {
    /// The list as compact JSON for WebKit: keys in a fixed order, defaults omitted, no `\/`.
    ///
    /// A trigger writes `url-filter` first, then the case flags that are true, `resource-type`,
    /// `load-type`, `load-context` (when not empty), `request-method` and the condition; an
    /// action writes `type` first. Equal lists always encode to the same bytes, and parsing the
    /// bytes gives back an equal list.
    public func encoded() -> [UInt8] {
        var writer = JSONWriter(capacity: estimatedSize)
        writer.writeRaw("[")
        // Read in place: copying each rule would retain and release all its strings.
        var repeated = RepeatedArrays()
        rules.withUnsafeBufferPointer { rules in
            for index in rules.indices {
                if index > 0 { writer.writeRaw(",") }
                writer.writeRaw(#"{"trigger":"#)
                Self.write(rules[index].trigger, to: &writer, repeated: &repeated)
                writer.writeRaw(#","action":"#)
                Self.write(rules[index].action, to: &writer)
                writer.writeRaw("}")
            }
        }
        writer.writeRaw("]")
        return writer.bytes
    }

    /// Room for the encoded list: its strings (escaping adds about one byte in ten) and the keys
    /// around them, so that the buffer rarely has to grow.
    private var estimatedSize: Int {
        var size = 64
        // A condition array shared by many rules is measured once, known by its storage (which
        // the list keeps alive), and counted for each rule, which writes it again.
        var arraySizes: [Int: Int] = [:]
        rules.withUnsafeBufferPointer { rules in
            for index in rules.indices {
                size += 160 + rules[index].trigger.urlFilter.utf8.count * 11 / 10
                if let condition = rules[index].trigger.condition {
                    let values = condition.values
                    let address = values.count > 8
                        ? values.withContiguousStorageIfAvailable { Int(bitPattern: $0.baseAddress) } ?? 0 : 0
                    if address != 0, let known = arraySizes[address] {
                        size += known
                    } else {
                        var arraySize = 0
                        for value in values { arraySize += 3 + value.utf8.count * 11 / 10 }
                        if address != 0 { arraySizes[address] = arraySize }
                        size += arraySize
                    }
                }
                if case .cssDisplayNone(let selector) = rules[index].action { size += 16 + selector.utf8.count }
            }
        }
        return size
    }

    /// Where the condition lists already written are in the output, by the array's storage:
    /// generators share one array between many rules (an owner's domains on each of its
    /// trackers), and copying its bytes is cheaper than encoding its strings again.
    struct RepeatedArrays {
        var ranges: [Int: (count: Int, range: Range<Int>)] = [:]
    }

    /// Writes `trigger`; with `writingConditionValues` false, its condition's values as `[]`
    /// (for ``RuleByteCounter``, which counts a shared array's bytes once).
    static func write(
        _ trigger: borrowing Trigger, to writer: inout JSONWriter, repeated: inout RepeatedArrays,
        writingConditionValues: Bool = true
    ) {
        writer.writeRaw(#"{"url-filter":"#)
        writer.writeString(trigger.urlFilter)
        if trigger.urlFilterIsCaseSensitive { writer.writeRaw(#","url-filter-is-case-sensitive":true"#) }
        if trigger.topURLFilterIsCaseSensitive { writer.writeRaw(#","top-url-filter-is-case-sensitive":true"#) }
        if trigger.frameURLFilterIsCaseSensitive { writer.writeRaw(#","frame-url-filter-is-case-sensitive":true"#) }
        writeStrings(#","resource-type":["#, trigger.resourceTypes, to: &writer)
        writeStrings(#","load-type":["#, trigger.loadTypes, to: &writer)
        writeStrings(#","load-context":["#, trigger.loadContexts, to: &writer)
        if let method = trigger.requestMethod {
            writer.writeRaw(#","request-method":"#)
            writer.writeString(method.rawValue)
        }
        if let condition = trigger.condition {
            writer.writeRaw(",")
            writer.writeString(condition.key)
            writer.writeRaw(":")
            guard writingConditionValues else {
                writer.writeRaw("[]}")
                return
            }
            let values = condition.values
            // The storage address identifies the array while the list (which holds it) lives;
            // arrays without storage of their own (bridged ones) are not remembered.
            let address = values.withContiguousStorageIfAvailable { Int(bitPattern: $0.baseAddress) } ?? 0
            if values.count > 8, address != 0, let earlier = repeated.ranges[address], earlier.count == values.count {
                writer.repeatOutput(earlier.range)
            } else {
                let start = writer.count
                writeArray(values, to: &writer)
                if values.count > 8 && address != 0 { repeated.ranges[address] = (values.count, start..<writer.count) }
            }
        }
        writer.writeRaw("}")
    }

    static func write(_ action: borrowing Action, to writer: inout JSONWriter) {
        writer.writeRaw(#"{"type":"#)
        writer.writeString(action.type)
        switch action {
        case .block, .blockCookies, .ignorePreviousRules, .ignoreFollowingRules, .makeHTTPS:
            break
        case .cssDisplayNone(let selector):
            writer.writeRaw(#","selector":"#)
            writer.writeString(selector)
        case .notify(let notification):
            writer.writeRaw(#","notification":"#)
            writer.writeString(notification)
        case .redirect(let redirect):
            writer.writeRaw(#","redirect":"#)
            write(redirect, to: &writer)
        case .modifyHeaders(let modifyHeaders):
            writer.writeRaw(#","priority":"#)
            writer.writeNumber(Double(modifyHeaders.priority))
            writeOperations("request-headers", modifyHeaders.requestHeaders, to: &writer)
            writeOperations("response-headers", modifyHeaders.responseHeaders, to: &writer)
        }
        writer.writeRaw("}")
    }

    private static func write(_ redirect: Redirect, to writer: inout JSONWriter) {
        switch redirect {
        case .extensionPath(let path):
            writer.writeRaw(#"{"extension-path":"#)
            writer.writeString(path)
        case .regexSubstitution(let substitution):
            writer.writeRaw(#"{"regex-substitution":"#)
            writer.writeString(substitution)
        case .url(let url):
            writer.writeRaw(#"{"url":"#)
            writer.writeString(url)
        case .transform(let transform):
            writer.writeRaw(#"{"transform":{"#)
            var first = true
            func member(_ key: String, _ value: String?) {
                guard let value else { return }
                if !first { writer.writeRaw(",") }
                first = false
                writer.writeString(key)
                writer.writeRaw(":")
                writer.writeString(value)
            }
            member("scheme", transform.scheme)
            member("username", transform.username)
            member("password", transform.password)
            member("host", transform.host)
            switch transform.port {
            case nil: break
            case .remove?: member("port", "")
            case .number(let number)?: member("port", String(number))
            }
            member("path", transform.path)
            if let queryTransform = transform.queryTransform {
                if !first { writer.writeRaw(",") }
                first = false
                writer.writeRaw(#""query-transform":{"#)
                var wroteMember = false
                if let names = queryTransform.removeParameters {
                    writer.writeRaw(#""remove-parameters":"#)
                    writeArray(names, to: &writer)
                    wroteMember = true
                }
                if let parameters = queryTransform.addOrReplaceParameters {
                    if wroteMember { writer.writeRaw(",") }
                    writer.writeRaw(#""add-or-replace-parameters":["#)
                    for (index, parameter) in parameters.enumerated() {
                        if index > 0 { writer.writeRaw(",") }
                        writer.writeRaw(#"{"key":"#)
                        writer.writeString(parameter.key)
                        writer.writeRaw(#","value":"#)
                        writer.writeString(parameter.value)
                        if parameter.replaceOnly { writer.writeRaw(#","replace-only":true"#) }
                        writer.writeRaw("}")
                    }
                    writer.writeRaw("]")
                }
                writer.writeRaw("}")
            } else {
                member("query", transform.query)
            }
            member("fragment", transform.fragment)
            writer.writeRaw("}")
        }
        writer.writeRaw("}")
    }

    private static func writeOperations(
        _ key: String, _ operations: [ModifyHeaders.Operation], to writer: inout JSONWriter
    ) {
        guard !operations.isEmpty else { return }
        writer.writeRaw(",")
        writer.writeString(key)
        writer.writeRaw(":[")
        for (index, operation) in operations.enumerated() {
            if index > 0 { writer.writeRaw(",") }
            switch operation {
            case .set(let header, let value), .append(let header, let value):
                writer.writeRaw(#"{"operation":"#)
                writer.writeString(operation.isSet ? "set" : "append")
                writer.writeRaw(#","header":"#)
                writer.writeString(header)
                writer.writeRaw(#","value":"#)
                writer.writeString(value)
            case .remove(let header):
                writer.writeRaw(#"{"operation":"remove","header":"#)
                writer.writeString(header)
            }
            writer.writeRaw("}")
        }
        writer.writeRaw("]")
    }

    /// Writes `,"key":["a","b"]` for trigger flag values (names need no escaping); nothing when
    /// empty. `opening` is `,"key":[`.
    private static func writeStrings<Value: RawRepresentable<String>>(
        _ opening: String, _ values: [Value], to writer: inout JSONWriter
    ) {
        guard !values.isEmpty else { return }
        writer.writeRaw(opening)
        for (index, value) in values.enumerated() {
            writer.writeRaw(index == 0 ? "\"" : ",\"")
            writer.writeRaw(value.rawValue)
            writer.writeRaw("\"")
        }
        writer.writeRaw("]")
    }

    static func writeArray(_ values: [String], to writer: inout JSONWriter) {
        writer.writeRaw("[")
        for (index, value) in values.enumerated() {
            if index > 0 { writer.writeRaw(",") }
            writer.writeString(value)
        }
        writer.writeRaw("]")
    }
}

extension ModifyHeaders.Operation {
    fileprivate var isSet: Bool {
        if case .set = self { return true }
        return false
    }
}
