import ContentRuleList
@testable import RuleBuilder
import Testing
import TrackerDataKit
import TrackerlessCore
import TrackerlessTestSupport

/// DuckDuckGo's extension blocklist, where one company owns 1,803 trackers and 1,803 sites:
/// its trackers (and Microsoft's, with their CNAMEs) get lists of their own, which keeps all
/// lists together within 2.5 times apple-tds.json's; and on adblock-rust's 8,276 real request
/// URLs those lists block what the resolver blocks, on unrelated sites, on sites of those
/// companies (first party to their trackers only) and on sites spread over their lists.
@Suite(
    "extension-tds.json: lists of one company against the resolver",
    .enabled(
        if: SharedData.shouldRun(SharedData.matchingTestRequests) && SharedData.realBlocklists.allSatisfy(SharedData.shouldRun),
        SharedData.skipMessage))
struct RealEntityListTests {
    static func trackerData(_ file: String) throws -> TrackerData {
        try TrackerData(contentsOfFile: SharedData.path(file))
    }

    static func byteCount(_ build: RuleListBuild) -> Int {
        build.ruleLists.reduce(0) { $0 + $1.encoded().count }
    }

    @Test("all lists together, blocking and cookie, are at most 2.5 times apple-tds.json's")
    func size() throws {
        let apple = try Self.trackerData("tds/apple-tds.json")
        let extensionData = try Self.trackerData("tds/extension-tds.json")
        for (kind, build) in [
            ("blocking", { (data: TrackerData) in RuleListBuilder(trackerData: data).build() }),
            ("cookie", { (data: TrackerData) in CookieRules(trackerData: data).build() }),
        ] {
            let appleBuild = build(apple)
            let extensionBuild = build(extensionData)
            let (appleBytes, extensionBytes) = (Self.byteCount(appleBuild), Self.byteCount(extensionBuild))
            #expect(extensionBytes * 2 <= appleBytes * 5, "\(kind): \(extensionBytes) bytes against apple-tds.json's \(appleBytes)")
            if kind == "cookie" {
                #expect(extensionBuild.ruleLists.count > appleBuild.ruleLists.count, "\(kind): no company got lists of its own")
            }
        }
        // By bytes alone (the blocking lists also give the companies with the most repeated
        // site entries lists of their own, in both blocklists), extension-tds.json's large
        // companies get lists of their own and apple-tds.json's none.
        var byBytes = RuleListBuilder.Settings()
        byBytes.entityListsForMostSiteEntries = 0
        let appleLists = RuleListBuilder(trackerData: apple, settings: byBytes).build().ruleLists.count
        let extensionLists = RuleListBuilder(trackerData: extensionData, settings: byBytes).build().ruleLists.count
        #expect(extensionLists > appleLists, "blocking, by bytes: no company got lists of its own")
    }

    @Test("the lists block what the resolver blocks on every request, on unrelated sites and on those companies' sites")
    func agreement() throws {
        let trackerData = try Self.trackerData("tds/extension-tds.json")
        let builder = RuleListBuilder(trackerData: trackerData)
        let build = builder.build()
        var report = BuildReport()
        let tail = builder.configurationRules(report: &report).rules
        let separated = builder.entitiesWithOwnLists(tailByteCount: RuleListBuilder.approximateByteCount(of: tail)).sorted()
        #expect(separated.contains("Leven Labs, Inc. DBA Admiral"), "\(separated)")
        // Encoded and parsed back: the lists as WebKit is given them.
        let lists = try build.ruleLists.map { list throws(RuleListError) in try RuleList(parsing: list.encoded()) }
        let evaluator = try ReferenceEvaluator(ruleLists: lists, target: builder.settings.target)
        let resolver = TrackerResolver(trackerData: trackerData)

        // Each company's sites, sorted, and a few spread over them.
        var sitesByEntity: [String: [String]] = [:]
        for (domain, entity) in trackerData.domains where separated.contains(entity) { sitesByEntity[entity, default: []].append(domain) }
        let spread = sitesByEntity.mapValues { sites in
            let sorted = sites.sorted()
            return Set([0, sorted.count / 3, 2 * sorted.count / 3, sorted.count - 1].map { "https://www.\(sorted[$0])/" }).sorted()
        }
        let everyRequestPages = ["https://example.com/", "https://www.news-site.co.uk/article/1"]
            + separated.compactMap { spread[$0]?.first }

        var checked = 0, blocked = 0, mismatchCount = 0
        var mismatches: [String] = []
        for test in MatchingTestRequest.all {
            var pages = everyRequestPages
            if let owner = resolver.decision(forRequestURL: test.url, topURL: "https://example.com/", type: test.type)?.tracker?.owner?.name,
                let own = spread[owner]
            {
                pages += own
            }
            for page in pages {
                guard let decision = resolver.decision(forRequestURL: test.url, topURL: page, type: test.type) else { continue }
                let load: Request = test.type == .mainFrame
                    ? .mainDocument(test.url)
                    : Request(url: test.url, topURL: page, resourceType: test.type.webKitResourceTypes.first ?? .other)
                let webKit = evaluator.actions(for: load).isBlocked
                checked += 1
                if decision.isBlocked { blocked += 1 }
                guard webKit != decision.isBlocked else { continue }
                mismatchCount += 1
                if mismatches.count < 25 {
                    mismatches.append("\(test.rawType) \(test.url) on \(page): WebKit \(webKit), resolver \(decision.isBlocked) (\(decision.reason))")
                }
            }
        }
        #expect(mismatchCount == 0, "\(mismatchCount) of \(checked) loads differ; first ones:\n\(mismatches.joined(separator: "\n"))")
        // Guards against a vacuous pass.
        #expect(MatchingTestRequest.all.count == 8_276)
        #expect(checked > 30_000 && blocked > 1_500, "\(blocked) of \(checked) loads blocked")
    }
}
