import Foundation
import Testing
import TrackerlessTestSupport
import TrackerlessCore
@testable import ContentRuleList

/// Real data: DuckDuckGo's WebKit rule list and adblock-rust's labelled requests.
@Suite(
    "Reference evaluator on real data",
    .enabled(
        if: SharedData.shouldRun("tds/apple-tds.duckduckgo-rules.json")
            && SharedData.shouldRun("requests/matching-test-requests.json"),
        "../shared/data is absent (set TRACKERLESS_REQUIRE_SHARED_DATA=1 to fail instead)"))
struct ReferenceEvaluatorSharedDataTests {
    static let ruleList: RuleList? = SharedData.bytes("tds/apple-tds.duckduckgo-rules.json").flatMap {
        try? RuleListParser.parse($0, validatingPatterns: false).ruleList
    }

    /// adblock-rust's requests as loads; `sourceUrl` is often a placeholder such as `http://`.
    static let requests: [Request] = {
        guard let bytes = SharedData.bytes("requests/matching-test-requests.json"),
            case .array(let items)? = try? JSONParser.parse(bytes)
        else { return [] }
        let types: [String: ResourceType] = [
            "script": .script, "image": .image, "xhr": .fetch, "fetch": .fetch, "subdocument": .childDocument,
            "stylesheet": .styleSheet, "media": .media, "font": .font, "other": .other,
        ]
        return items.compactMap { item in
            guard case .object(let object) = item, case .string(let url)? = object["url"],
                case .string(let source)? = object["sourceUrl"], case .string(let type)? = object["type"]
            else { return nil }
            return Request(url: url, topURL: source, resourceType: types[type] ?? .other)
        }
    }()

    @Test func requestsAreLoaded() throws {
        #expect(Self.requests.count == 8_276)
        #expect(try #require(Self.ruleList).rules.count == 10_843)
    }

    @Test func literalPrefilterNeverChangesTheResult() throws {
        let list = try #require(Self.ruleList)
        let fast = try ReferenceEvaluator(ruleList: list)
        let thorough = try ReferenceEvaluator(ruleLists: [list], publicSuffixList: .bundled, usesLiteralPrefilter: false)
        var blocked = 0
        // Every 16th request keeps the exhaustive evaluator affordable in debug builds.
        for request in stride(from: 0, to: Self.requests.count, by: 16).map({ Self.requests[$0] }) {
            let expected = thorough.actions(for: request)
            #expect(fast.actions(for: request) == expected, "\(request.url) on \(request.topURL)")
            if expected.isBlocked { blocked += 1 }
        }
        #expect(blocked > 10)
    }

    @Test func wellKnownTrackers() throws {
        let evaluator = try ReferenceEvaluator(ruleList: #require(Self.ruleList))
        let analytics = Request(
            url: "https://www.google-analytics.com/analytics.js", topURL: "https://www.example.com/",
            resourceType: .script)
        #expect(evaluator.actions(for: analytics).isBlocked)
        // unless-domain: not on the tracker's own site.
        let onItself = Request(
            url: "https://ssl.google-analytics.com/analytics.js", topURL: "https://www.google-analytics.com/",
            resourceType: .script)
        #expect(!evaluator.actions(for: onItself).isBlocked)
        // An ignore-previous-rules exception with if-domain for sites the script is needed on.
        let exception = Request(
            url: "https://www.google-analytics.com/analytics.js", topURL: "https://www.raspberrypi.org/news",
            resourceType: .script)
        let result = evaluator.actions(for: exception)
        #expect(!result.isBlocked)
        #expect(result.lists[0].sawIgnorePreviousRules)
    }
}
