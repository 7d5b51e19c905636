import ContentRuleList

/// Why a build made no lists: the configuration's rules, which end every list, cannot fit
/// beside the trackers' rules, or only in lists that repeat them far more than they hold; or a
/// part that no split makes smaller is more JSON than a list's byte budget.
///
/// An `ignore-previous-rules` exception acts only within its own list, so every list repeats the
/// configuration's rules (its tracker allowlist, unprotected and user-allowlisted sites). The
/// builder refuses before it makes any list when that repetition cannot fit
/// (``configurationFillsList(parts:trackerRules:maximum:)``) or would grow faster than the
/// inputs (``configurationRepeatedTooOften(parts:trackerRules:listCount:maximum:)``).
/// ``RuleListBuild/refusal`` holds it; its description names the parts, largest first, with
/// their counts.
public enum RuleListBuildError: Error, Sendable, Hashable, CustomStringConvertible {
    /// One part of the configuration and the rules it adds to the end of every list.
    public struct Part: Sendable, Hashable, CustomStringConvertible {
        /// The part's JSON path (`features.trackerAllowlist.settings.allowlistedTrackers`) or name.
        public var path: String
        /// Its rules in each list.
        public var ruleCount: Int

        /// A part with its count.
        public init(path: String, ruleCount: Int) {
            self.path = path
            self.ruleCount = ruleCount
        }

        /// "path: N rules"
        public var description: String { "\(path): \(ruleCount) rule\(ruleCount == 1 ? "" : "s")" }
    }

    /// With the configuration's rules (`parts`), a list of at most `maximum` rules has no room
    /// for one tracker's `trackerRules` rules, the longest section, which must stay whole
    /// (`trackerRules` 0: the configuration's rules alone are more than a list holds).
    case configurationFillsList(parts: [Part], trackerRules: Int, maximum: Int)
    /// The trackers' `trackerRules` rules need `listCount` lists of at most `maximum` rules
    /// beside the configuration's rules (`parts`), and the repeated configuration would be more
    /// than the trackers' rules and one more list together.
    case configurationRepeatedTooOften(parts: [Part], trackerRules: Int, listCount: Int, maximum: Int)
    /// A part no split can make smaller (`part`: one tracker's section with the rules that end
    /// each list, or those rules alone) takes `byteCount` bytes of JSON in `list`, more than its
    /// `budget` (``RuleListBuilder/Settings/byteBudget``).
    case partExceedsByteBudget(list: String, part: String, byteCount: Int, budget: Int)

    /// The configuration's parts, largest first.
    public var parts: [Part] {
        switch self {
        case .configurationFillsList(let parts, _, _), .configurationRepeatedTooOften(let parts, _, _, _): parts
        case .partExceedsByteBudget: []
        }
    }

    /// The configuration's rules at the end of every list.
    public var configurationRuleCount: Int { parts.reduce(0) { $0 + $1.ruleCount } }

    public var description: String {
        if case .partExceedsByteBudget(let list, let part, let byteCount, let budget) = self {
            return "the \(list): \(part) takes \(byteCount) bytes of JSON in one list, more than its budget of \(budget) bytes; "
                + "a split cannot make it smaller, since an exception acts only within its list. "
                + "No list was built: raise the budget (maximumBytesPerList) or make that part smaller"
        }
        let count = configurationRuleCount
        let named = parts.prefix(3).map(\.description).joined(separator: ", ")
            + (parts.count > 3 ? " and \(parts.count - 3) more part\(parts.count == 4 ? "" : "s")" : "")
        let repeated = "the configuration's \(count) rules (\(named)) end every list, since an exception acts only within its list"
        switch self {
        case .configurationFillsList(_, let trackerRules, let maximum):
            let room = trackerRules == 0 ? "more than a list holds (\(maximum) rules)"
                : "with at most \(maximum) rules a list, that leaves no room for a tracker's \(trackerRules) rules"
            return "\(repeated); \(room). No list was built: make the largest part smaller"
        case .partExceedsByteBudget:
            return ""
        case .configurationRepeatedTooOften(_, let trackerRules, let listCount, let maximum):
            return "\(repeated); with at most \(maximum) rules a list, the trackers' \(trackerRules) rules would need \(listCount) lists "
                + "repeating them \(listCount * count) times, more than the trackers' rules and one list together. "
                + "No list was built: make the largest part smaller"
        }
    }

    /// The parts of a configuration tail: each rule's origin cut at its first key or detail
    /// (`…allowlistedTrackers["x.com"].rules[3]` → `…allowlistedTrackers`,
    /// `…excludedCookieDomains (x.com)` → `…excludedCookieDomains`), counted, largest first.
    static func parts(of origins: [RuleListBuilder.Origin]) -> [Part] {
        var counts: [String: Int] = [:]
        for origin in origins {
            let path = origin.path
            // Up to a `[` or a detail in brackets (` (x.com)`); a description (`the user
            // allowlist`) is whole.
            let bracket = path.firstIndex(of: "[") ?? path.endIndex
            let detail = path.range(of: " (")?.lowerBound ?? path.endIndex
            counts[String(path[..<min(bracket, detail)]), default: 0] += 1
        }
        return counts.map { Part(path: $0.key, ruleCount: $0.value) }
            .sorted { ($0.ruleCount, $1.path) > ($1.ruleCount, $0.path) }
    }
}
