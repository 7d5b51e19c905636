import Foundation
import NavigationProtections
import Testing
import TrackerDataKit
@testable import TrackerlessRuntime

@Suite("Warm launch: the set from the cache at once, the blocklist parsed on first use")
struct WarmLaunchTests {
    @Test("a set loaded from the cache has not parsed the blocklist; its resolver parses it on first use and decides as the built set's")
    func deferredResolver() throws {
        let directory = try RuntimeFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let built = try ProtectionSet.load(RuntimeFixture.inputs, cacheDirectory: directory)
        #expect(built.inputs.hasParsedTrackerData)
        let cached = try ProtectionSet.load(RuntimeFixture.inputs, cacheDirectory: directory)
        #expect(cached.origin == .cache)
        #expect(!cached.inputs.hasParsedTrackerData)
        for (url, type) in [("https://ads.example/banner.png", RequestType.image), ("https://social.example/widget.js", .script),
                            ("https://news.example/logo.png", .image), ("https://cdn.other.example/app.js", .script)] {
            let site = "https://news.example/"
            #expect(cached.resolver.decision(forRequestURL: url, topURL: site, type: type)?.action
                == built.resolver.decision(forRequestURL: url, topURL: site, type: type)?.action, "\(url)")
        }
        #expect(cached.inputs.hasParsedTrackerData)
        #expect(cached.inputs.failure == nil)
    }

    @Test("a set loaded from the cache decides navigations from its navigation data, as the built set does, without parsing the blocklist")
    func navigationWithoutTheBlocklist() throws {
        let directory = try RuntimeFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let inputs = NavigationDataTests.inputs(ProtectionInputs.sample.trackerData)
        let built = try ProtectionSet.load(inputs, cacheDirectory: directory)
        let cached = try ProtectionSet.load(inputs, cacheDirectory: directory)
        #expect(cached.origin == .cache)
        let urls = NavigationDataTests.sampleURLs
        var applied = 0
        for page in urls {
            for url in urls {
                let navigation = Navigation(url: url, initiator: page, referrer: page)
                let decision = cached.navigationProtector.decision(for: navigation)
                #expect(decision == built.navigationProtector.decision(for: navigation), "\(page) -> \(url)")
                if !decision.reasons.isEmpty { applied += 1 }
            }
        }
        #expect(applied > 0, "the decisions compared apply some protection")
        // With sites turned off, as a runtime's toggles do.
        let toggled = cached.navigationProtector(userAllowlist: UserAllowlist(domains: ["news.example", "allowed.example"]))
        let navigation = Navigation(url: "https://news.example/story?utm_source=x", initiator: "https://metrics.example/")
        #expect(toggled.decision(for: navigation).url == navigation.url)
        #expect(built.navigationProtector.decision(for: navigation).url != navigation.url)
        #expect(!cached.inputs.hasParsedTrackerData, "the navigation decision parsed the blocklist")
    }

    @Test("a blocklist that fails its deferred parse leaves a resolver that knows no tracker, and says why")
    func deferredFailure() throws {
        var inputs = RuntimeFixture.inputs
        inputs.trackerData = .bytes(Array(#"{"trackers": {"#.utf8), name: "tds-cut.json")
        let bytes = try inputs.read()
        let deferred = DeferredInputs(bytes: bytes, others: try bytes.parseOthers())
        #expect(deferred.resolver.trackerData.trackers.isEmpty)
        let failure = try #require(deferred.failure)
        #expect(failure.input == .trackerData)
        #expect(failure.description.contains("tds-cut.json"))
    }

    @Test("relaunches one after another in one process: each loads from the cache and opens the statistics' store, and classifies at once")
    func relaunches() throws {
        let directory = try RuntimeFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(try ProtectionRuntime(inputs: RuntimeFixture.inputs, cacheDirectory: directory).currentSet.origin == .built)
        let page = "https://news.example/today"
        for round in 0..<3 {
            // The previous runtime is gone: its background parse must not hold the store.
            let runtime = try ProtectionRuntime(inputs: RuntimeFixture.inputs, cacheDirectory: directory)
            #expect(runtime.currentSet.origin == .cache, "round \(round)")
            runtime.didCommitNavigation(tab: "1", url: page)
            let message = RuntimeFixture.message(
                secret: runtime.secret, page: page, requests: [("https://social.example/widget.js", "script", "failed")])
            #expect(runtime.receive(.json(message), tab: "1").isAccepted)
            #expect(runtime.stats.snapshot(tab: "1").trackers.blocked == 1, "round \(round)")
            #expect(runtime.lastStorageError == nil)
        }
    }
}
