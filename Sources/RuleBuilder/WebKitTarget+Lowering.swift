import ContentRuleList

// The last stage before a list is split: rules that name what the target does not know are
// said again in its words, or left out with a note where it cannot say them.

extension WebKitTarget {
    /// The rules that say `rule` in this target's words, or nil when it says it already.
    ///
    /// - `top-document` / `child-document` (Safari 26, WebKitGTK 2.50) become `document` limited
    ///   by `load-context` (`top-frame` / `child-frame`): WebKit gives a navigation the context
    ///   of the frame it navigates, so the two say the same loads.
    /// - a type the target cannot name at all (`csp-report` before Safari 17) is left out; a rule
    ///   with no type left is left out too (empty: it applied to nothing the target can name).
    /// - where the target's lists are spelled case-sensitively (``CaseSensitiveSpelling``), its
    ///   patterns are.
    func lowered(_ rule: ContentRule) -> [ContentRule]? {
        guard CaseSensitiveSpelling.isUsed(for: self) else { return loweredTypes(rule) }
        guard let typed = loweredTypes(rule) else { return CaseSensitiveSpelling.spelled(rule).map { [$0] } }
        return typed.map { CaseSensitiveSpelling.spelled($0) ?? $0 }
    }

    /// The rules that say `rule`'s resource types in this target's words, or nil when it does.
    private func loweredTypes(_ rule: ContentRule) -> [ContentRule]? {
        let types = rule.trigger.resourceTypes
        guard types.contains(where: { !supports($0) }) else { return nil }
        var known = types.filter { supports($0) }
        let top = types.contains(.topDocument) && !supports(.topDocument)
        let child = types.contains(.childDocument) && !supports(.childDocument)
        var rules: [ContentRule] = []
        if top && child, !known.contains(.document) { known.append(.document) }
        if !known.isEmpty {
            var plain = rule
            plain.trigger.resourceTypes = known
            rules.append(plain)
        }
        if top != child, !known.contains(.document) {
            let context: LoadContext = top ? .topFrame : .childFrame
            if rule.trigger.loadContexts.isEmpty || rule.trigger.loadContexts.contains(context) {
                var document = rule
                document.trigger.resourceTypes = [.document]
                document.trigger.loadContexts = [context]
                rules.append(document)
            }
        }
        return rules
    }

    /// The types of `rule` this target cannot name in any way, for the report.
    private func unsayable(_ rule: ContentRule) -> [ResourceType] {
        rule.trigger.resourceTypes.filter { type in
            guard !supports(type) else { return false }
            switch type {
            case .topDocument, .childDocument: return !supports(.document)
            default: return true
            }
        }
    }

    /// Lowers every rule of the sections in place, keeping each section's end, and notes what
    /// the target cannot say with the section's input.
    func lower(_ sections: inout RuleListBuilder.Sections, report: inout BuildReport) {
        // Sections packed as they ended were lowered then.
        guard sections.packing == nil else {
            report.approximations += sections.packing?.approximations ?? []
            return
        }
        // The exact count first: an array that outgrows its capacity is copied into one twice
        // as large, which beside the sections' own rules made this the build's peak.
        var count = 0, isLowered = false
        for rule in sections.rules {
            guard let replacement = lowered(rule) else { count += 1; continue }
            count += replacement.count
            isLowered = true
        }
        guard isLowered else { return }
        var rules: [ContentRule] = []
        rules.reserveCapacity(count)
        let recordsParts = sections.recordsParts
        var parts: [RuleSource.Part?] = []
        if recordsParts { parts.reserveCapacity(rules.capacity) }
        sections.alignParts()
        var ends: [Int] = []
        var start = 0
        for (end, origin) in zip(sections.ends, sections.origins) {
            for index in start..<end {
                let rule = sections.rules[index]
                guard let replacement = lowered(rule) else {
                    rules.append(rule)
                    if recordsParts { parts.append(sections.parts[index]) }
                    continue
                }
                note(rule, origin: origin, report: &report)
                rules += replacement
                if recordsParts { parts += repeatElement(sections.parts[index], count: replacement.count) }
            }
            start = end
            ends.append(rules.count)
        }
        // Rules after the last end (none once every section is closed) are kept as they are.
        rules += sections.rules[start...]
        if recordsParts { parts += sections.parts[start...] }
        // A section whose every rule was left out is closed by its predecessor's end; drop
        // empty sections so that every section keeps at least one rule.
        var keptEnds: [Int] = []
        var keptOrigins: [RuleListBuilder.Origin] = []
        var previous = 0
        for (end, origin) in zip(ends, sections.origins) where end > previous {
            keptEnds.append(end)
            keptOrigins.append(origin)
            previous = end
        }
        sections.rules = rules
        sections.parts = parts
        sections.ends = keptEnds
        sections.origins = keptOrigins
    }

    /// Lowers rules that carry one origin each (the configuration's tail).
    func lower(_ rules: inout [ContentRule], origins: inout [RuleListBuilder.Origin], report: inout BuildReport) {
        guard rules.contains(where: { lowered($0) != nil }) else { return }
        var newRules: [ContentRule] = []
        var newOrigins: [RuleListBuilder.Origin] = []
        for (rule, origin) in zip(rules, origins) {
            let replacement = lowered(rule) ?? [rule]
            if replacement != [rule] { note(rule, origin: origin, report: &report) }
            newRules += replacement
            newOrigins += replacement.map { _ in origin }
        }
        rules = newRules
        origins = newOrigins
    }

    /// The rules of one section, from `start` to the end of `rules` (with their `parts` where
    /// `recordsParts`), lowered as ``lower(_:report:)`` lowers them, as the section ends.
    func lower(
        sectionAt start: Int, of rules: inout [ContentRule], parts: inout [RuleSource.Part?], recordsParts: Bool,
        origin: RuleListBuilder.Origin, approximations: inout [BuildReport.Note]
    ) {
        // One pass: the section is copied from its first rule said otherwise on, if any (each
        // rule is lowered once; the spelling of a pattern is not cheap).
        var section: [ContentRule]?
        var sectionParts: [RuleSource.Part?] = []
        for index in start..<rules.count {
            let rule = rules[index]
            guard let replacement = lowered(rule) else {
                section?.append(rule)
                if recordsParts && section != nil { sectionParts.append(parts[index]) }
                continue
            }
            if section == nil {
                section = Array(rules[start..<index])
                if recordsParts { sectionParts = Array(parts[start..<index]) }
            }
            note(rule, origin: origin, approximations: &approximations)
            section? += replacement
            if recordsParts { sectionParts += repeatElement(parts[index], count: replacement.count) }
        }
        guard let section else { return }
        rules.replaceSubrange(start..., with: section)
        if recordsParts { parts.replaceSubrange(start..., with: sectionParts) }
    }

    private func note(_ rule: ContentRule, origin: RuleListBuilder.Origin, report: inout BuildReport) {
        note(rule, origin: origin, approximations: &report.approximations)
    }

    private func note(_ rule: ContentRule, origin: RuleListBuilder.Origin, approximations: inout [BuildReport.Note]) {
        let lost = unsayable(rule)
        guard !lost.isEmpty else { return }
        let names = lost.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
        approximations.append(.init(
            path: origin.path,
            reason: "\(displayName) cannot name the resource type \(names): the rule leaves those loads out"))
    }
}
