import TrackerDataKit

/// The url-filters that make WebKit match a Tracker Radar rule regex exactly where the resolver does.
///
/// The resolver first finds the tracker by the request host, then tests the rule regex,
/// case-insensitively and unanchored, against the URL with its port removed. A url-filter cannot
/// say "host is under the tracker domain AND the regex matches somewhere", so the match is split
/// by where it starts:
///
/// - **In the host** (`sub\.tracker\.com/path`): the host part of the regex must end exactly where
///   the host ends, so it is aligned with the tracker domain and anchored behind the scheme and any
///   userinfo, with the host's optional final dot and an optional port before the path part.
/// - **After the host** (the rule's text appears in the path or query): the scope's host anchor,
///   then `.*`, then the whole regex.
///
/// Both url-filters are emitted when both kinds of match are possible.
struct RuleURLFilters: Sendable, Hashable {
    static let slash = CharacterSet128.single(UInt8(ascii: "/"))
    /// `slash.low`, as a constant.
    static var slashBit: UInt64 { 1 << UInt64(UInt8(ascii: "/")) }

    /// WebKit url-filters whose union matches what the rule matches within the scope.
    var filters: [String]
    /// What could not be translated exactly, for the build report.
    var notes: [String]

    /// The url-filters for a regex within `scope`, from its ``TrackerRuleRegex/expanded()``
    /// alternatives.
    ///
    /// - Parameter includingMatchesAfterHost: whether to emit the url-filter for matches that
    ///   start in the path or query.
    init(expanded alternatives: [[TrackerRuleRegex.Node]], scope: HostScope, includingMatchesAfterHost: Bool) {
        var filters: [String] = []
        var notes: [String] = []
        for alternative in alternatives {
            let translation = Self.translate(alternative, scope: scope, includingMatchesAfterHost: includingMatchesAfterHost)
            for filter in translation.filters where !filters.contains(filter) { filters.append(filter) }
            notes += translation.notes
        }
        self.filters = filters
        self.notes = notes
    }

    private static func translate(
        _ sequence: [TrackerRuleRegex.Node], scope: HostScope, includingMatchesAfterHost: Bool
    ) -> (filters: [String], notes: [String]) {
        // A `^` anywhere but first never matches; `^` first anchors at the scheme, which WebKit
        // does the same way.
        if let anchorIndex = sequence.firstIndex(where: \.isStartAnchor) {
            if anchorIndex != 0 { return ([], []) }
            return ([TrackerRuleRegex.render(sequence)], ["anchored at the start of the URL: the host is not checked"])
        }
        if let endIndex = sequence.firstIndex(where: \.isEndAnchor), endIndex != sequence.count - 1 {
            return ([], [])
        }
        let slash = sequence.firstIndex(where: \.isSlash) ?? sequence.count
        let hostPart = sequence[..<slash]
        let pathPart = sequence[slash...]

        var filters: [String] = []
        var notes: [String] = []
        let hostMatch: HostMatch
        switch scope.kind {
        case .tracker(let domain):
            hostMatch = alignedHostPattern(hostPart, domain: domain)
        case .cloaked(_, let target):
            // The uncloaked URL has the CNAME target as its host: decide statically.
            switch TrackerRuleRegex.matchesSubstring(hostPart, of: target, endingAtEnd: !pathPart.isEmpty) {
            case true?: hostMatch = .wholeScope
            case false?: hostMatch = .impossible
            case nil:
                hostMatch = .wholeScope
                notes.append("host part too complex to check against the CNAME target")
            }
        }

        // The host pattern, then the end of the host, or an optional port and the path part.
        func filter(afterHost hostPattern: String) -> String {
            pathPart.isEmpty
                ? hostPattern + HostScope.hostEnd : TrackerRuleRegex.render(pathPart, after: hostPattern, HostScope.optionalPort)
        }
        var matchesEveryURL = false
        switch hostMatch {
        case .wholeScope:
            // Without a path part, the scope's own anchor: the same text, already made.
            filters.append(pathPart.isEmpty ? scope.anchor : filter(afterHost: scope.hostPattern))
            matchesEveryURL = pathPart.isEmpty
        case .pattern(let pattern):
            filters.append(filter(afterHost: HostScope.schemePrefix + pattern))
        case .impossible:
            break
        case .approximated(let pattern, let note):
            filters.append(filter(afterHost: HostScope.schemePrefix + pattern))
            notes.append(note)
        }
        if includingMatchesAfterHost, !matchesEveryURL {
            filters.append(scope.hostPattern + HostScope.optionalPort + "/.*" + TrackerRuleRegex.render(sequence))
        }
        return (filters, notes)
    }

    /// How the host part of a rule can match the host of a request under a tracker domain.
    private enum HostMatch {
        /// Every host of the scope matches.
        case wholeScope
        /// Hosts matching this pattern (written after the scheme prefix; it includes the final dot).
        case pattern(String)
        /// Never in the host.
        case impossible
        /// A pattern that is not exactly the resolver's meaning.
        case approximated(String, note: String)
    }

    /// Aligns the end of the rule's host part with the tracker domain: a match that starts in the
    /// host and continues into the path must end with the host, and the host ends with the domain.
    private static func alignedHostPattern(_ hostPart: ArraySlice<TrackerRuleRegex.Node>, domain: String) -> HostMatch {
        let domainBytes = Array(domain.utf8)
        var nodeIndex = hostPart.endIndex - 1
        var domainIndex = domainBytes.count - 1
        while nodeIndex >= hostPart.startIndex, domainIndex >= 0 {
            guard case .character(let set) = hostPart[nodeIndex], set.caseFolded.contains(domainBytes[domainIndex]) else {
                if case .character = hostPart[nodeIndex] { return .impossible }
                return .approximated(
                    HostScope.subdomainPrefix + TrackerRuleRegex.escapedDomain(domain) + HostScope.finalDot,
                    note: "host part with groups or quantifiers: any host of the tracker matches"
                )
            }
            nodeIndex -= 1
            domainIndex -= 1
        }
        if nodeIndex < hostPart.startIndex {
            // The rule's host part is a suffix of the domain: every host of the tracker matches.
            return .wholeScope
        }
        // More labels in front of the domain: the character before the domain must be a dot, and
        // nothing of the prefix may leave the host.
        var prefix = Array(hostPart[...nodeIndex])
        guard case .character(let last) = prefix[prefix.count - 1] else {
            return .approximated(
                HostScope.subdomainPrefix + TrackerRuleRegex.escapedDomain(domain) + HostScope.finalDot,
                note: "host part with groups or quantifiers: any host of the tracker matches"
            )
        }
        guard last.contains(UInt8(ascii: ".")) else { return .impossible }
        prefix[prefix.count - 1] = .character(.single(UInt8(ascii: ".")))
        prefix = prefix.map(restrictedToHost)
        return .pattern(
            HostScope.userinfoPrefix + "[^:/]*" + TrackerRuleRegex.render(prefix) + TrackerRuleRegex.escapedDomain(domain)
                + HostScope.finalDot)
    }

    /// The node with `/` and `:` removed from its character sets, so that it stays in the host.
    private static func restrictedToHost(_ node: TrackerRuleRegex.Node) -> TrackerRuleRegex.Node {
        switch node {
        case .character(var set):
            set.remove(UInt8(ascii: "/"))
            set.remove(UInt8(ascii: ":"))
            return .character(set)
        case .group(let alternatives):
            return .group(alternatives.map { $0.map(restrictedToHost) })
        case .repetition(let atom, let minimum, let maximum):
            return .repetition(restrictedToHost(atom), min: minimum, max: maximum)
        case .startAnchor, .endAnchor:
            return node
        }
    }
}

extension TrackerRuleRegex.Node {
    /// Tests by pattern rather than `==`, which is slow on this recursive enum.
    var isStartAnchor: Bool {
        if case .startAnchor = self { return true }
        return false
    }

    var isEndAnchor: Bool {
        if case .endAnchor = self { return true }
        return false
    }

    /// A literal `/`, where a host part ends.
    var isSlash: Bool {
        // Compares the bits directly: `==` on the static set went through a generic witness and a
        // lazy-global check, once per node of every rule.
        if case .character(let set) = self { return set.low == RuleURLFilters.slashBit && set.high == 0 }
        return false
    }
}
