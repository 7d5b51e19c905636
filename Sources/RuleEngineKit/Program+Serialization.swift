import ContentRuleList

// The program's tables in the compiled file, in a fixed order. Reading checks every stored
// index against the table it points into.

extension Program {
    func write(to writer: inout CompiledWriter) {
        writer.write(UInt64(actions.count))
        for action in actions { Self.write(action, to: &writer) }
        writer.write(listLocationStarts)
        writer.write(universalLocations)
        writer.write(universalRuleIndices)
        writer.write(UInt64(globalStyleSheets.count))
        for sheet in globalStyleSheets {
            writer.write(UInt64(sheet.count))
            for selector in sheet { writer.write(selector) }
        }
        writer.write(ruleCounts)
        writer.write(rules.map(\.flags))
        writer.write(rules.map(\.location))
        writer.write(rules.map(\.condition))
        writer.write(rules.map(\.conditionMode.rawValue))
        writer.write(rules.map(\.matcher))
        writer.write(ruleIndices)
        writer.write(UInt64(matchers.count))
        for matcher in matchers {
            switch matcher {
            case .automaton(let filter):
                writer.write(UInt8(0))
                writer.write(filter.pattern)
                writer.write(filter.isCaseSensitive)
            case .path(let literal, let allowsPort, let isAnchoredAtEnd):
                writer.write(UInt8(1))
                writer.write(literal)
                writer.write(allowsPort)
                writer.write(isAnchoredAtEnd)
            }
        }
        Self.write(hosts, to: &writer)
        writer.write(grams.bitmap)
        writer.write(grams.grams)
        writer.write(grams.valueOffsets)
        writer.write(grams.values)
        writer.write(alwaysChecked)
        writer.write(pageRules)
        writer.write(UInt64(conditionCount))
        for table in [topURLHosts, frameURLHosts, domains, subdomainDomains] { Self.write(table, to: &writer) }
        writer.write(UInt64(conditionPatterns.count))
        for pattern in conditionPatterns {
            writer.write(pattern.filter.pattern)
            writer.write(pattern.filter.isCaseSensitive)
            writer.write(pattern.condition)
            writer.write(pattern.isOnFrameURL)
        }
        writer.write(alwaysMatchedConditions)
    }

    static func read(from reader: inout CompiledReader) throws(CompiledEngineError) -> Program {
        let actionCount = try count(&reader, "actions")
        var actions: [Action] = []
        for _ in 0..<actionCount { actions.append(try readAction(&reader)) }
        let listLocationStarts: [UInt32] = try reader.readArray("list starts")
        let universalLocations: [UInt32] = try reader.readArray("universal actions")
        let universalRuleIndices: [UInt32] = try reader.readArray("universal rule indices")
        let sheetCount = try count(&reader, "style sheets")
        var globalStyleSheets: [[String]] = []
        for _ in 0..<sheetCount {
            let selectorCount = try count(&reader, "style sheet")
            var sheet: [String] = []
            for _ in 0..<selectorCount { sheet.append(try reader.readString("selector")) }
            globalStyleSheets.append(sheet)
        }
        let ruleCounts: [UInt32] = try reader.readArray("rule counts")
        let flags: [UInt32] = try reader.readArray("rule flags")
        let locations: [UInt32] = try reader.readArray("rule locations")
        let conditions: [UInt32] = try reader.readArray("rule conditions")
        let modes: [UInt8] = try reader.readArray("rule condition modes")
        let matcherIndices: [Int32] = try reader.readArray("rule matchers")
        let ruleIndices: [UInt32] = try reader.readArray("rule indices")
        let ruleCount = flags.count
        guard locations.count == ruleCount, conditions.count == ruleCount, modes.count == ruleCount,
            matcherIndices.count == ruleCount, ruleIndices.count == ruleCount
        else { throw CompiledEngineError(.corrupt, detail: "rule tables of different lengths") }
        var rules: [RuleRecord] = []
        rules.reserveCapacity(ruleCount)
        for index in 0..<ruleCount {
            guard let mode = ConditionMode(rawValue: modes[index]) else {
                throw CompiledEngineError(.corrupt, detail: "condition mode of rule \(index)")
            }
            rules.append(RuleRecord(
                flags: flags[index], location: locations[index], condition: conditions[index], conditionMode: mode,
                matcher: matcherIndices[index]))
        }
        let matcherCount = try count(&reader, "matchers")
        var matchers: [RuleMatcher] = []
        for _ in 0..<matcherCount {
            let kind: UInt8 = try reader.read("matcher kind")
            switch kind {
            case 0:
                matchers.append(.automaton(try readFilter(&reader)))
            case 1:
                let literal: [UInt8] = try reader.readArray("path literal")
                let allowsPort = try reader.readBool("path port")
                let isAnchoredAtEnd = try reader.readBool("path end")
                matchers.append(.path(literal: literal, allowsPort: allowsPort, isAnchoredAtEnd: isAnchoredAtEnd))
            default:
                throw CompiledEngineError(.corrupt, detail: "matcher kind \(kind)")
            }
        }
        let hosts = try readTable(&reader, "hosts")
        let grams = GramTable(
            bitmap: try reader.readArray("gram bitmap"), grams: try reader.readArray("grams"),
            valueOffsets: try reader.readArray("gram offsets"), values: try reader.readArray("gram rules"))
        let alwaysChecked: [UInt32] = try reader.readArray("rules checked on every load")
        let pageRules: [UInt32] = try reader.readArray("page rules")
        let conditionCount = try count(&reader, "conditions")
        // No bytes back this count, and tables are sized by it: every condition belongs to at
        // least one rule, so more conditions than rules is damage.
        guard conditionCount <= ruleCount else {
            throw CompiledEngineError(.corrupt, detail: "conditions: \(conditionCount) for \(ruleCount) rules")
        }
        let topURLHosts = try readTable(&reader, "top URL hosts")
        let frameURLHosts = try readTable(&reader, "frame URL hosts")
        let domains = try readTable(&reader, "domains")
        let subdomainDomains = try readTable(&reader, "subdomain domains")
        let patternCount = try count(&reader, "condition patterns")
        var conditionPatterns: [ConditionPattern] = []
        for _ in 0..<patternCount {
            let filter = try readFilter(&reader)
            let condition: UInt32 = try reader.read("pattern condition")
            let isOnFrameURL = try reader.readBool("pattern frame flag")
            conditionPatterns.append(ConditionPattern(filter: filter, condition: condition, isOnFrameURL: isOnFrameURL))
        }
        let alwaysMatchedConditions: [UInt32] = try reader.readArray("conditions matching everything")
        guard reader.isAtEnd else { throw CompiledEngineError(.corrupt, detail: "data after the tables at byte \(reader.offset)") }

        // Every index must point inside its table.
        func check(_ isValid: Bool, _ what: String) throws(CompiledEngineError) {
            if !isValid { throw CompiledEngineError(.corrupt, detail: what) }
        }
        let actionTotal = UInt32(actions.count)
        try check(!listLocationStarts.isEmpty && listLocationStarts.last == actionTotal, "list starts")
        try check(zip(listLocationStarts, listLocationStarts.dropFirst()).allSatisfy { $0 <= $1 }, "list starts")
        try check(globalStyleSheets.count == listLocationStarts.count - 1, "style sheets")
        try check(ruleCounts.count == listLocationStarts.count - 1, "rule counts")
        // A rule's index must lie inside the list its location belongs to.
        func listRuleCount(ofLocation location: UInt32) -> UInt32 {
            guard let list = listLocationStarts.dropFirst().firstIndex(where: { location < $0 }) else { return 0 }
            return ruleCounts[list - 1]
        }
        try check(universalRuleIndices.count == universalLocations.count, "universal rule indices")
        try check(
            zip(universalLocations, universalRuleIndices).allSatisfy { $1 < listRuleCount(ofLocation: $0) },
            "universal rule indices")
        try check(universalLocations.allSatisfy { $0 < actionTotal }, "universal actions")
        try check(rules.allSatisfy { $0.location < actionTotal }, "rule locations")
        try check(
            zip(rules, ruleIndices).allSatisfy { $1 < listRuleCount(ofLocation: $0.location) }, "rule indices")
        try check(rules.allSatisfy { $0.conditionMode == .none || Int($0.condition) < conditionCount }, "rule conditions")
        try check(
            rules.allSatisfy {
                $0.matcher == RuleRecord.matchesEverything || $0.matcher == RuleRecord.separatorAfterHost
                    || ($0.matcher >= 0 && Int($0.matcher) < matchers.count)
            }, "rule matchers")
        try check(hosts.validate() && hosts.values.allSatisfy { Int($0 >> 4) < ruleCount }, "host table")
        try check(grams.validate() && grams.values.allSatisfy { Int($0) < ruleCount }, "gram table")
        try check(alwaysChecked.allSatisfy { Int($0) < ruleCount }, "rules checked on every load")
        try check(pageRules.allSatisfy { Int($0) < ruleCount }, "page rules")
        for table in [topURLHosts, frameURLHosts] {
            try check(table.validate() && table.values.allSatisfy { Int($0 >> 4) < conditionCount }, "condition tables")
        }
        for table in [domains, subdomainDomains] {
            try check(table.validate() && table.values.allSatisfy { Int($0 >> 1) < conditionCount }, "condition tables")
        }
        try check(conditionPatterns.allSatisfy { Int($0.condition) < conditionCount }, "condition patterns")
        try check(alwaysMatchedConditions.allSatisfy { Int($0) < conditionCount }, "conditions matching everything")

        return Program(
            actions: actions, listLocationStarts: listLocationStarts, universalLocations: universalLocations,
            universalRuleIndices: universalRuleIndices, globalStyleSheets: globalStyleSheets, ruleCounts: ruleCounts,
            rules: rules, ruleIndices: ruleIndices, matchers: matchers, hosts: hosts, grams: grams,
            alwaysChecked: alwaysChecked, pageRules: pageRules, conditionCount: conditionCount, topURLHosts: topURLHosts,
            frameURLHosts: frameURLHosts, domains: domains, subdomainDomains: subdomainDomains,
            conditionPatterns: conditionPatterns, alwaysMatchedConditions: alwaysMatchedConditions)
    }

    private static func count(_ reader: inout CompiledReader, _ what: String) throws(CompiledEngineError) -> Int {
        let count: UInt64 = try reader.read(what)
        // Every counted item takes at least one byte, so a larger count cannot be right.
        guard count <= UInt64(Int32.max) else { throw CompiledEngineError(.corrupt, detail: "\(what): count \(count)") }
        return Int(count)
    }

    private static func write(_ table: SuffixTable, to writer: inout CompiledWriter) {
        writer.write(table.slots)
        writer.write(table.hashes)
        writer.write(table.keyOffsets)
        writer.write(table.keyBytes)
        writer.write(table.valueOffsets)
        writer.write(table.values)
    }

    private static func readTable(_ reader: inout CompiledReader, _ what: String) throws(CompiledEngineError) -> SuffixTable {
        SuffixTable(
            slots: try reader.readArray(what), hashes: try reader.readArray(what),
            keyOffsets: try reader.readArray(what), keyBytes: try reader.readArray(what),
            valueOffsets: try reader.readArray(what), values: try reader.readArray(what))
    }

    private static func readFilter(_ reader: inout CompiledReader) throws(CompiledEngineError) -> URLFilter {
        let pattern = try reader.readString("pattern")
        let isCaseSensitive = try reader.readBool("pattern case flag")
        do {
            return try URLFilter(parsing: pattern, isCaseSensitive: isCaseSensitive)
        } catch {
            throw CompiledEngineError(.corrupt, detail: "pattern \(pattern): \(error)")
        }
    }

    /// Actions: a kind byte, then the string of css-display-none and notify; redirect and
    /// modify-headers, which carry structured values, as the JSON of a one-rule list.
    private static func write(_ action: Action, to writer: inout CompiledWriter) {
        let kind = ActionKind(action)
        writer.write(kind.rawValue)
        switch action {
        case .cssDisplayNone(let selector): writer.write(selector)
        case .notify(let notification): writer.write(notification)
        case .redirect, .modifyHeaders:
            writer.write(RuleList([ContentRule(trigger: Trigger(urlFilter: ".*"), action: action)]).encoded())
        default: break
        }
    }

    private static func readAction(_ reader: inout CompiledReader) throws(CompiledEngineError) -> Action {
        let raw: UInt8 = try reader.read("action kind")
        guard let kind = ActionKind(rawValue: raw) else { throw CompiledEngineError(.corrupt, detail: "action kind \(raw)") }
        switch kind {
        case .block: return .block
        case .blockCookies: return .blockCookies
        case .ignorePreviousRules: return .ignorePreviousRules
        case .ignoreFollowingRules: return .ignoreFollowingRules
        case .makeHTTPS: return .makeHTTPS
        case .cssDisplayNone: return .cssDisplayNone(selector: try reader.readString("selector"))
        case .notify: return .notify(try reader.readString("notification"))
        case .redirect, .modifyHeaders:
            let json: [UInt8] = try reader.readArray("action")
            guard let list = try? RuleList(parsing: json), let action = list.rules.first?.action else {
                throw CompiledEngineError(.corrupt, detail: "action")
            }
            return action
        }
    }
}
