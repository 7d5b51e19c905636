import Testing
import TrackerDataKit
import TrackerlessCore
import TrackerlessTestSupport

/// privacy-reference-tests/click-to-load: every case through ``TrackerResolver`` with the case's
/// `userUnblockedRuleActions`, no platform exception.
@Suite("Click-to-Load reference tests", .enabled(if: SharedData.shouldRun, SharedData.skipMessage))
struct ClickToLoadReferenceTests {
    static let resolver = Result { () throws(TrackerDataError) in
        let (trackerData, configuration, surrogates) = try ClickToLoadCase.loadFixture()
        return TrackerResolver(trackerData: trackerData, surrogates: surrogates, privacyConfiguration: configuration)
    }

    @Test("the suite has its 17 cases, none skipped for a platform")
    func suiteSize() {
        #expect(ClickToLoadCase.all.count == 17)
        #expect(ClickToLoadCase.all.allSatisfy { $0.exceptPlatforms.isEmpty })
    }

    @Test("blocked, redirected or ignored", arguments: ClickToLoadCase.all)
    func referenceCase(_ test: ClickToLoadCase) throws {
        let decision = try #require(try Self.resolver.get().decision(
            forRequestURL: test.requestURL, topURL: test.topURL, type: .script,
            userUnblockedRuleActions: Set(test.userUnblockedRuleActions)))
        let outcome = switch decision.action {
        case .block?: "block"
        case .redirect?: "redirect"
        case .ignore?, nil: "ignore"
        }
        #expect(outcome == test.expectedOutcome, "reason: \(decision.reason.rawValue)")
    }
}

/// Click-to-Load rules on a blocklist a reader can check by eye.
@Suite("Click-to-Load in the resolver")
struct ClickToLoadResolverTests {
    static let trackerData = TrackerData(
        trackers: [
            "video.example": Tracker(
                domain: "video.example", owner: .init(name: "Video Co"), defaultAction: .block,
                rules: [
                    .init(rule: #"video\.example/embed"#, action: .blockClickToLoad("block-ctl-video")),
                    .init(rule: #"video\.example/embed/ok"#, action: .ignore),
                ])
        ],
        entities: ["Video Co": Entity(name: "Video Co", domains: ["video.example", "video-owner.example"])],
        domains: ["video.example": "Video Co", "video-owner.example": "Video Co"])

    static func configuration(state: String = "enabled", entityState: String = "enabled") -> PrivacyConfiguration {
        let entity = JSONObject([("state", .string(entityState)), ("ruleActions", .array([.string("block-ctl-video")]))])
        return PrivacyConfiguration(features: [
            "contentBlocking": .init(state: .enabled),
            "clickToLoad": .init(
                state: .init(rawValue: state), exceptions: [.init(domain: "off.example")],
                settings: .object(JSONObject([("Video Co", .object(entity))]))),
        ])
    }

    func action(
        _ url: String, on site: String = "https://news.example/", unblocked: Set<String> = [],
        configuration: PrivacyConfiguration? = configuration()
    ) throws -> BlockingDecision.Action? {
        let resolver = TrackerResolver(trackerData: Self.trackerData, privacyConfiguration: configuration)
        return try #require(resolver.decision(
            forRequestURL: url, topURL: site, type: .subdocument, userUnblockedRuleActions: unblocked)).action
    }

    @Test("a CTL rule blocks until its action is unblocked; then it is skipped and the next rule decides")
    func unblocking() throws {
        #expect(try action("https://video.example/embed/1") == .block)
        // Skipped, not turned into an ignore: the tracker's default still blocks other URLs...
        #expect(try action("https://video.example/embed/1", unblocked: ["block-ctl-video"]) == .block)
        // ...and the later ignore rule decides the URLs it matches.
        #expect(try action("https://video.example/embed/ok", unblocked: ["block-ctl-video"]) == .ignore)
        #expect(try action("https://video.example/embed/ok") == .block)
        #expect(try action("https://video.example/embed/ok", unblocked: ["block-ctl-other"]) == .block)
    }

    @Test("without a configuration every CTL action blocks; with one, only where clickToLoad says so")
    func configurationGates() throws {
        let url = "https://video.example/embed/ok"
        #expect(try action(url, configuration: nil) == .block)
        #expect(try action(url, unblocked: ["block-ctl-video"], configuration: nil) == .ignore)
        #expect(try action(url, configuration: Self.configuration(state: "disabled")) == .ignore)
        #expect(try action(url, configuration: Self.configuration(entityState: "disabled")) == .ignore)
        #expect(try action(url, on: "https://www.off.example/") == .ignore)
        let resolver = TrackerResolver(trackerData: Self.trackerData, privacyConfiguration: Self.configuration())
        #expect(resolver.isClickToLoadBlocking("block-ctl-video", siteHost: "news.example"))
        #expect(!resolver.isClickToLoadBlocking("block-ctl-video", siteHost: "off.example"))
        #expect(!resolver.isClickToLoadBlocking("block-ctl-other", siteHost: "news.example"))
    }
}
