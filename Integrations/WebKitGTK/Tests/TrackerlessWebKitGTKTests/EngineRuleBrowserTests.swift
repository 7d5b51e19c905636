import ContentRuleList
import Foundation
import RequestHookKit
import RuleBuilder
import Testing
import TrackerDataKit
import TrackerlessWebKitGTK

/// Engine mode names the rule that blocked each request: the web-process extension sends the
/// engine's list and rule index with each blocked request, the UI process records them
/// (`NativeObservation.engineRule`) and the runtime adds the rule's source from its set; the
/// snapshot's `engineRules` must then name the rule the reference evaluator finds on the same
/// lists, built again here from the same blocklist.
@Suite("The WebKitGTK browser in engine mode names each blocking rule", .serialized, .enabled(if: BrowserProcess.canRun, BrowserProcess.skipMessage))
struct EngineRuleBrowserTests {
    /// The request as the extension sees it for an entry of a page's list (`Sec-Fetch-Dest` from
    /// its type); an `xmlhttprequest` may be a fetch or a beacon, so both.
    static func hookedRequests(_ request: PageRequests.Request, page: String) -> [HookedRequest] {
        switch request.type {
        case "script": [HookedRequest(url: request.url, topURL: page, fetchDestination: "script")]
        case "image": [HookedRequest(url: request.url, topURL: page, fetchDestination: "image")]
        case "subdocument": [HookedRequest(url: request.url, topURL: page, fetchDestination: "iframe")]
        case "ping": [HookedRequest(url: request.url, method: "POST", topURL: page, fetchDestination: "empty", isPing: true)]
        default: [
            HookedRequest(url: request.url, topURL: page, fetchDestination: "empty", fetchMode: "cors"),
            HookedRequest(url: request.url, method: "POST", topURL: page, fetchDestination: "empty", fetchMode: "no-cors"),
        ]
        }
    }

    /// The first list's block rule of `actions`, as `decide --explain` names the block.
    static func blockingRule(_ actions: AppliedActions) -> [Int]? {
        for (list, listActions) in actions.lists.enumerated() {
            if let rule = zip(listActions.actions, listActions.ruleIndices).first(where: { $0.0 == .block })?.1 { return [list, rule] }
        }
        return nil
    }

    @Test("news.example and hostile.example: each host's engineRules name the rule the reference evaluator blocks with, and its tds source",
          arguments: ["https://news.example/", "https://hostile.example/"])
    func engineRulesNameTheBlockingRule(page: String) throws {
        let proxy = try BrowserProcess.SiteProxy()
        let cache = try BrowserProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: cache) }
        let run = try BrowserProcess.runHeadless(urls: [page], proxy: proxy, cache: cache, extraArguments: ["--mode", "engine"])
        #expect(run.status == 0, "\(run.standardError)")
        let snapshot = try #require(run.snapshots.first)

        // The lists the browser's set compiles into its engine, built again from the same tds.
        let trackerData = try TrackerData(contentsOfFile: BrowserProcess.sharedData.appendingPathComponent("tds/apple-tds.json").path)
        let build = RuleListBuilder(trackerData: trackerData, settings: RuleListBuilder.Settings(target: .runningWebKitGTK)).build()
        let evaluator = try ReferenceEvaluator(ruleLists: build.ruleLists)
        var expected: [String: Set<[Int]>] = [:]
        for request in try PageRequests(page: page).requests {
            for hooked in Self.hookedRequests(request, page: page) {
                if let rule = Self.blockingRule(evaluator.actions(for: hooked.engineRequest)), let host = URL(string: request.url)?.host {
                    expected[host, default: []].insert(rule)
                }
            }
        }
        #expect(!expected.isEmpty)

        var named = 0
        for company in snapshot["companies"] as? [[String: Any]] ?? [] {
            for host in company["hosts"] as? [[String: Any]] ?? [] {
                let name = host["host"] as? String ?? "?"
                let rules = host["engineRules"] as? [[String: Any]] ?? []
                if host["state"] as? String == "blocked" {
                    #expect(!rules.isEmpty, "\(name): blocked, and no engine rule named: \(host)")
                }
                for entry in rules {
                    let list = try #require(entry["list"] as? Int), rule = try #require(entry["rule"] as? Int)
                    #expect(expected[name]?.contains([list, rule]) == true,
                            "\(name): engine named list \(list) rule \(rule); the reference evaluator blocks with \(expected[name] ?? [])")
                    // The source the runtime's set gives is the builder's for that rule.
                    guard list < build.sources.count, rule < build.sources[list].count else {
                        Issue.record("\(name): list \(list) rule \(rule) is not a rule of the build")
                        continue
                    }
                    let source = try JSONSerialization.jsonObject(with: Data(build.sources[list][rule].jsonValue().jsonString().utf8))
                    #expect((entry["source"] as? NSDictionary) == (source as? NSDictionary), "\(name): \(entry)")
                    named += 1
                }
            }
        }
        #expect(named >= 3, "\(snapshot["companies"] ?? [])")
    }
}
