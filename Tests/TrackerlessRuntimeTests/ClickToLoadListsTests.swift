import Foundation
import Testing
import TrackerlessRuntime

/// The Click-to-Load lists of a set: one per rule action, named by it, and left out of the lists
/// for a page where the user clicked to load that action's embeds; the cache keeps the action.
@Suite("ProtectionSet: Click-to-Load lists")
struct ClickToLoadListsTests {
    static let inputs = ProtectionInputs(trackerData: .bytes(Array(#"""
        {"trackers": {
           "video.example": {"domain": "video.example", "owner": {"name": "Video Co"}, "default": "block",
             "rules": [{"rule": "video\\.example/embed/", "action": "block-ctl-video"}]},
           "social.example": {"domain": "social.example", "owner": {"name": "Social Co"}, "default": "ignore",
             "rules": [{"rule": "social\\.example/plugin", "action": "block-ctl-social"}]}},
         "entities": {"Video Co": {"domains": ["video.example"]}, "Social Co": {"domains": ["social.example"]}},
         "domains": {"video.example": "Video Co", "social.example": "Social Co"}}
        """#.utf8), name: "tds.json"))

    @Test("one list per action after the blocking list; a page's lists leave out the unblocked actions'")
    func lists() throws {
        let set = try ProtectionSet.build(Self.inputs)
        let clickToLoad = set.ruleLists.filter { $0.kind == .clickToLoad }
        #expect(clickToLoad.map(\.clickToLoadAction) == ["block-ctl-social", "block-ctl-video"])
        #expect(clickToLoad.allSatisfy { $0.identifier.hasPrefix("trackerless-clickToLoad-") })
        #expect(set.ruleLists.filter { $0.kind != .clickToLoad }.allSatisfy { $0.clickToLoadAction == nil })
        #expect(set.ruleLists(unblocking: []) == set.ruleLists)
        let page = set.ruleLists(unblocking: ["block-ctl-video"])
        #expect(page.count == set.ruleLists.count - 1)
        #expect(!page.contains { $0.clickToLoadAction == "block-ctl-video" })
        #expect(page.contains { $0.clickToLoadAction == "block-ctl-social" })
        // The engine (hosts without WebKit) holds every list: Click-to-Load embeds stay blocked there.
        #expect(set.resolver.decision(forRequestURL: "https://video.example/embed/1", topURL: "https://news.example/", type: .subdocument)?.isBlocked == true)
    }

    @Test("a navigation plan's lists for a page with unblocked actions; none where protection is off")
    func navigationPlan() throws {
        let directory = try RuntimeFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let runtime = try ProtectionRuntime(inputs: Self.inputs, cacheDirectory: directory)
        let plan = runtime.navigationPlan(for: "https://news.example/")
        #expect(plan.ruleLists(unblocking: ["block-ctl-video"]) == runtime.currentSet.ruleLists(unblocking: ["block-ctl-video"]))
        try runtime.setProtection(false, forSite: "news.example")
        #expect(runtime.navigationPlan(for: "https://news.example/").ruleLists(unblocking: ["block-ctl-video"]).isEmpty)
    }

    @Test("the cache keeps each list's action")
    func cache() throws {
        let directory = try RuntimeFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let built = try ProtectionSet.load(Self.inputs, cacheDirectory: directory)
        let cached = try ProtectionSet.load(Self.inputs, cacheDirectory: directory)
        #expect(cached.origin == .cache)
        #expect(cached.ruleLists == built.ruleLists)
        #expect(cached.ruleLists.compactMap(\.clickToLoadAction) == ["block-ctl-social", "block-ctl-video"])
    }
}
