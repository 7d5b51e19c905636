import ContentRuleList
@testable import RuleBuilder
import Testing
import TrackerDataKit

/// Which entities get lists of their own besides those over the byte threshold: the ones whose
/// sections repeat the most site entries (sections × sites) in WebKit's `if-top-url` compilation,
/// at most ``RuleListBuilder/Settings/entityListsForMostSiteEntries``, none under
/// ``RuleListBuilder/Settings/minimumSiteEntriesForEntityList``.
@Suite("Rule builder: the entities chosen for lists of their own by the site entries they repeat")
struct EntityListChoiceTests {
    /// Owners with (trackers, sites): Big 3 × 40 = 120 and Wide 2 × 60 = 120 entries (equal: by
    /// name), Many 11 × 10 = 110, Small 2 × 49 = 98 (under the floor of 100), Solo 1 × 200 (one
    /// section: nothing to save).
    static let owners: [(name: String, trackers: Int, sites: Int)] = [
        ("Big", 3, 40), ("Wide", 2, 60), ("Many", 11, 10), ("Small", 2, 49), ("Solo", 1, 200),
    ]

    static func trackerData() throws -> TrackerData {
        var trackers: [String] = [], domains: [String] = [], entities: [String] = []
        for owner in owners {
            let prefix = owner.name.lowercased()
            let sites = (0..<owner.sites).map { "\(prefix)\($0).example" }
            for index in 0..<owner.trackers { trackers.append(tracker("\(prefix)-t\(index).test", owner: owner.name)) }
            domains += sites.map { #""\#($0)": "\#(owner.name)""# }
            entities.append(#""\#(owner.name)": {"domains": [\#(sites.map { #""\#($0)""# }.joined(separator: ","))]}"#)
        }
        let json = tds(trackers, entities: "{\(entities.joined(separator: ","))}", domains: "{\(domains.joined(separator: ","))}")
        return try TrackerData(parsing: Array(json.utf8), file: "test tds")
    }

    static func chosen(_ count: Int, floor: Int = 100) throws -> [String] {
        var settings = RuleListBuilder.Settings(target: .newest)
        settings.entityListsForMostSiteEntries = count
        settings.minimumSiteEntriesForEntityList = floor
        return RuleListBuilder(trackerData: try trackerData(), settings: settings).entitiesWithOwnLists(tailByteCount: 0).sorted()
    }

    @Test("the most site entries first, equal ones by name, none under the floor or with one section")
    func choice() throws {
        #expect(try Self.chosen(0) == [])
        #expect(try Self.chosen(1) == ["Big"])
        #expect(try Self.chosen(2) == ["Big", "Wide"])
        #expect(try Self.chosen(3) == ["Big", "Many", "Wide"])
        #expect(try Self.chosen(20) == ["Big", "Many", "Wide"])
        #expect(try Self.chosen(20, floor: 98) == ["Big", "Many", "Small", "Wide"])
        #expect(try Self.chosen(20, floor: 0) == ["Big", "Many", "Small", "Wide"])
    }

    @Test("each chosen entity's trackers move to a list of its own, and the lists block what one list blocks")
    func lists() throws {
        let data = try Self.trackerData()
        var settings = RuleListBuilder.Settings(target: .newest)
        let separated = RuleListBuilder(trackerData: data, settings: settings).build()
        settings.entityListsForMostSiteEntries = 0
        let single = RuleListBuilder(trackerData: data, settings: settings).build()
        #expect(single.ruleLists.count == 1)
        #expect(separated.ruleLists.count == 4, "main, Big, Many, Wide: \(separated.ruleLists.count)")
        // The main list names no chosen owner's sites any more; Small's two sections and Solo's
        // one still do.
        let siteEntries = separated.ruleLists[0].rules.reduce(0) { $0 + ($1.trigger.condition?.values.count ?? 0) }
        #expect(siteEntries == 2 * 49 + 200, "\(siteEntries) site entries in the main list")
        let evaluators = try [separated, single].map { try ReferenceEvaluator(ruleLists: $0.ruleLists, target: .newest) }
        var checked = 0
        for owner in Self.owners {
            let prefix = owner.name.lowercased()
            for page in ["https://news.test/", "https://www.\(prefix)0.example/", "https://\(prefix)9.example/x", "https://big1.example/"] {
                for url in ["https://\(prefix)-t0.test/x.js", "https://cdn.\(prefix)-t1.test/p"] {
                    let request = Request(url: url, topURL: page, resourceType: .script)
                    let answers = evaluators.map { $0.actions(for: request).isBlocked }
                    #expect(answers[0] == answers[1], "\(url) on \(page): entity lists \(answers[0]), one list \(answers[1])")
                    checked += 1
                }
            }
        }
        #expect(checked == 40)
    }
}
