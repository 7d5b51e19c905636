import Foundation
import ContentRuleList
@testable import RuleBuilder
import Testing
import TrackerDataKit
import TrackerlessCore
import TrackerlessTestSupport

/// `buildLettingGoOfTrackerRules()`: the lists, sources and report of `build(checkingTriggers:
/// false)`, while each tracker's rules go once its section is made (but a CNAME target's, which
/// its CNAME's section reads again, and those of the Click-to-Load lists, taken before).
@Suite("Letting go of each tracker's rules once its section is made")
struct LettingGoOfTrackerRulesTests {
    /// Nested trackers of other owners, a CNAME to a tracker, Click-to-Load rules, an entity
    /// with three sites, and lists of at most 12 rules: every reader of the blocklist after a section.
    static let json = #"""
        {"trackers": {
          "a.example": {"domain": "a.example", "default": "block", "owner": {"name": "A"},
            "rules": [{"rule": "a\\.example/ok", "action": "ignore"}, {"rule": "a\\.example/px", "exceptions": {"domains": ["s.example"]}}]},
          "sub.a.example": {"domain": "sub.a.example", "default": "ignore", "owner": {"name": "B"},
            "rules": [{"rule": "sub\\.a\\.example/ads"}, {"rule": "sub\\.a\\.example/embed", "action": "block-ctl-yt"}]},
          "c.example": {"domain": "c.example", "default": "block", "owner": {"name": "C"},
            "rules": [{"rule": "c\\.example/track"}, {"rule": "c\\.example/fb", "action": "block-ctl-fb"}]},
          "d.example": {"domain": "d.example", "default": "ignore", "owner": {"name": "A"},
            "rules": [{"rule": "d\\.example/p"}, {"rule": "d\\.example/q", "options": {"types": ["script"]}}]}
        },
        "entities": {"A": {"domains": ["a.example", "s.example", "d.example"]}, "B": {"domains": ["sub.a.example"]}, "C": {"domains": ["c.example"]}},
        "domains": {"a.example": "A", "s.example": "A", "d.example": "A", "sub.a.example": "B", "c.example": "C"},
        "cnames": {"cloak.site.example": "c.example", "other.example": "d.example"}}
        """#

    static func expectSame(_ released: RuleListBuild, _ kept: RuleListBuild) {
        #expect(released.ruleLists.map { $0.encoded() } == kept.ruleLists.map { $0.encoded() })
        #expect(released.clickToLoadActions == kept.clickToLoadActions)
        #expect(released.sources == kept.sources)
        #expect(released.report.skippedRules.map(\.description) == kept.report.skippedRules.map(\.description))
        #expect(released.report.approximations.map(\.description) == kept.report.approximations.map(\.description))
        #expect(released.report.listSizes.map(\.description) == kept.report.listSizes.map(\.description))
        #expect(released.report.trackerCount == kept.report.trackerCount)
    }

    @Test("a small blocklist in lists of 12 rules: the same lists, sources and report; only the CNAMEs' targets keep their rules")
    func sameLists() throws {
        let data = try TrackerData(parsing: Array(Self.json.utf8))
        var builder = RuleListBuilder(trackerData: data, settings: .init(maximumRulesPerList: 12))
        let kept = builder.build(checkingTriggers: false)
        let released = builder.buildLettingGoOfTrackerRules()
        #expect(kept.refusal == nil)
        #expect(kept.clickToLoadActions.filter { $0 == nil }.count > 1, "one main list: \(kept.report.listSizes)")
        #expect(kept.clickToLoadActions.contains("block-ctl-fb") && kept.clickToLoadActions.contains("block-ctl-yt"))
        Self.expectSame(released, kept)
        let withRules = builder.trackerData.trackers.filter { !$0.value.rules.isEmpty }.keys.sorted()
        #expect(withRules == ["c.example", "d.example"])
        #expect(builder.trackerData.trackers.count == data.trackers.count)
    }

    /// The lists of `made` with each list handed over put back in its place.
    static func puttingBack(_ made: (build: RuleListBuild, handedOver: [Int?]), _ handed: [Int: RuleList]) -> RuleListBuild {
        var build = made.build
        for (index, number) in made.handedOver.enumerated() {
            guard let number else { continue }
            #expect(build.ruleLists[index].rules.isEmpty, "list \(index) is held although handed over")
            build.ruleLists[index] = handed[number] ?? RuleList([])
        }
        return build
    }

    /// Also for a target with the host-end layout, whose lists are laid out as they are handed
    /// over, and by the plan where they are kept: the same lists either way.
    @Test(
        "lists handed over as they are packed (main and entity lists): put back, the lists and report of build(checkingTriggers: false)",
        arguments: [WebKitTarget.oldest, .webKitGTK2_50])
    func handedOverAsPacked(target: WebKitTarget) throws {
        // And a tracker whose section is longer than the smallest lists (left out with a note),
        // between the others: the list it lies in is not one whole array, and is kept. With the
        // host-end layout a block is four rules and each list ends with its fix-up too: the
        // smallest lists that hold every other section are 9 rules, not 6, and there only entity
        // A's first list is closed before the end (handed over, laid out as it is).
        let (smallest, medium) = HostEndLayout.isUsed(for: target) ? (9, 16) : (6, 12)
        let long = (0..<(smallest + 1)).map { #"{"rule": "e\\.example/p\#($0)"}"# }.joined(separator: ", ")
        let withLong = Self.json.replacingOccurrences(
            of: #""d.example": {"#, with: #""e.example": {"domain": "e.example", "default": "ignore", "owner": {"name": "C"}, "rules": [\#(long)]}, "d.example": {"#)
        for (json, maximum) in [(Self.json, smallest), (Self.json, medium), (Self.json, 40), (withLong, smallest), (withLong, medium)] {
            let data = try TrackerData(parsing: Array(json.utf8))
            var settings = RuleListBuilder.Settings(maximumRulesPerList: maximum, target: target)
            settings.recordsRuleSources = false
            settings.minimumBytesSavedByEntityList = -1_000_000
            var builder = RuleListBuilder(trackerData: data, settings: settings)
            let kept = builder.build(checkingTriggers: false)
            var handed: [Int: RuleList] = [:]
            let made = builder.buildLettingGoOfTrackerRules { number, list in
                #expect(handed[number] == nil)
                handed[number] = list
            }
            #expect(made.handedOver.count == made.build.ruleLists.count)
            #expect(made.handedOver.compactMap { $0 }.sorted() == Array(handed.keys).sorted())
            if json == withLong, maximum == smallest {
                #expect(kept.report.skippedRules.contains { $0.path.contains("e.example") }, "\(kept.report.skippedRules)")
            }
            if maximum == smallest {
                #expect(handed.count >= (HostEndLayout.isUsed(for: target) ? 1 : 2), "\(kept.report.listSizes)")
                if HostEndLayout.isUsed(for: target) {
                    #expect(handed.values.allSatisfy { $0.rules.contains(HostEndLayout.passwordFixUp) })
                    // Laid out as handed over: its fix-up after its moved blocks (none moves
                    // here: each of A's blocks shares its automaton with a rule of its host).
                    #expect(handed.values.allSatisfy { HostEndLayout.order(of: $0.rules) == Array($0.rules.indices) })
                }
                #expect(kept.report.listSizes.contains { $0.name.hasPrefix("entity") }, "\(kept.report.listSizes)")
            }
            Self.expectSame(Self.puttingBack(made, handed), kept)
        }
    }

    @Test("with the sources recorded, no list is handed over")
    func sourcesKeepTheLists() throws {
        var builder = RuleListBuilder(trackerData: try TrackerData(parsing: Array(Self.json.utf8)), settings: .init(maximumRulesPerList: 6))
        let kept = builder.build(checkingTriggers: false)
        var handed = 0
        let made = builder.buildLettingGoOfTrackerRules { _, _ in handed += 1 }
        #expect(handed == 0 && made.handedOver.allSatisfy { $0 == nil })
        Self.expectSame(made.build, kept)
    }

    @Test(
        "apple-tds.json and extension-tds.json (entity lists): the same lists, sources and report",
        .enabled(if: SharedData.realBlocklists.allSatisfy(SharedData.shouldRun), SharedData.skipMessage),
        arguments: [WebKitTarget.oldest, .webKitGTK2_50])
    func realBlocklists(target: WebKitTarget) throws {
        for file in SharedData.realBlocklists {
            var builder = RuleListBuilder(trackerData: try TrackerData(contentsOfFile: SharedData.path(file)), settings: .init(target: target))
            let kept = builder.build(checkingTriggers: false)
            let withRules = builder.trackerData.trackers.values.filter { !$0.rules.isEmpty }.count
            Self.expectSame(builder.buildLettingGoOfTrackerRules(), kept)
            let left = builder.trackerData.trackers.values.filter { !$0.rules.isEmpty }.count
            #expect(left * 2 < withRules, "\(file): \(left) of \(withRules) trackers keep their rules")
            // Handed over as packed, in lists of 1,500 rules (several main and entity lists).
            var settings = RuleListBuilder.Settings(maximumRulesPerList: 1_500, target: target)
            settings.recordsRuleSources = false
            let data = try TrackerData(contentsOfFile: SharedData.path(file))
            var streaming = RuleListBuilder(trackerData: data, settings: settings)
            let small = streaming.build(checkingTriggers: false)
            var handed: [Int: RuleList] = [:]
            let made = streaming.buildLettingGoOfTrackerRules { number, list in handed[number] = list }
            #expect(!handed.isEmpty, "\(file): \(small.report.listSizes)")
            Self.expectSame(Self.puttingBack(made, handed), small)
        }
    }
}
