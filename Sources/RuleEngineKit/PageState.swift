import ContentRuleList
import TrackerlessCore

// What depends only on the page: the main document's registrable domain (for the third-party
// test) and whether each condition's patterns match the top URL or the frame URL. Computed once
// per page and frame, then reused for every load they make.

/// The page-dependent inputs of an evaluation.
///
/// Conditions that tables answer are evaluated when the page is first seen; conditions with
/// patterns only an automaton answers are evaluated the first time a load needs one, and the
/// answer is kept for the page's later loads.
struct PageState: Sendable {
    /// The main document's registrable domain (or its host when it has none), lowercase ASCII;
    /// empty when the top URL has no host.
    var site: [UInt8]
    /// One bit per condition: whether one of its patterns matched the URL it reads.
    var conditionBits: [UInt64]
    /// Conditions whose automaton patterns have not run yet.
    var pendingBits: [UInt64]
    /// The page rules (``Program/pageRules``) whose condition holds on this page.
    var rules: [UInt32] = []
    /// The canonical top URL and frame URL, for the automaton patterns.
    let topURL: String
    let frameURL: String

    init(
        program: Program, topURL: String, frameURL: String, topHost: String, publicSuffixList: PublicSuffixList,
        comparesHostsUnderUnlistedSuffixes: Bool = false
    ) {
        if topHost.isEmpty {
            site = []
        } else if comparesHostsUnderUnlistedSuffixes && !publicSuffixList.listsTopLevelDomain(of: topHost) {
            site = Array(topHost.utf8)
        } else {
            site = Array((publicSuffixList.registrableDomain(of: topHost) ?? topHost).utf8)
        }
        conditionBits = [UInt64](repeating: 0, count: (program.conditionCount + 63) / 64)
        pendingBits = program.lazyConditionBits
        self.topURL = topURL
        self.frameURL = frameURL
        guard program.conditionCount > 0 else { return }
        for condition in program.alwaysMatchedConditions { set(condition) }
        var top = topURL
        top.withUTF8 { url in
            matchHosts(program.frozenTopURLHosts, in: url)
            if !program.domains.isEmpty || !program.subdomainDomains.isEmpty { matchDomains(program, in: url) }
        }
        if program.hasFrameConditions {
            var frame = frameURL
            frame.withUTF8 { matchHosts(program.frozenFrameURLHosts, in: $0) }
        }
        for ruleIndex in program.pageRules {
            let rule = program.rules[Int(ruleIndex)]
            let word = Int(rule.condition >> 6), bit: UInt64 = 1 << UInt64(rule.condition & 63)
            if (conditionBits[word] & bit != 0) == (rule.conditionMode == .ifAny) { rules.append(ruleIndex) }
        }
    }

    /// Whether one of the condition's patterns matches the page (top or frame URL).
    @inline(__always)
    mutating func matches(_ condition: UInt32, _ program: Program) -> Bool {
        let word = Int(condition >> 6), bit: UInt64 = 1 << UInt64(condition & 63)
        if conditionBits[word] & bit != 0 { return true }
        guard pendingBits[word] & bit != 0 else { return false }
        pendingBits[word] &= ~bit
        let start = Int(program.patternOffsets[Int(condition)]), end = Int(program.patternOffsets[Int(condition) + 1])
        for index in program.patternsByCondition[start..<end] {
            let pattern = program.conditionPatterns[Int(index)]
            if pattern.filter.matches(pattern.isOnFrameURL ? frameURL : topURL) {
                conditionBits[word] |= bit
                return true
            }
        }
        return false
    }

    private mutating func set(_ condition: UInt32) {
        conditionBits[Int(condition >> 6)] |= 1 << UInt64(condition & 63)
    }

    /// Host-anchored condition patterns (`^[^:]+://+([^/]+[.@])?site[:/]`): a segment of the
    /// URL's authority ends with the site where the pattern allows it, and a `:` or `/` follows.
    private mutating func matchHosts(_ table: FrozenSuffixTable, in url: UnsafeBufferPointer<UInt8>) {
        guard !table.isEmpty, let authority = URLScan.authority(url) else { return }
        HostProbe.forEachMatch(in: url, authority: authority, table: table) { condition, hostEnd in
            if hostEnd < url.count { set(condition) }
        }
    }

    /// `if-domain`/`unless-domain` entries, with the regex WebKit rewrites them into:
    /// `[a-z][a-z+.-]*:\/\/` + (`([^/]*\.)*` for `*domain`) + domain + `[:/]`, found anywhere in
    /// the top URL.
    private mutating func matchDomains(_ program: Program, in url: UnsafeBufferPointer<UInt8>) {
        let count = url.count
        var colon = 0
        while colon + 2 < count {
            defer { colon += 1 }
            guard url[colon] == UInt8(ascii: ":"), url[colon + 1] == UInt8(ascii: "/"), url[colon + 2] == UInt8(ascii: "/")
            else { continue }
            let scheme = Self.scheme(before: colon, in: url)
            guard scheme.insensitive || scheme.sensitive else { continue }
            let hostStart = colon + 3
            // Candidate starts run up to the first `/` (or byte no pattern matches); each start's
            // domain ends at the next `:` or `/`, which must exist.
            var runEnd = hostStart
            while runEnd < count, url[runEnd] != UInt8(ascii: "/"), url[runEnd] != 0, url[runEnd] < 0x80 { runEnd += 1 }
            var segmentStart = hostStart
            while segmentStart < runEnd {
                var segmentEnd = segmentStart
                while segmentEnd < runEnd && url[segmentEnd] != UInt8(ascii: ":") { segmentEnd += 1 }
                // The domain must be followed by `:` or `/`.
                if segmentEnd < count && (url[segmentEnd] == UInt8(ascii: ":") || url[segmentEnd] == UInt8(ascii: "/")) {
                    matchDomainSegment(program, url, hostStart: hostStart, segmentStart, segmentEnd, scheme: scheme)
                }
                segmentStart = segmentEnd + 1
            }
        }
    }

    private mutating func matchDomainSegment(
        _ program: Program, _ url: UnsafeBufferPointer<UInt8>, hostStart: Int, _ segmentStart: Int, _ end: Int,
        scheme: (insensitive: Bool, sensitive: Bool)
    ) {
        var hash = SuffixTable.seed
        var start = end
        var hasUppercase = false
        while start > segmentStart {
            start -= 1
            let byte = url[start]
            hash = SuffixTable.step(hash, byte)
            if byte &- 0x41 < 26 { hasUppercase = true }
            let isHostStart = start == hostStart
            guard isHostStart || url[start - 1] == UInt8(ascii: ".") else { continue }
            let subdomainDomains = program.frozenSubdomainDomains
            for position in subdomainDomains.lookup(hash: hash, url, start, end) {
                apply(subdomainDomains.values[position], hasUppercase: hasUppercase, scheme: scheme)
            }
            if isHostStart {
                let domains = program.frozenDomains
                for position in domains.lookup(hash: hash, url, start, end) {
                    apply(domains.values[position], hasUppercase: hasUppercase, scheme: scheme)
                }
            }
        }
    }

    private mutating func apply(_ entry: UInt32, hasUppercase: Bool, scheme: (insensitive: Bool, sensitive: Bool)) {
        let isCaseSensitive = entry & 1 == 1
        if isCaseSensitive ? (scheme.sensitive && !hasUppercase) : scheme.insensitive { set(entry >> 1) }
    }

    /// Whether `[a-z][a-z+.-]*` ends right before `colon`, matched ignoring case and matched
    /// exactly: the run of scheme characters before it holds a letter.
    private static func scheme(before colon: Int, in url: UnsafeBufferPointer<UInt8>) -> (insensitive: Bool, sensitive: Bool) {
        var index = colon - 1
        while index >= 0 {
            let byte = url[index]
            if byte &- 0x61 < 26 { return (true, true) }
            // Matched exactly, an uppercase letter ends the run without a letter.
            if byte &- 0x41 < 26 { return (true, false) }
            guard byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-") else { break }
            index -= 1
        }
        return (false, false)
    }
}
