import TrackerlessCore

// One rule with its patterns parsed: what both the validator (regex errors) and the reference
// evaluator need.

/// One rule ready to be matched: its url-filter, flags and condition patterns parsed.
struct CompiledRule: Sendable {
    /// A condition with its patterns parsed.
    struct CompiledCondition: Sendable {
        /// A condition entry: a parsed pattern, or a plain domain matched without a regex.
        enum Matcher: Sendable {
            case filter(URLFilter)
            case domain(DomainMatcher)
            /// An `if-domain` entry as WebKit before 2022 matches it: the main document's host is
            /// the domain, or (with a leading `*`) the domain or a subdomain of it.
            case host(String, includingSubdomains: Bool)

            /// Whether the entry matches `url`; `url`'s host is parsed at most once for all
            /// entries of a condition: `parsedHost` is nil until a `.host` entry needs it, then the
            /// host (or nil for a URL without one). A list's `.*` rule naming hundreds of domains
            /// would otherwise parse the URL once per domain on every load.
            func matches(_ url: String, parsedHost: inout String??) -> Bool {
                switch self {
                case .filter(let filter): return filter.matchesEverything || filter.matches(url)
                case .domain(let domain): return domain.matches(url)
                case .host(let domain, let includingSubdomains):
                    if parsedHost == nil { parsedHost = .some(CanonicalURL(url)?.host) }
                    guard let host = parsedHost ?? nil else { return false }
                    return includingSubdomains ? DomainName.host(host, isWithin: domain) : host == domain
                }
            }
        }

        var matchers: [Matcher]
        /// `if-` (at least one must match) or `unless-` (none may match).
        var isPositive: Bool
        /// Matched against the frame URL rather than the main document URL.
        var isOnFrameURL: Bool
        /// WebKit quirk: a trigger with both a request method and a condition never sees its
        /// condition patterns match, because the condition automata run with every method bit set
        /// and methods are compared for equality.
        var patternsNeverMatch: Bool
    }

    var urlFilter: URLFilter
    var flags: ResourceFlags
    var condition: CompiledCondition?

    init(
        _ rule: ContentRule, cache: inout URLFilterCache, domainConditions: WebKitTarget.DomainConditionRule = .topURLRegex
    ) throws(RegexFailure) {
        let trigger = rule.trigger
        do {
            urlFilter = try cache.filter(trigger.urlFilter, isCaseSensitive: trigger.urlFilterIsCaseSensitive)
        } catch {
            throw RegexFailure(urlFilter: trigger.urlFilter, error)
        }
        flags = trigger.flags
        guard let condition = trigger.condition else {
            self.condition = nil
            return
        }
        let isCaseSensitive =
            condition.isOnFrameURL ? trigger.frameURLFilterIsCaseSensitive : trigger.topURLFilterIsCaseSensitive
        var matchers: [CompiledCondition.Matcher] = []
        matchers.reserveCapacity(condition.values.count)
        let isDomainList = condition.isDomainList
        for value in condition.values {
            if isDomainList, domainConditions == .host {
                let includingSubdomains = value.hasPrefix("*")
                matchers.append(.host(String(value.dropFirst(includingSubdomains ? 1 : 0)), includingSubdomains: includingSubdomains))
                continue
            }
            if isDomainList, let domain = DomainMatcher(value, isCaseSensitive: isCaseSensitive) {
                matchers.append(.domain(domain))
                continue
            }
            let pattern = isDomainList ? Condition.topURLPattern(forDomain: value) : value
            do {
                matchers.append(.filter(try cache.filter(pattern, isCaseSensitive: isCaseSensitive)))
            } catch {
                throw RegexFailure(condition: condition, value: value, pattern: pattern, error)
            }
        }
        self.condition = CompiledCondition(
            matchers: matchers, isPositive: condition.isPositive, isOnFrameURL: condition.isOnFrameURL,
            patternsNeverMatch: trigger.requestMethod != nil)
    }

    /// Checks every pattern of a trigger as WebKit's compiler does, without building matchers.
    static func validatePatterns(of trigger: Trigger, validated: inout Set<PatternKey>) throws(RegexFailure) {
        var noSkeletons: KnownSkeletons?
        try validatePatterns(of: trigger, validated: &validated, skeletons: &noSkeletons)
    }

    /// ``validatePatterns(of:validated:)``; with `skeletons` (the skeletons found valid so far), a
    /// pattern whose ``URLFilterParser/skeleton(of:)`` parses is valid without being parsed itself:
    /// the url-filters of a built list differ mostly in their domains, and share a few skeletons.
    /// A pattern whose skeleton fails is parsed itself, for the error.
    static func validatePatterns(
        of trigger: Trigger, validated: inout Set<PatternKey>, skeletons: inout KnownSkeletons?
    ) throws(RegexFailure) {
        try validateURLFilter(
            trigger.urlFilter, isCaseSensitive: trigger.urlFilterIsCaseSensitive, validated: &validated, skeletons: &skeletons)
        guard let condition = trigger.condition else { return }
        let isCaseSensitive =
            condition.isOnFrameURL ? trigger.frameURLFilterIsCaseSensitive : trigger.topURLFilterIsCaseSensitive
        let isDomainList = condition.isDomainList
        for value in condition.values {
            if isDomainList && DomainMatcher.isPlain(value) { continue }
            let pattern = isDomainList ? Condition.topURLPattern(forDomain: value) : value
            do {
                try validatePattern(pattern, isCaseSensitive: isCaseSensitive, validated: &validated, skeletons: &skeletons)
            } catch {
                throw RegexFailure(condition: condition, value: value, pattern: pattern, error)
            }
        }
    }

    /// The url-filter part of ``validatePatterns(of:validated:skeletons:)``,
    /// for a caller that holds the rule in place and need not copy its trigger.
    static func validateURLFilter(
        _ urlFilter: String, isCaseSensitive: Bool, validated: inout Set<PatternKey>, skeletons: inout KnownSkeletons?
    ) throws(RegexFailure) {
        do {
            try validatePattern(urlFilter, isCaseSensitive: isCaseSensitive, validated: &validated, skeletons: &skeletons)
        } catch {
            throw RegexFailure(urlFilter: urlFilter, error)
        }
    }

    /// One pattern: valid by its skeleton, or known valid, or parsed now (then known).
    private static func validatePattern(
        _ pattern: String, isCaseSensitive: Bool, validated: inout Set<PatternKey>, skeletons: inout KnownSkeletons?
    ) throws(URLFilterError) {
        // A skeleton known valid settles the pattern without hashing the pattern itself.
        if skeletons?.admits(pattern, isCaseSensitive: isCaseSensitive) == true { return }
        let key = PatternKey(pattern: pattern, isCaseSensitive: isCaseSensitive)
        guard !validated.contains(key) else { return }
        _ = try URLFilterParser.parse(pattern, isCaseSensitive: isCaseSensitive)
        validated.insert(key)
    }

    /// Whether the condition holds for a load with these top and frame URLs (true without one).
    func conditionHolds(topURL: String, frameURL: String) -> Bool {
        guard let condition else { return true }
        var anyMatches = false
        if !condition.patternsNeverMatch {
            let url = condition.isOnFrameURL ? frameURL : topURL
            var host: String??
            anyMatches = condition.matchers.contains { $0.matches(url, parsedHost: &host) }
        }
        return anyMatches == condition.isPositive
    }
}
