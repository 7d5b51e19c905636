import ContentRuleList
import TrackerDataKit

/// The WebKit rules for one tracker (or one CNAME-cloaked host), in an order that gives WebKit's
/// last-match-wins evaluation the resolver's first-match-wins meaning.
///
/// WebKit applies every matching rule in list order and an `ignore-previous-rules` cancels what
/// came before it; Tracker Radar takes the first matching rule. So the section is:
/// 1. the default block (if the tracker's default is block);
/// 2. the tracker's rules **in reverse order**, so that the earliest rule is evaluated last and wins.
///    A blocking rule becomes a block limited to its `options`, then an `ignore-previous-rules`
///    limited to `options ∩ exceptions`; an ignore rule becomes an `ignore-previous-rules` limited
///    to its `options`. A rule whose options do not match emits nothing that fires, so evaluation
///    falls through to the next rule, as in the resolver;
/// 3. one `ignore-previous-rules` for pages of the tracker's own entity (first party), last, since
///    in the resolver a first-party page wins over every rule. In lists of the entity's own, one
///    such exception ends the list for all its trackers, and the section names only what that
///    one leaves out (the tracker's own site, where WebKit may find it third party).
struct TrackerSection {
    var scope: HostScope
    var blocksByDefault: Bool
    var rules: [Tracker.Rule]
    /// The tracker's key in `trackers`, for the report's paths (`trackers["x.com"].rules[3]`).
    var trackerKey: String
    /// Pages that are first party to this tracker (its owner's sites), as a trigger condition;
    /// nil when there are none that WebKit does not already treat as first party.
    var firstPartyCondition: Condition?
    /// Whether the rules' parsed regexes are kept for a section that meets them again (a CNAME
    /// cloaking the tracker); kept for every tracker, they held a third of a large build's peak.
    var keepsRegexes = true
    /// Whether `build` says which input of the tracker each rule says (``Settings/recordsRuleSources``);
    /// otherwise `parts` is left as it is.
    var recordsParts = true

    /// Appends the section's rules to `output`, and which input of the tracker each says to
    /// `parts` (parallel to `output` on entry, and left alone unless ``recordsParts``), and reports what could not be expressed exactly.
    /// Appended in place: a section's own array was copied, rule by rule, into the list.
    func build(
        into output: inout [ContentRule], parts: inout [RuleSource.Part?], with settings: RuleListBuilder.Settings, report: inout BuildReport,
        regexes: inout [String: Result<[[TrackerRuleRegex.Node]], TrackerRuleRegex.ParseError>]
    ) {
        let loadTypes: [LoadType] = scope.blocksFirstPartyLoads ? [] : [.thirdParty]
        var hasBlock = false
        // True while every URL of the scope is blocked and nothing has cancelled it yet: a
        // further block then changes nothing and is left out.
        var isScopeBlocked = false
        // Blocks emitted since the last ignore rule (their places in `output`); repeating one
        // changes nothing. Few blocks are compared one by one (unequal url-filters differ at
        // once); past `hashingThreshold` their url-filters are hashed instead, and whole rules
        // are compared only when a url-filter repeats.
        let hashingThreshold = 16
        var blocksSinceIgnore: [Int] = []
        var blockFiltersSinceIgnore: Set<String> = []
        func isRepeatedBlock(_ rule: ContentRule) -> Bool {
            if blocksSinceIgnore.count < hashingThreshold {
                return isEmitted(rule)
            }
            if blockFiltersSinceIgnore.isEmpty {
                for index in blocksSinceIgnore { blockFiltersSinceIgnore.insert(output[index].trigger.urlFilter) }
            }
            if blockFiltersSinceIgnore.insert(rule.trigger.urlFilter).inserted { return false }
            return isEmitted(rule)
        }
        // Compared in place: reading `output[index]` copied the whole rule (all its strings and
        // arrays retained and released) for every comparison.
        func isEmitted(_ rule: ContentRule) -> Bool {
            output.withUnsafeBufferPointer { emitted in blocksSinceIgnore.contains { emitted[$0] == rule } }
        }
        // Consuming: the new rule moves into `output` rather than being copied (a retain and a
        // release of each of its strings and arrays).
        func append(_ rule: consuming ContentRule, part: RuleSource.Part) {
            if case .block = rule.action {
                guard !isScopeBlocked, !isRepeatedBlock(rule) else { return }
                blocksSinceIgnore.append(output.count)
                hasBlock = true
            } else {
                isScopeBlocked = false
                blocksSinceIgnore = []
                blockFiltersSinceIgnore = []
            }
            output.append(consume rule)
            if recordsParts { parts.append(part) }
        }
        if blocksByDefault {
            append(ContentRule(trigger: Trigger(urlFilter: scope.anchor, loadTypes: loadTypes), action: .block),
                   part: .defaultAction(tracker: trackerKey))
            isScopeBlocked = true
        }
        for index in rules.indices.reversed() {
            let rule = rules[index]
            // Read once: a parsed rule's pattern is made into a `String` each time it is read.
            let pattern = rule.rule
            let key = trackerKey
            func path() -> String { #"trackers["\#(key)"].rules[\#(index)]"# }
            let part = RuleSource.Part.rule(tracker: key, index: index, text: pattern)
            var action = Kind.block
            if let declared = rule.action {
                guard let kind = Self.kind(of: declared) else {
                    report.skippedRules.append(.init(path: path() + ".action", reason: "unsupported action \"\(declared.rawValue.excerpt())\""))
                    continue
                }
                action = kind
            }
            let filters: RuleURLFilters
            do {
                let expanded: Result<[[TrackerRuleRegex.Node]], TrackerRuleRegex.ParseError>
                if let cached = regexes[pattern] {
                    expanded = cached
                } else {
                    expanded = Result { () throws(TrackerRuleRegex.ParseError) in try TrackerRuleRegex(parsing: pattern).expanded() }
                    if keepsRegexes { regexes[pattern] = expanded }
                }
                filters = RuleURLFilters(expanded: try expanded.get(), scope: scope,
                                         includingMatchesAfterHost: settings.matchesRuleTextAfterHost)
            } catch {
                report.skippedRules.append(.init(path: path() + ".rule", reason: error.description))
                continue
            }
            for note in Set(filters.notes).sorted() {
                report.approximations.append(.init(path: path() + ".rule", reason: note))
            }
            guard let options = SiteAndTypeScope(rule.options, settings: settings, path: path() + ".options", report: &report) else {
                continue // options that can never match: the rule never applies
            }
            switch action {
            case .block:
                for filter in filters.filters {
                    append(options.rule(urlFilter: filter, loadTypes: loadTypes, action: .block, settings: settings), part: part)
                }
                // An `exceptions` object with neither list is no exception at all.
                if let exceptions = rule.exceptions, !exceptions.isEmpty {
                    guard let excepted = SiteAndTypeScope(exceptions, settings: settings, path: path() + ".exceptions", report: &report),
                          let both = options.intersection(excepted)
                    else { continue }
                    for filter in filters.filters {
                        append(both.rule(urlFilter: filter, loadTypes: [], action: .ignorePreviousRules, settings: settings), part: part)
                    }
                }
            case .ignore:
                guard hasBlock else { continue } // nothing before it in this section to cancel
                for filter in filters.filters {
                    append(options.rule(urlFilter: filter, loadTypes: [], action: .ignorePreviousRules, settings: settings), part: part)
                }
            }
        }
        if hasBlock, let firstPartyCondition {
            append(ContentRule(trigger: Trigger(urlFilter: scope.anchor, condition: firstPartyCondition), action: .ignorePreviousRules),
                   part: .firstPartyException(tracker: trackerKey))
        }
    }

    private enum Kind { case block, ignore }

    private static func kind(of action: Tracker.Rule.Action) -> Kind? {
        switch action {
        case .block, .blockClickToLoad: .block
        case .ignore: .ignore
        case .unsupported: nil
        }
    }
}
