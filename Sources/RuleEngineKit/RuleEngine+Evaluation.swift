public import ContentRuleList
import TrackerlessCore

// One load: find the candidate rules (host table, grams, rules checked every time), keep those
// whose flags, condition and url-filter match, then apply WebKit's ordering per list: sort by
// action location, cut at the first ignore-following-rules, drop everything through the last
// ignore-previous-rules.

extension RuleEngine {
    /// The decision for one load; `cache` keeps what depends only on the page (its top URL and
    /// frame URL) between loads of the same page.
    public func decision(for request: Request, cache: inout PageCache) -> Decision {
        let decision = request.url.utf8.withContiguousStorageIfAvailable { raw -> Decision in
            if let decision = canonicalDecision(utf8: raw, request: request, cache: &cache) { return decision }
            // Not known to be canonical: canonicalize as WebKit does (this path allocates).
            guard let canonical = CanonicalURL(request.url), canonical.scheme != "data" else {
                return .unchecked(program)
            }
            var string = canonical.stringWithoutFragment
            var host = canonical.host
            let isUpgradable = (canonical.scheme == "http" || canonical.scheme == "ws") && canonical.port == nil
            return string.withUTF8 { bytes in
                host.withUTF8 { host in
                    decide(
                        request, url: bytes, host: host, authority: URLScan.authority(bytes), isUpgradable: isUpgradable,
                        cache: &cache)
                }
            }
        }
        if let decision { return decision }
        // A string without contiguous UTF-8 (bridged): make it native.
        var url = request.url
        url.makeContiguousUTF8()
        var native = request
        native.url = url
        return self.decision(for: native, cache: &cache)
    }

    func decide(
        _ request: Request, url: UnsafeBufferPointer<UInt8>, host: UnsafeBufferPointer<UInt8>, authority: Range<Int>?,
        isUpgradable: Bool, cache: inout PageCache
    ) -> Decision {
        let pageIndex = preparePage(for: request, cache: &cache)
        let load = request.loadFlags(isThirdParty: Self.isThirdParty(host: host, site: cache.entries[pageIndex].state.site))

        if _slowPath(cache.isExplaining) {
            return decideNamingRules(
                url: url, authority: authority, load: load, pageIndex: pageIndex, isUpgradable: isUpgradable, cache: &cache)
        }
        return withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { storage in
            var found = LocationBuffer(storage)
            collect(url: url, authority: authority, load: load, page: &cache.entries[pageIndex].state, into: &found)
            return found.withSortedUniqueLocations { locations in
                finish(locations, isUpgradable: isUpgradable)
            }
        }
    }

    /// ``decide(_:url:host:authority:isUpgradable:cache:)`` when the caller asks which rules
    /// applied: each matched location with its first rule, the rule of each applied location left
    /// in `cache`. Not inlined, so that the decision's own path stays as small as it was.
    @inline(never)
    private func decideNamingRules(
        url: UnsafeBufferPointer<UInt8>, authority: Range<Int>?, load: ResourceFlags, pageIndex: Int, isUpgradable: Bool,
        cache: inout PageCache
    ) -> Decision {
        var matches = RuleMatches(program)
        let decision = withUnsafeMutablePointer(to: &matches) { namer in
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { storage in
                var found = LocationBuffer(storage, naming: namer)
                collect(url: url, authority: authority, load: load, page: &cache.entries[pageIndex].state, into: &found)
                return found.withSortedUniqueLocations { finish($0, isUpgradable: isUpgradable) }
            }
        }
        cache.appliedRuleIndices = matches.ruleIndices(of: decision.applied)
        return decision
    }

    /// Adds the action locations of every rule that matches the load.
    private func collect(
        url: UnsafeBufferPointer<UInt8>, authority: Range<Int>?, load: ResourceFlags, page: inout PageState,
        into found: inout LocationBuffer
    ) {
        let program = self.program
        let universal = program.universalLocations
        for position in universal.indices { found.appendUniversal(universal[position], position: position) }

        let rules = program.frozenRules
        @inline(__always)
        func check(_ ruleIndex: Int, hostEnd: Int = 0) {
            let rule = rules[ruleIndex]
            guard ResourceFlags(rawValue: rule.flags).matches(load: load) else { return }
            switch rule.conditionMode {
            case .none, .always: break
            case .never: return
            case .ifAny: guard page.matches(rule.condition, program) else { return }
            case .unlessAny: guard !page.matches(rule.condition, program) else { return }
            }
            guard matches(rule.matcher, url: url, hostEnd: hostEnd) else { return }
            found.append(rule.location, rule: ruleIndex)
        }

        // Rules naming a host: probe the authority's segments, each hashed on the way left.
        if let authority, !program.frozenHosts.isEmpty {
            HostProbe.forEachMatch(in: url, authority: authority, table: program.frozenHosts) { ruleIndex, hostEnd in
                check(Int(ruleIndex), hostEnd: hostEnd)
            }
        }

        // Rules found by a literal gram; each gram's rules once, however often the URL repeats it.
        if !program.grams.isEmpty && url.count >= 4 {
            let grams = program.grams
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 32) { recent in
                var seen = SeenGrams(recent)
                var gram = UInt32(ASCII.lowercased(url[0])) << 16 | UInt32(ASCII.lowercased(url[1])) << 8
                    | UInt32(ASCII.lowercased(url[2]))
                for index in 3..<url.count {
                    gram = gram << 8 | UInt32(ASCII.lowercased(url[index]))
                    let range = grams.lookup(gram)
                    guard !range.isEmpty, seen.insert(gram) else { continue }
                    for position in range { check(Int(grams.values[position])) }
                }
            }
        }

        for ruleIndex in program.alwaysChecked { check(Int(ruleIndex)) }
        // Page rules whose condition holds here: only their flags remain to check.
        for ruleIndex in page.rules {
            let rule = rules[Int(ruleIndex)]
            if ResourceFlags(rawValue: rule.flags).matches(load: load) { found.append(rule.location, rule: Int(ruleIndex)) }
        }
    }

    /// Whether the rule's url-filter matches, given that its index found it (a host rule's host
    /// and final dot ending at `hostEnd`).
    @inline(__always)
    private func matches(_ matcher: Int32, url: UnsafeBufferPointer<UInt8>, hostEnd: Int) -> Bool {
        if matcher == RuleRecord.matchesEverything { return true }
        // A host rule with `[:/]` after its host: its segment must be followed by `:` or `/`.
        if matcher == RuleRecord.separatorAfterHost { return hostEnd < url.count }
        let entry = program.frozenMatchers[Int(matcher)]
        if entry.isAutomaton { return program.automata[Int(entry.index)].matches(utf8: url) }
        var index = hostEnd
        if entry.allowsPort && index < url.count && url[index] == UInt8(ascii: ":") {
            index += 1
            let digitsStart = index
            while index < url.count && URLScan.isDigit(url[index]) { index += 1 }
            guard index > digitsStart else { return false }
        }
        let length = Int(entry.length)
        guard url.count - index >= length else { return false }
        let pool = Int(entry.index)
        for offset in 0..<length where ASCII.lowercased(url[index + offset]) != program.frozenLiterals[pool + offset] {
            return false
        }
        return !entry.isAnchoredAtEnd || index + length == url.count
    }

    /// Applies WebKit's ordering to the sorted, distinct locations of the matched rules.
    private func finish(_ locations: UnsafeBufferPointer<UInt32>, isUpgradable: Bool) -> Decision {
        let program = self.program
        var applied = AppliedLocations()
        var ignoringLists: UInt64 = 0
        var moreIgnoringLists: [Int] = []
        var isBlocked = false, blocksCookies = false, makesHTTPS = false, hidesElements = false
        var list = 0
        var index = 0
        while list < program.listCount {
            let end = program.listLocationStarts[list + 1]
            // This list's segment: up to the first ignore-following-rules, after the last
            // ignore-previous-rules.
            let segmentStart = index
            var cut = index
            var lastIgnorePrevious = -1
            while index < locations.count && locations[index] < end {
                if cut == index {
                    switch program.actionKinds[Int(locations[index])] {
                    case .ignoreFollowingRules: break
                    case .ignorePreviousRules:
                        lastIgnorePrevious = index
                        cut = index + 1
                    default: cut = index + 1
                    }
                }
                index += 1
            }
            if lastIgnorePrevious >= 0 {
                if list < 64 { ignoringLists |= 1 << UInt64(list) } else { moreIgnoringLists.append(list) }
            } else if !program.globalStyleSheets[list].isEmpty {
                hidesElements = true
            }
            var position = lastIgnorePrevious >= 0 ? lastIgnorePrevious + 1 : segmentStart
            while position < cut {
                let location = locations[position]
                applied.append(location)
                switch program.actionKinds[Int(location)] {
                case .block: isBlocked = true
                case .blockCookies: blocksCookies = true
                case .makeHTTPS: makesHTTPS = true
                case .cssDisplayNone: hidesElements = true
                default: break
                }
                position += 1
            }
            list += 1
        }
        return Decision(
            isChecked: true, isBlocked: isBlocked, blocksCookies: blocksCookies,
            upgradesToHTTPS: makesHTTPS && isUpgradable, hidesElements: hidesElements, applied: applied,
            ignoringLists: ignoringLists, moreIgnoringLists: moreIgnoringLists, program: program)
    }

    /// WebKit's `RegistrableDomain(mainDocumentURL).matches(resourceURL)`, negated.
    @inline(__always)
    static func isThirdParty(host: UnsafeBufferPointer<UInt8>, site: [UInt8]) -> Bool {
        guard !site.isEmpty else { return true }
        guard host.count >= site.count else { return true }
        let offset = host.count - site.count
        if offset > 0 && host[offset - 1] != UInt8(ascii: ".") { return true }
        for index in 0..<site.count where host[offset + index] != site[index] { return true }
        return false
    }
}
