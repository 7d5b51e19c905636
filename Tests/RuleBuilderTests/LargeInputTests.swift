import ContentRuleList
@testable import RuleBuilder
import Testing
import TrackerDataKit

/// Inputs far larger than today's blocklists, generated so that the tests stay
/// fast: what must hold is that the lists are made and valid, or that what cannot fit is refused
/// with a message naming it and no list. How long they take and how much memory is in
/// BENCHMARKS.md (`--build-scaling-only`), not here.
@Suite("Large inputs: lists made and valid, or refused by name")
struct LargeInputTests {
    /// A tds of `count` trackers `t<i>.example`, each its own company, blocked by default; the
    /// even ones with a second site and one rule.
    static func trackerData(_ count: Int) throws -> TrackerData {
        var json: [UInt8] = []
        json.reserveCapacity(count * 220)
        json += Array(#"{"trackers": {"#.utf8)
        for index in 0..<count {
            if index > 0 { json.append(UInt8(ascii: ",")) }
            // An odd tracker has no rule and no other site: with the host-end layout its block
            // moves (four rules); an even one's rule and own-site exception keep it in place.
            let rules = index.isMultiple(of: 2) ? #"{"rule": "t\#(index)\\.example/ads/"}"# : ""
            json += Array(#""t\#(index).example": {"domain": "t\#(index).example", "owner": {"name": "C\#(index)"}, "default": "block", "rules": [\#(rules)]}"#.utf8)
        }
        json += Array(#"}, "entities": {"#.utf8)
        for index in 0..<count {
            if index > 0 { json.append(UInt8(ascii: ",")) }
            let sites = index.isMultiple(of: 2) ? #""t\#(index).example", "c\#(index).example""# : #""t\#(index).example""#
            json += Array(#""C\#(index)": {"domains": [\#(sites)]}"#.utf8)
        }
        json += Array(#"}, "domains": {"#.utf8)
        for index in 0..<count {
            if index > 0 { json.append(UInt8(ascii: ",")) }
            let site = index.isMultiple(of: 2) ? #", "c\#(index).example": "C\#(index)""# : ""
            json += Array(#""t\#(index).example": "C\#(index)"\#(site)"#.utf8)
        }
        json += Array("}}".utf8)
        return try TrackerData(parsing: json, file: "large-tds.json")
    }

    /// With the host-end layout (the webkitgtk targets) each tracker's default block is four
    /// rules, which the lists' limits count.
    @Test(
        "200,000 trackers: lists within WebKit's limits, each valid, every tracker blocked by its own rule",
        arguments: [WebKitTarget.oldest, .webKitGTK2_50])
    func manyTrackers(target: WebKitTarget) throws {
        let count = 200_000
        let trackerData = try Self.trackerData(count)
        #expect(trackerData.trackers.count == count)
        let build = RuleListBuilder(trackerData: trackerData, settings: .init(target: target)).build()
        #expect(build.refusal == nil)
        #expect(build.report.trackerCount == count)
        // Each tracker says its default block, an even one its rule's and exception too: more
        // than one list holds.
        #expect(build.ruleCount > RuleList.maximumRuleCount)
        #expect(build.ruleLists.count >= 2)
        let budget = RuleListBuilder.Settings(target: target).byteBudget
        for (index, list) in build.ruleLists.enumerated() {
            #expect(list.rules.count <= RuleList.maximumRuleCount, "list \(index + 1): \(list.rules.count) rules")
            #expect(list.encoded().count <= budget, "list \(index + 1)")
            #expect(throws: Never.self, "list \(index + 1)") { try list.validateTriggers(for: target) }
        }
        // Every tracker's default block is in exactly one list, said by its own source: one
        // rule, or the layout's four where it moves (the odd trackers').
        func rulesPerBlock(_ tracker: String) -> Int {
            guard HostEndLayout.isUsed(for: target), let index = Int(tracker.dropFirst().prefix { $0 != "." }) else { return 1 }
            return index.isMultiple(of: 2) ? 1 : 4
        }
        var blocks: [String: (list: Int, rules: Int)] = [:]
        for (listIndex, sources) in build.sources.enumerated() {
            for source in sources {
                guard case .defaultAction(let tracker)? = source.part else { continue }
                let seen = blocks[tracker, default: (listIndex, 0)]
                #expect(seen.list == listIndex, "\(tracker) in two lists")
                blocks[tracker] = (listIndex, seen.rules + 1)
            }
        }
        #expect(blocks.count == count)
        #expect(blocks.allSatisfy { $0.value.rules == rulesPerBlock($0.key) })
        #expect(HostEndLayout.isUsed(for: target) == blocks.values.contains { $0.rules == 4 })
        #expect(blocks["t0.example"] != nil && blocks["t\(count - 1).example"] != nil)
    }

    @Test("a 1,000,000-site user allowlist: refused, naming the user allowlist and the budget, without a list")
    func millionSiteAllowlist() throws {
        let sites = (0..<1_000_000).map { "site\($0).example" }
        let build = RuleListBuilder(trackerData: try Self.trackerData(3), userAllowlist: UserAllowlist(domains: sites)).build()
        #expect(build.ruleLists.isEmpty && build.sources.isEmpty)
        let refusal = try #require(build.refusal)
        guard case .partExceedsByteBudget(let list, let part, let byteCount, let budget) = refusal else {
            Issue.record("\(refusal)")
            return
        }
        #expect(list == "main list")
        #expect(budget == RuleListBuilder.Settings().byteBudget)
        // Each site is a pattern of about 40 bytes.
        #expect(byteCount > 1_000_000 * 30)
        // Named as the configuration's parts, whole: not cut at the first space ("the").
        #expect(part.contains("the user allowlist: 1 rule"), "\(part)")
        #expect(refusal.description.contains("\(budget)"), "\(refusal)")
    }

    @Test("a 1,000,000-site unprotected list of the configuration: refused, naming it, without a list")
    func millionSiteUnprotectedList() throws {
        var json = Array(#"{"features": {"contentBlocking": {"state": "enabled"}}, "unprotectedTemporary": ["#.utf8)
        for index in 0..<1_000_000 {
            if index > 0 { json.append(UInt8(ascii: ",")) }
            json += Array(#"{"domain": "site\#(index).example"}"#.utf8)
        }
        json += Array("]}".utf8)
        let configuration = try PrivacyConfiguration(parsing: json)
        #expect(configuration.unprotectedTemporary.count == 1_000_000)
        let build = RuleListBuilder(trackerData: try Self.trackerData(3), configuration: configuration).build()
        #expect(build.ruleLists.isEmpty)
        guard case .partExceedsByteBudget(_, let part, _, _)? = build.refusal else {
            Issue.record("\(String(describing: build.refusal))")
            return
        }
        #expect(part.contains("unprotectedTemporary and features.contentBlocking.exceptions: 1 rule"), "\(part)")
    }
}
