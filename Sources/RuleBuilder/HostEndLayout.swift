import ContentRuleList

/// The layout that lets WebKit compile a list's host-only blocks in one automaton.
///
/// A tracker's host-only block `^[^:]+://+([^/]+[.@])?tracker\.com\.?(:[0-9]+)?/` ends with
/// quantified terms, and WebKit roots an automaton after the last such term of each url-filter
/// (CombinedURLFilters.cpp, `processNFAs`): one automaton per host. With fixed ends every host
/// shares one. Each such block that no earlier exception touches is written four times:
///
/// 1. first in the list, `^[^:]+://+([^/]+[.@])?tracker\.com[:/]` (the host, then its port or
///    path) and `^[^:]+:/+/+([^/]+[.@])?tracker\.com\.[:/]` (its final dot; `:/+/+` is the same
///    URLs as `://+`, but a branch of WebKit's prefix tree of its own, so that the host's tail is
///    shared with other hosts');
/// 2. then ``passwordFixUp``, one `ignore-previous-rules` for every URL with a password, where
///    `[:/]` would take the `:` ending the user name of `https://tracker.com:pw@evil.com/` for the
///    host's end;
/// 3. then both again for those URLs, with the host after the `@`, where a `:` only starts the
///    port: `^[^:]+://+[^/]*@([^/]+\.)?tracker\.com[:/]` and its final-dot form;
/// 4. then the list's other rules, in their order.
///
/// A block moves only where that frees its host's automaton: not where another rule of its
/// section (a path block or an exception of the same host) starts its url-filter the same way up
/// to the quantified end, which roots the automaton anyway; there the three added rules only cost
/// (BENCHMARKS.md, "A block moved only where its automaton goes"). And a block moves only where
/// the rules before it in its group cannot cancel it: no `ignore-previous-rules` or
/// `ignore-following-rules` whose host is unknown, or is a suffix of the block's host or has it
/// as a suffix (a nested tracker's cancel, a subdomain's exception). The rules after it cancel it
/// as before.
/// Used only where the target decides third party by registrable domain
/// (``isUsed(for:)``): Safari 15 (`WebKitTarget.oldest`, the default) decides it by origin, so
/// every tracker's section ends with an exception naming the tracker's own site, and those
/// exceptions' `if-top-url` rules, which the layout leaves as they are, are most of that list's
/// compile time; there the layout's added blocks made the lists slower (BENCHMARKS.md, "The
/// host-end layout and Safari 15").
enum HostEndLayout {
    /// Whether lists for `target` take the layout: where WebKit decides third party by
    /// registrable domain (Safari 16 and later, WebKitGTK), not by origin (Safari 15).
    static func isUsed(for target: WebKitTarget) -> Bool {
        target.thirdParty != .origin
    }

    /// The url-filter of every URL with a password (`user:password@host`).
    static let passwordURL = #"^[^:]+://+[^/]*:[^/]*@"#
    /// The `ignore-previous-rules` for URLs with a password, after the moved blocks: where the
    /// user name ends like a blocked host, the block took the user for the host.
    static let passwordFixUp = ContentRule(trigger: Trigger(urlFilter: passwordURL), action: .ignorePreviousRules)

    /// The input ``passwordFixUp`` is said to come from.
    static let fixUpOrigin = RuleListBuilder.Origin.configuration("(the host-end layout's exception for URLs with a password)")

    /// What comes before a tracker's host in the list's url-filters.
    private static let trackerPrefix = HostScope.schemePrefix + HostScope.subdomainPrefix
    /// The same URLs as ``HostScope/schemePrefix``, in a prefix-tree branch of their own.
    private static let branchPrefix = #"^[^:]+:/+/+"#
    /// A host after the userinfo of a URL with a password.
    private static let afterPassword = #"[^/]*@([^/]+\.)?"#
    /// The fixed host ends: port or path, final dot then port or path.
    private static let end = "[:/]"
    private static let finalDotEnd = #"\.[:/]"#
    /// The exact host end of the builder's url-filters.
    private static let exactEnd = HostScope.finalDot + HostScope.hostEnd

    /// Which blocks of a group may move: what the rules before them could cancel.
    ///
    /// An exception naming host E cancels a block of host H (H and its subdomains) on some URL
    /// when H ends with E (E's `[^:/]*` form takes any host ending with E) or E is H or a
    /// subdomain of it. Hosts are kept as 64-bit hashes, so that a build of a million trackers
    /// does not hold them all again: a collision only keeps a block in its place.
    struct Movability: Sendable {
        /// The hosts that earlier exceptions name.
        var ignoredHosts: Set<UInt64> = []
        /// Those hosts and every parent domain of them.
        var ignoredHostsAndParents: Set<UInt64> = []
        /// Whether an earlier `ignore-previous-rules` (or `ignore-following-rules`) names no host
        /// that ``HostEndLayout/host(ofException:)`` reads: no block after it moves.
        var unknownIgnore = false

        mutating func addIgnored(_ host: Substring) {
            let bytes = Array(host.utf8)
            ignoredHosts.insert(Self.hash(bytes[...]))
            ignoredHostsAndParents.insert(Self.hash(bytes[...]))
            for index in bytes.indices where bytes[index] == UInt8(ascii: ".") {
                ignoredHostsAndParents.insert(Self.hash(bytes[(index + 1)...]))
            }
        }

        /// Whether an earlier exception may cancel a block of `host`.
        func mayCancel(_ host: Substring) -> Bool {
            let bytes = Array(host.utf8)
            if ignoredHostsAndParents.contains(Self.hash(bytes[...])) { return true }
            return bytes.indices.contains { ignoredHosts.contains(Self.hash(bytes[$0...])) }
        }

        /// FNV-1a.
        private static func hash(_ bytes: ArraySlice<UInt8>) -> UInt64 {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in bytes {
                hash ^= UInt64(byte)
                hash = hash &* 0x100_0000_01b3
            }
            return hash
        }
    }

    /// Writes each movable host-only block of `rules[start...]` (one section, lowered) as its four
    /// rules in place, `parts` alike; `movability` says what the group's earlier rules cancel.
    static func expand(
        sectionAt start: Int, of rules: inout [ContentRule], parts: inout [RuleSource.Part?], recordsParts: Bool,
        movability: inout Movability
    ) {
        let keptHosts = hostsKeepingTheirAutomaton(in: rules[start...])
        var index = start
        while index < rules.count {
            let rule = rules[index]
            if isIgnoreRule(rule) {
                if let host = host(ofException: rule.trigger.urlFilter) {
                    movability.addIgnored(host[...])
                } else {
                    movability.unknownIgnore = true
                }
                index += 1
                continue
            }
            guard !movability.unknownIgnore, let escaped = movableHost(rule) else {
                index += 1
                continue
            }
            let host = escaped.replacingOccurrences(of: #"\."#, with: ".")
            guard !keptHosts.contains(escaped), !movability.mayCancel(host[...]) else {
                index += 1
                continue
            }
            let variants = [
                trackerPrefix + escaped + end, branchPrefix + HostScope.subdomainPrefix + escaped + finalDotEnd,
                HostScope.schemePrefix + afterPassword + escaped + end, branchPrefix + afterPassword + escaped + finalDotEnd,
            ].map { filter in
                var variant = rule
                variant.trigger.urlFilter = filter
                return variant
            }
            rules.replaceSubrange(index...index, with: variants)
            if recordsParts, index < parts.count {
                parts.replaceSubrange(index...index, with: repeatElement(parts[index], count: variants.count))
            }
            index += variants.count
        }
    }

    /// The escaped hosts whose automaton stays whether or not their blocks move: another rule of
    /// the section (a path block, an exception) has a url-filter that starts as their host-only
    /// block's does, up to the quantified end `\.?(:[0-9]+)?`, where WebKit roots the automaton.
    /// Moving such a block saves no automaton and adds three rules to the list.
    private static func hostsKeepingTheirAutomaton(in section: ArraySlice<ContentRule>) -> Set<String> {
        var hosts: Set<String> = []
        for rule in section where movableHost(rule) == nil {
            let filter = rule.trigger.urlFilter
            guard filter.hasPrefix(trackerPrefix) else { continue }
            if let host = escapedHost(endingExactlyIn: filter.dropFirst(trackerPrefix.count)) { hosts.insert(String(host)) }
        }
        return hosts
    }

    private static func isIgnoreRule(_ rule: ContentRule) -> Bool {
        switch rule.action {
        case .ignorePreviousRules, .ignoreFollowingRules: true
        default: false
        }
    }

    /// The escaped host of a block that may move: only a url-filter, resource and load types,
    /// and the url-filter a tracker's whole host, `trackerPrefix` + host + `\.?(:[0-9]+)?/`. Its
    /// four forms keep its case flag: their letters are the lowercase host's, as its are.
    private static func movableHost(_ rule: ContentRule) -> String? {
        guard case .block = rule.action else { return nil }
        let trigger = rule.trigger
        guard trigger.condition == nil, trigger.requestMethod == nil, trigger.loadContexts.isEmpty else { return nil }
        let filter = trigger.urlFilter
        guard filter.hasPrefix(trackerPrefix), filter.hasSuffix(exactEnd) else { return nil }
        let host = filter.dropFirst(trackerPrefix.count).dropLast(exactEnd.count)
        return isEscapedHost(host) ? String(host) : nil
    }

    /// The host (unescaped) that an exception's url-filter names: a tracker's, a cloaked host's
    /// or a subdomain's, `^[^:]+://+` then `([^/]+[.@])?` or `([^/]*@)?` (and maybe `[^:/]*`),
    /// the escaped host, and the exact end, maybe with a path after it; nil for any other.
    static func host(ofException filter: String) -> String? {
        guard filter.hasPrefix(HostScope.schemePrefix) else { return nil }
        var rest = filter.dropFirst(HostScope.schemePrefix.count)
        if rest.hasPrefix(HostScope.subdomainPrefix) {
            rest = rest.dropFirst(HostScope.subdomainPrefix.count)
        } else if rest.hasPrefix(HostScope.userinfoPrefix) {
            rest = rest.dropFirst(HostScope.userinfoPrefix.count)
            if rest.hasPrefix("[^:/]*") { rest = rest.dropFirst("[^:/]*".count) }
        } else {
            return nil
        }
        return escapedHost(endingExactlyIn: rest)?.replacingOccurrences(of: #"\."#, with: ".")
    }

    /// The escaped host that `rest` (a url-filter after its host's prefix) starts with, up to the
    /// exact host end; nil when no such end follows an escaped host.
    private static func escapedHost(endingExactlyIn rest: Substring) -> Substring? {
        guard let end = rest.range(of: exactEnd)?.lowerBound else { return nil }
        let host = rest[..<end]
        return isEscapedHost(host) ? host : nil
    }

    /// Whether `text` is a host as the builder escapes it: `[a-z0-9_-]` and `\.` only.
    private static func isEscapedHost(_ text: Substring) -> Bool {
        guard !text.isEmpty else { return false }
        var afterBackslash = false
        for byte in text.utf8 {
            if afterBackslash {
                guard byte == UInt8(ascii: ".") else { return false }
                afterBackslash = false
                continue
            }
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
                continue
            case UInt8(ascii: "\\"):
                afterBackslash = true
            default:
                return false
            }
        }
        return !afterBackslash
    }

    /// Where each rule of a list goes: the moved blocks, ``passwordFixUp``, the password blocks,
    /// the others (the fix-up taken from wherever the list's ending put it). `order[i]` is the
    /// index in `rules` of the rule at `i`; nil when the list holds no fix-up (laid out already,
    /// or not made with one).
    static func order(of rules: [ContentRule]) -> [Int]? {
        var moved: [Int] = [], password: [Int] = [], rest: [Int] = []
        var fixUp: Int?
        let passwordPrefixes = [HostScope.schemePrefix + afterPassword, branchPrefix + afterPassword]
        let movedPrefixes = [trackerPrefix, branchPrefix + HostScope.subdomainPrefix]
        for (index, rule) in rules.enumerated() {
            let filter = rule.trigger.urlFilter
            if fixUp == nil, rule == passwordFixUp {
                fixUp = index
            } else if case .block = rule.action, rule.trigger.condition == nil, filter.hasSuffix(end) {
                if passwordPrefixes.contains(where: { filter.hasPrefix($0) }) {
                    password.append(index)
                } else if movedPrefixes.contains(where: { filter.hasPrefix($0) }), isMovedForm(filter) {
                    moved.append(index)
                } else {
                    rest.append(index)
                }
            } else {
                rest.append(index)
            }
        }
        guard let fixUp else { return nil }
        return moved + [fixUp] + password + rest
    }

    /// Whether a block's url-filter is one of the two moved forms of ``expand(sectionAt:of:parts:recordsParts:movability:)``.
    private static func isMovedForm(_ filter: String) -> Bool {
        for (prefix, ending) in [(branchPrefix + HostScope.subdomainPrefix, finalDotEnd), (trackerPrefix, end)]
        where filter.hasPrefix(prefix) && filter.hasSuffix(ending) {
            if isEscapedHost(filter.dropFirst(prefix.count).dropLast(ending.count)) { return true }
        }
        return false
    }

    /// `rules` laid out by ``order(of:)``; unchanged without a fix-up.
    static func laidOut(_ rules: [ContentRule]) -> [ContentRule] {
        guard let order = order(of: rules) else { return rules }
        return order.map { rules[$0] }
    }
}
