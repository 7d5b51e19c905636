import ContentRuleList
import TrackerDataKit
import TrackerlessCore

// Lists of one entity: where a company owns many trackers and many sites, each tracker's
// first-party exception naming all of them grows with trackers × sites (extension-tds.json: one
// entity's 1,803 trackers each listing its 1,803 sites, 146 of its 160 MB). In a list of the entity's own,
// one `ignore-previous-rules` naming its sites once ends every list of it and covers all its
// trackers, since it can cancel nothing but their rules there (an exception acts only within
// its list), and the list then grows with trackers + sites.

extension RuleListBuilder {
    /// The entities whose trackers get lists of their own: those whose first-party exceptions,
    /// written once per tracker and CNAME section, would be at least
    /// ``Settings/minimumBytesSavedByEntityList`` larger than one exception, the configuration's
    /// rules (`tailByteCount`, which every list repeats) and the list itself; and the
    /// ``Settings/entityListsForMostSiteEntries`` entities whose sections carry the most site
    /// entries, at least ``Settings/minimumSiteEntriesForEntityList``.
    func entitiesWithOwnLists(tailByteCount: Int) -> Set<String> {
        Self.entitiesWithOwnLists(trackerData: trackerData, tailByteCount: tailByteCount, settings: settings) { owner in
            sitesByEntity[owner].map { sites in (sites.count, sites.reduce(0) { $0 + $1.pattern.utf8.count }) }
        }
    }

    /// ``entitiesWithOwnLists(tailByteCount:)`` for a builder whose first-party condition for
    /// `owner` has `sites(owner)`: its number of patterns and their bytes (nil: the owner has no sites).
    static func entitiesWithOwnLists(
        trackerData: TrackerData, tailByteCount: Int, settings: Settings, sites: (String) -> (count: Int, bytes: Int)?
    ) -> Set<String> {
        var sectionCounts: [String: Int] = [:]
        // Each owner's name read in place: iterating the trackers copied every tracker.
        for index in trackerData.trackers.indices {
            guard let owner = trackerData.trackers.values[index].ownerName else { continue }
            sectionCounts[owner, default: 0] += 1
        }
        guard sectionCounts.values.contains(where: { $0 > 1 }) else { return [] }
        for (cloaked, target) in trackerData.cnames where trackerData.tracker(forHost: cloaked) == nil {
            guard let owner = trackerData.tracker(forHost: target)?.ownerName else { continue }
            sectionCounts[owner, default: 0] += 1
        }
        var entities: Set<String> = []
        // Owners by the site entries their sections carry, most first; equal ones by name.
        var bySiteEntries: [(entries: Int, owner: String)] = []
        for (owner, count) in sectionCounts where count > 1 {
            guard let (siteCount, bytes) = sites(owner), bytes > 0 else { continue }
            // Each pattern is also written with quotes and a comma; the owner's sites are the
            // larger part of the condition.
            let conditionBytes = bytes + 3 * (bytes / 40 + 1)
            let saved = (count - 1) * conditionBytes - tailByteCount - listOverheadBytes
            if saved >= settings.minimumBytesSavedByEntityList { entities.insert(owner) }
            let (entries, overflow) = count.multipliedReportingOverflow(by: siteCount)
            let carried = overflow ? Int.max : entries
            if carried >= settings.minimumSiteEntriesForEntityList { bySiteEntries.append((carried, owner)) }
        }
        bySiteEntries.sort { $0.entries != $1.entries ? $0.entries > $1.entries : $0.owner < $1.owner }
        for chosen in bySiteEntries.prefix(max(0, settings.entityListsForMostSiteEntries)) { entities.insert(chosen.owner) }
        return entities
    }

    /// A list's bytes besides its rules, and the first-party exception's besides its sites.
    private static let listOverheadBytes = 200

    /// The exception that ends every list of `entity`'s own, before the configuration's rules:
    /// loads on the entity's sites are first party to all its trackers, the only rules before it.
    func firstPartyException(for entity: String) -> ContentRule? {
        guard let sites = sitesByEntity[entity], !sites.isEmpty else { return nil }
        let rule = ContentRule(
            trigger: Trigger(urlFilter: ".*", condition: settings.siteCondition(patterns: sites.map(\.pattern))),
            action: .ignorePreviousRules)
        // Spelled as the lists' other rules are; it ends every list of the entity, unlowered.
        guard CaseSensitiveSpelling.isUsed(for: settings.target) else { return rule }
        return CaseSensitiveSpelling.spelled(rule) ?? rule
    }

    /// About how many bytes `rules` take in a list's JSON: their url-filters and conditions, and
    /// a fixed part for the rest of each rule.
    static func approximateByteCount(of rules: [ContentRule]) -> Int {
        rules.reduce(0) { total, rule in
            total + 80 + rule.trigger.urlFilter.utf8.count
                + (rule.trigger.condition?.values.reduce(0) { $0 + $1.utf8.count + 3 } ?? 0)
        }
    }

    /// The sections of the main lists and of each entity with lists of its own, being built:
    /// a tracker's sections go to its owner's when that owner has lists of its own.
    struct SectionGroups {
        var main = Sections()
        var byEntity: [String: Sections] = [:]
        /// The entities with lists of their own.
        let separated: Set<String>
        /// Inputs whose sections are dropped (``Sections/leftOut``).
        let leftOut: Set<Origin>

        /// Whether the sections keep the part of each rule (``Sections/recordsParts``).
        let recordsParts: Bool
        /// How the sections of each entity's lists are packed as they end, by entity; an entity
        /// without one is packed at the end.
        var packings: [String: Sections.Packing] = [:]
        /// The groups (nil: the main lists) whose packing closed a list to hand over since the
        /// last ``handOverClosedLists(numbering:_:)``.
        private var closing: [String?] = []

        init(separated: Set<String>, leftOut: Set<Origin>, recordsParts: Bool = true) {
            self.separated = separated
            self.leftOut = leftOut
            self.recordsParts = recordsParts
            main.leftOut = leftOut
            main.recordsParts = recordsParts
        }

        /// The entity whose lists hold the sections of trackers owned by `owner`; nil for the main lists.
        func group(ofOwner owner: String?) -> String? {
            guard let owner, separated.contains(owner) else { return nil }
            return owner
        }

        /// Whether the lists of `group` are left out whole, their exception refused.
        func isLeftOut(_ group: String?) -> Bool {
            group.map { leftOut.contains(.entity($0)) } ?? false
        }

        /// Runs `body` on the sections of `group` (nil: the main lists).
        mutating func withSections(of group: String?, _ body: (inout Sections) -> Void) {
            guard let group else {
                body(&main)
                if main.hasListsToHandOver { closing.append(nil) }
                return
            }
            var sections = byEntity.removeValue(forKey: group)
                ?? Sections(leftOut: leftOut, recordsParts: recordsParts, packing: packings[group])
            body(&sections)
            if sections.hasListsToHandOver { closing.append(group) }
            byEntity[group] = sections
        }

        /// Hands over the lists that the groups' packing closed since the last call
        /// (``Sections/handOverClosedLists(numbering:_:)``), numbered from `next` on.
        mutating func handOverClosedLists(numbering next: inout Int, _ handOver: (Int, RuleList) -> Void) {
            guard !closing.isEmpty else { return }
            let groups = closing
            closing = []
            for group in groups { withSections(of: group) { $0.handOverClosedLists(numbering: &next, handOver) } }
        }

        /// Appends the section of the tracker `key`, whose host is `domain` and whose owner is
        /// `owner`, that `body` writes (its rules, and which input of the tracker each says), to
        /// its owner's lists or the main lists. A tracker inside
        /// another (`hasEnclosing`) starts by cancelling the enclosing ones' rules for its hosts,
        /// which acts only in their lists: where those are other lists, the cancel is a section
        /// of its own there.
        mutating func appendTrackerSection(
            key: String, domain: String, owner: String?, hasEnclosing: Bool, trackers: [String: Tracker],
            _ body: (inout [ContentRule], inout [RuleSource.Part?]) -> Void
        ) {
            let group = group(ofOwner: owner)
            if isLeftOut(group) { return }
            let cancel = ContentRule(trigger: Trigger(urlFilter: HostScope.tracker(domain: domain).anchor), action: .ignorePreviousRules)
            if hasEnclosing {
                var others: [String?] = []
                for parent in DomainName.parentDomains(of: domain) {
                    guard let enclosing = trackers[parent] else { continue }
                    let other = self.group(ofOwner: enclosing.ownerName)
                    if other != group, !others.contains(other) { others.append(other) }
                }
                for other in others {
                    withSections(of: other) { sections in
                        sections.rules.append(cancel)
                        sections.endSection(.tracker(key))
                    }
                }
            }
            withSections(of: group) { sections in
                if hasEnclosing { sections.rules.append(cancel) }
                sections.alignParts()
                body(&sections.rules, &sections.parts)
                sections.endSection(.tracker(key))
            }
        }

        /// Appends the section of the CNAME-cloaked host `cloaked` that `body` writes, to the
        /// lists of `owner`, its target tracker's owner, or the main lists.
        mutating func appendCloakedSection(
            _ cloaked: String, owner: String?, _ body: (inout [ContentRule], inout [RuleSource.Part?]) -> Void
        ) {
            let group = group(ofOwner: owner)
            if isLeftOut(group) { return }
            withSections(of: group) { sections in
                sections.alignParts()
                body(&sections.rules, &sections.parts)
                sections.endSection(.cname(cloaked))
            }
        }

        /// The list groups: the main lists, then each entity's, by name, ended by its exception.
        mutating func listGroups(exception: (String) -> ContentRule?) -> [ListGroup] {
            var groups = [ListGroup(sections: main.take(), isMain: true)]
            for entity in byEntity.keys.sorted() where !leftOut.contains(.entity(entity)) {
                guard var sections = byEntity.removeValue(forKey: entity), let rule = exception(entity) else { continue }
                groups.append(ListGroup(sections: sections.take(), trailer: [rule], trailerOrigins: [.entity(entity)]))
            }
            return groups
        }
    }
}
