import Testing
import TrackerDataKit
import TrackerlessCore
import TrackerlessTestSupport

/// The blocklists DuckDuckGo ships (../shared/data/tds): they must load without error, and every
/// rule must be usable.
@Suite("Real Tracker Radar blocklists", .enabled(if: SharedData.shouldRun, SharedData.skipMessage))
struct RealBlocklistTests {
    @Test("loads completely", arguments: ["apple-tds.json", "extension-tds.json"])
    func loads(_ file: String) throws {
        let tds = try TrackerData(contentsOfFile: SharedData.path("tds/\(file)"))
        #expect(tds.trackers.count == 2899)
        #expect(tds.domains.count == 6949)
        #expect(tds.warnings.isEmpty, "\(tds.warnings)")
        #expect(tds.builtWith != nil)
        #expect(tds.readme == "https://github.com/duckduckgo/tracker-blocklists")
        // Every tracker's owner is a listed entity, and every CNAME target is a tracker.
        #expect(tds.trackers.values.allSatisfy { tracker in tracker.owner.map { tds.entities[$0.name] != nil } ?? false })
        let resolver = TrackerResolver(trackerData: tds)
        #expect(resolver.warnings.isEmpty, "\(resolver.warnings)")
    }

    @Test("without entity records: the same trackers, domains, CNAMEs and warnings", arguments: ["apple-tds.json", "extension-tds.json"])
    func withoutEntityRecords(_ file: String) throws {
        let bytes = try FileIO.read(path: SharedData.path("tds/\(file)"))
        let full = try TrackerData(parsing: bytes, file: file)
        let read = try TrackerData(parsing: bytes, file: file, keepingEntityRecords: false)
        #expect(full.entities.count > 500)
        #expect(read.entities.isEmpty)
        #expect(read.trackers == full.trackers)
        #expect(read.domains == full.domains)
        #expect(read.cnames == full.cnames)
        #expect(read.warnings == full.warnings)
        #expect(read.builtWith == full.builtWith)
        #expect(read.readme == full.readme)
    }

    @Test("apple-tds.json: counts and Click-to-Load actions")
    func appleCounts() throws {
        let tds = try TrackerData(contentsOfFile: SharedData.path("tds/apple-tds.json"))
        let rules = tds.trackers.values.flatMap(\.rules)
        #expect(rules.count == 2125)
        #expect(rules.filter { $0.surrogate != nil }.count == 35)
        #expect(rules.filter { if case .blockClickToLoad? = $0.action { true } else { false } }.count == 11)
        #expect(tds.entities.count == 2620)
        #expect(tds.cnames.count == 177)
    }

    @Test("apple-tds.json: a few well-known decisions")
    func wellKnown() throws {
        let tds = try TrackerData(contentsOfFile: SharedData.path("tds/apple-tds.json"))
        let resolver = TrackerResolver(trackerData: tds)
        let analytics = try #require(resolver.decision(
            forRequestURL: "https://www.google-analytics.com/analytics.js", topURL: "https://example.com/", type: .script))
        #expect(analytics.isBlocked)
        #expect(analytics.tracker?.domain == "google-analytics.com")
        #expect(analytics.entity?.name == "Google Analytics")
        #expect(analytics.tracker?.owner?.ownedBy == "Google LLC")
        // First party means the same entity, not the same parent company: DuckDuckGo blocks
        // Google Analytics on YouTube (entity "Youtube"), but not DoubleClick on another
        // "Google Ads" property.
        let onYouTube = try #require(resolver.decision(
            forRequestURL: "https://www.google-analytics.com/analytics.js", topURL: "https://www.youtube.com/", type: .script))
        #expect(onYouTube.isBlocked)
        let sameEntity = try #require(resolver.decision(
            forRequestURL: "https://ad.doubleclick.net/ddm/x", topURL: "https://www.googleadservices.com/", type: .script))
        #expect(sameEntity.action == .ignore)
        #expect(sameEntity.reason == .firstParty)
    }
}
