import ContentRuleList
import DisconnectLists
import Foundation
import Testing
import TrackerlessCore
import TrackerlessTestSupport

/// Firefox's lists built by ``FirefoxRuleListBuilder`` in real WebKit (WebKitGTK through the
/// harness): every file compiles, and a web view with the strict lists blocks what
/// ``ReferenceEvaluator`` says, on real tracker requests and on the anchor-less false positives
/// (`tracker.com.evil.net`) that Firefox's own filters block. Run time: one compile run and two
/// load runs (about a minute).
@Suite(
    "Firefox's lists in WebKit",
    .enabled(if: WebKitHarness.shouldRun, "WebKitGTK (python3-gi, gir1.2-webkit2-4.1, xvfb) is not installed"),
    .enabled(if: SharedData.shouldRun("shavar"), SharedData.skipMessage))
struct FirefoxListsInWebKitTests {
    static let pinned = "shavar/firefox-ios-pinned-107.0"

    /// Our ten lists from each input Firefox may be given: the pinned normalized lists, and
    /// current master's Disconnect list.
    static func builtLists() throws -> [(id: String, ruleList: RuleList)] {
        let inputs = [
            ("pinned", try FirefoxListInputs(lists: SharedData.path(pinned), entities: nil)),
            ("master", try FirefoxListInputs(lists: SharedData.path("shavar/disconnect-blacklist.json"), entities: nil)),
        ]
        return inputs.flatMap { name, input in
            FirefoxRuleListBuilder(categoryLists: input.categoryLists, entityList: input.entityList).ruleLists().map {
                (id: "\(name) \($0.blocklist.fileName)", ruleList: $0.ruleList)
            }
        }
    }

    @Test("every file compiles in WebKitGTK")
    func compiles() throws {
        let harness = try #require(try WebKitHarness.make(), "WebKitGTK is not installed")
        let lists = try Self.builtLists()
        #expect(lists.count == 20)
        let results = try harness.compile(lists.map { (id: $0.id, json: $0.ruleList.encoded()) })
        for list in lists {
            let result = try #require(results[list.id], "no result for \(list.id)")
            #expect(result.ok, "\(list.id): \(result.error ?? "")")
        }
    }

    /// The loads: a deterministic sample of adblock-rust's real requests (those our strict lists
    /// block and some they do not), plus tracker hosts with a foreign suffix, which Firefox's
    /// filters match and ours must not.
    static func loads(strict: ReferenceEvaluator) -> [(load: WebKitHarness.LoadCase, request: Request)] {
        var blocked: [Request] = []
        var allowed: [Request] = []
        for (index, item) in MatchingTestRequest.all.enumerated() {
            // A page of the request's scheme, so that WebKit's mixed-content blocking of http
            // loads on https pages does not count as a block.
            guard let url = CanonicalURL(item.url), url.scheme == "http" || url.scheme == "https", !url.host.isEmpty
            else { continue }
            let request = Request(url: item.url, topURL: "\(url.scheme)://top-site.example/", resourceType: .script)
            if strict.actions(for: request).isBlocked {
                if index % 30 == 0 { blocked.append(request) }
            } else if index % 200 == 0 {
                allowed.append(request)
            }
        }
        let lookalikes = ["doubleclick.net", "google-analytics.com", "scorecardresearch.com", "adnxs.com", "criteo.com"]
            .map { Request(url: "https://\($0).evil.example/t.js", topURL: "https://top-site.example/", resourceType: .script) }
        let ownSite = [
            // Google's trackers on Google's own sites are first party to Firefox (unless-domain).
            Request(url: "https://www.google-analytics.com/analytics.js", topURL: "https://www.youtube.com/", resourceType: .script),
            Request(url: "https://www.google-analytics.com/analytics.js", topURL: "https://top-site.example/", resourceType: .script),
        ]
        return (blocked + allowed + lookalikes + ownSite).enumerated().map { index, request in
            (WebKitHarness.LoadCase(id: "\(index) \(request.url)", topURL: request.topURL, requestURL: request.url, type: "script"),
             request)
        }
    }

    @Test("a web view with the strict lists blocks what the reference evaluator blocks")
    func strictBlocking() throws {
        let harness = try #require(try WebKitHarness.make(), "WebKitGTK is not installed")
        let input = try FirefoxListInputs(lists: SharedData.path(Self.pinned), entities: nil)
        let builder = FirefoxRuleListBuilder(categoryLists: input.categoryLists, entityList: input.entityList)
        let strict = ProtectionLevel.strict.blocklists.map { builder.ruleList(for: $0) }
        let reference = try ReferenceEvaluator(ruleLists: strict)
        let cases = Self.loads(strict: reference)
        #expect(cases.count > 60)
        let results = try harness.load(ruleLists: strict.map { $0.encoded() }, cases: cases.map(\.load))
        var blockedCount = 0
        for (load, request) in cases {
            let webKit = try #require(results[load.id], "WebKit gave no result for \(load.id)")
            let expected = reference.actions(for: request).isBlocked
            if webKit.blocked { blockedCount += 1 }
            #expect(webKit.blocked == expected, "\(load.id) on \(load.topURL): WebKit \(webKit.detail)")
            if load.requestURL.contains(".evil.example/") { #expect(!webKit.blocked, "\(load.id)") }
        }
        #expect(blockedCount > 30)
    }

    @Test("Firefox's anchor-less filter blocks tracker.com.evil.example in WebKit; ours does not")
    func anchorlessFalsePositives() throws {
        let harness = try #require(try WebKitHarness.make(), "WebKitGTK is not installed")
        let domains = ["doubleclick.net", "adnxs.com", "criteo.com"]
        let firefoxStyle = RuleList(domains.map { domain in
            ContentRule(
                trigger: Trigger(
                    urlFilter: #"^https?://([^/]+\.)?"# + domain.replacingOccurrences(of: ".", with: #"\."#),
                    loadTypes: [.thirdParty]),
                action: .block)
        })
        let ours = RuleList(domains.compactMap(TrackerDomain.init).map { domain in
            ContentRule(
                trigger: Trigger(urlFilter: FirefoxRuleListBuilder.urlFilter(for: domain), loadTypes: [.thirdParty]),
                action: .block)
        })
        let cases = domains.flatMap { domain in
            [
                WebKitHarness.LoadCase(
                    id: "\(domain) lookalike", topURL: "https://top-site.example/",
                    requestURL: "https://\(domain).evil.example/t.js", type: "script"),
                WebKitHarness.LoadCase(
                    id: "\(domain) itself", topURL: "https://top-site.example/",
                    requestURL: "https://cdn.\(domain)/t.js", type: "script"),
            ]
        }
        let firefoxResults = try harness.load(ruleLists: [firefoxStyle.encoded()], cases: cases)
        let ourResults = try harness.load(ruleLists: [ours.encoded()], cases: cases)
        for load in cases {
            let isLookalike = load.id.hasSuffix("lookalike")
            #expect(firefoxResults[load.id]?.blocked == true, "Firefox's filter: \(load.id)")
            #expect(ourResults[load.id]?.blocked == !isLookalike, "ours: \(load.id)")
        }
    }
}
