import ContentRuleList
import RuleBuilder
import Testing
import TrackerDataKit
import TrackerlessCore
import TrackerlessTestSupport

@testable import RuleEngineKit

/// Each applied action names its list and the index of its rule in that list: the first of the
/// matched rules that share its action location, by the engine, the engine read back from its
/// compiled file and the reference evaluator alike; a decision that does not ask names none.
@Suite("Applied actions name their rules")
struct AppliedRuleTests {
    /// Blocks by two patterns (one location: same action and flags), a cookie rule, an exception
    /// for `/consent/`, css on news pages, and in a second list a block of `.gif`.
    static let lists = [
        #"""
        [{"trigger":{"url-filter":"ads\\.example"},"action":{"type":"block"}},
         {"trigger":{"url-filter":"/pixel"},"action":{"type":"block"}},
         {"trigger":{"url-filter":"/pixel","resource-type":["image"]},"action":{"type":"block-cookies"}},
         {"trigger":{"url-filter":"/consent/"},"action":{"type":"ignore-previous-rules"}},
         {"trigger":{"url-filter":".*","if-domain":["*news.example"]},"action":{"type":"css-display-none","selector":".ad"}},
         {"trigger":{"url-filter":"ads\\.example/a"},"action":{"type":"block"}}]
        """#,
        #"[{"trigger":{"url-filter":"\\.gif$"},"action":{"type":"block"}}]"#,
    ]

    /// A load, and the expected (list, rule) of each applied action in application order.
    static let cases: [(Request, [(list: Int, rule: Int)])] = [
        (Request(url: "https://ads.example/x.js", topURL: "https://shop.example/", resourceType: .script), [(0, 0)]),
        // Rules 0 and 1 match and share one location: the first names it. Rule 5, after the
        // exception, has a location of its own.
        (Request(url: "https://ads.example/a/pixel", topURL: "https://shop.example/", resourceType: .script), [(0, 0), (0, 5)]),
        (Request(url: "https://cdn.example/pixel", topURL: "https://shop.example/", resourceType: .script), [(0, 1)]),
        (Request(url: "https://cdn.example/pixel.gif", topURL: "https://www.news.example/", resourceType: .image),
         [(0, 1), (0, 2), (0, 4), (1, 0)]),
        // The exception cancels the first list's actions; the second list's stays.
        (Request(url: "https://ads.example/consent/p.gif", topURL: "https://shop.example/", resourceType: .image), [(1, 0)]),
        (Request(url: "https://cdn.example/app.js", topURL: "https://shop.example/", resourceType: .script), []),
    ]

    @Test("the engine, the compiled engine and the evaluator name the same rules, as written out here")
    func namedRules() throws {
        let lists = try Self.lists.map { try RuleList(parsing: $0) }
        let engine = try RuleEngine(ruleLists: lists)
        let loaded = try RuleEngine(compiled: engine.compiled())
        let reference = try ReferenceEvaluator(ruleLists: lists)
        var cache = RuleEngine.PageCache()
        for (request, expected) in Self.cases {
            let actions = engine.actions(for: request, cache: &cache)
            var named: [(list: Int, rule: Int)] = []
            for (index, list) in actions.lists.enumerated() {
                #expect(list.ruleIndices.count == list.actions.count, "\(request.url)")
                named += list.ruleIndices.map { (index, $0) }
            }
            #expect(named.map { "\($0.list):\($0.rule)" } == expected.map { "\($0.list):\($0.rule)" }, "\(request.url)")
            let answer = reference.actions(for: request)
            #expect(actions == answer, "\(request.url): evaluator \(describe(answer))")
            #expect(loaded.actions(for: request) == actions, "\(request.url): compiled engine")
            // The decision does not ask: the same actions, no rules, the same summary.
            let decision = engine.decision(for: request, cache: &cache)
            #expect(decision.appliedActions == actions.withoutRuleIndices)
            #expect(decision.appliedActions.lists.allSatisfy { $0.ruleIndices.isEmpty })
            #expect(decision.isBlocked == actions.isBlocked && decision.blocksCookies == actions.blocksCookies)
        }
    }

    @Test("the JSON of an answer names each action's list and rule; without rules it names none")
    func json() throws {
        let engine = try RuleEngine(ruleLists: try Self.lists.map { try RuleList(parsing: $0) })
        let request = Request(url: "https://cdn.example/pixel.gif", topURL: "https://shop.example/", resourceType: .image)
        #expect(engine.actions(for: request).jsonValue().jsonString()
            == #"{"blocked":true,"actions":[{"type":"block","list":0,"rule":1},{"type":"block-cookies","list":0,"rule":2},{"type":"block","list":1,"rule":0}]}"#)
        #expect(engine.decision(for: request).appliedActions.jsonValue().jsonString()
            == #"{"blocked":true,"actions":[{"type":"block"},{"type":"block-cookies"},{"type":"block"}]}"#)
    }

    @Test("a compiled file of the previous format, or with a rule index outside its list, is refused")
    func compiledFileKeepsRuleIndices() throws {
        let list = try RuleList(parsing: Self.lists[0])
        let engine = try RuleEngine(ruleList: list)
        var previous = engine.compiled()
        // The version follows the 8-byte signature, little-endian.
        previous.replaceSubrange(8..<12, with: [2, 0, 0, 0])
        #expect(throws: CompiledEngineError(.unsupportedVersion(found: 2, supported: CompiledFormat.version))) {
            try RuleEngine(compiled: previous)
        }
        let program = engine.program
        for (ruleIndices, universalRuleIndices) in [
            (program.ruleIndices.map { $0 + UInt32(list.rules.count) }, program.universalRuleIndices),
            (program.ruleIndices, program.universalRuleIndices + [0]),
        ] {
            let damaged = Program(
                actions: program.actions, listLocationStarts: program.listLocationStarts,
                universalLocations: program.universalLocations, universalRuleIndices: universalRuleIndices,
                globalStyleSheets: program.globalStyleSheets, ruleCounts: program.ruleCounts, rules: program.rules,
                ruleIndices: ruleIndices, matchers: program.matchers, hosts: program.hosts, grams: program.grams,
                alwaysChecked: program.alwaysChecked, pageRules: program.pageRules, conditionCount: program.conditionCount,
                topURLHosts: program.topURLHosts, frameURLHosts: program.frameURLHosts, domains: program.domains,
                subdomainDomains: program.subdomainDomains, conditionPatterns: program.conditionPatterns,
                alwaysMatchedConditions: program.alwaysMatchedConditions)
            var writer = CompiledWriter()
            damaged.write(to: &writer)
            #expect(throws: CompiledEngineError.self) { try RuleEngine(compiled: CompiledFormat.wrap(writer.bytes)) }
        }
    }

    /// Checks that the rule each applied action names, alone in a list of its own, applies that
    /// action to the load; returns a description of each that does not.
    static func unreproduced(_ actions: AppliedActions, request: Request, lists: [RuleList]) throws -> [String] {
        var problems: [String] = []
        for (listIndex, list) in actions.lists.enumerated() {
            guard list.ruleIndices.count == list.actions.count else {
                problems.append("list \(listIndex): \(list.actions.count) actions, \(list.ruleIndices.count) rules")
                continue
            }
            for (action, ruleIndex) in zip(list.actions, list.ruleIndices) {
                guard ruleIndex >= 0, ruleIndex < lists[listIndex].rules.count else {
                    problems.append("list \(listIndex): rule \(ruleIndex) is not in the list")
                    continue
                }
                let rule = lists[listIndex].rules[ruleIndex]
                let alone = try ReferenceEvaluator(ruleList: RuleList([rule])).actions(for: request).actions
                let reproduces = alone.contains { applied in
                    switch (applied, action) {
                    // A merged css action holds the selectors of every rule of its trigger.
                    case (.cssDisplayNone(let own), .cssDisplayNone(let merged)):
                        merged.split(separator: ",").map(String.init).contains(own) || merged == own
                    default: applied == action
                    }
                }
                if !reproduces { problems.append("list \(listIndex) rule \(ruleIndex) alone applies \(alone), not \(action)") }
            }
        }
        return problems
    }
}

/// The lists built from apple-tds.json over adblock-rust's 8,276 request URLs on three pages each
/// (as ``RealDataEngineTests``): every applied action names a rule, that rule alone applies the
/// action, and its source is an input of the build; a tracker's rule names a tracker whose domain
/// holds the request's host.
@Suite(
    "Applied rules on the real blocklist",
    .enabled(
        if: SharedData.shouldRun(SharedData.matchingTestRequests) && SharedData.shouldRun("tds/apple-tds.json"),
        SharedData.skipMessage))
struct RealAppliedRuleTests {
    @Test("every applied action names a rule that alone applies it, and the input it came from")
    func namedRulesReproduceTheirActions() throws {
        let trackerData = try TrackerData(contentsOfFile: SharedData.path("tds/apple-tds.json"))
        let build = RuleListBuilder(trackerData: trackerData).build()
        let lists = try build.ruleLists.map { list throws(RuleListError) in try RuleList(parsing: list.encoded()) }
        try #require(build.sources.count == lists.count)
        for (list, sources) in zip(lists, build.sources) { try #require(sources.count == list.rules.count) }
        let engine = try RuleEngine(ruleLists: lists)
        var cache = RuleEngine.PageCache()
        var named = 0, blocked = 0, problemCount = 0
        var problems: [String] = []
        for test in MatchingTestRequest.all {
            for request in RealDataEngineTests.requests(for: test) {
                let actions = engine.actions(for: request, cache: &cache)
                if actions.isBlocked { blocked += 1 }
                var found = try AppliedRuleTests.unreproduced(actions, request: request, lists: lists)
                let host = CanonicalURL(request.url)?.host ?? ""
                for (listIndex, list) in actions.lists.enumerated() {
                    for (action, ruleIndex) in zip(list.actions, list.ruleIndices) where ruleIndex < build.sources[listIndex].count {
                        named += 1
                        let source = build.sources[listIndex][ruleIndex]
                        guard action == .block, source.kind == .tracker else { continue }
                        if host != source.name && !host.hasSuffix("." + source.name) {
                            found.append("blocked by list \(listIndex) rule \(ruleIndex), made from \(source), not about \(host)")
                        }
                    }
                }
                guard !found.isEmpty else { continue }
                problemCount += 1
                if problems.count < 20 { problems.append("\(request.url) on \(request.topURL): " + found.joined(separator: "; ")) }
            }
        }
        #expect(problemCount == 0, "\(problemCount) loads; first:\n\(problems.joined(separator: "\n"))")
        // Guards against a vacuous pass.
        #expect(blocked > 1_000 && named >= blocked, "\(blocked) loads blocked, \(named) actions named")
    }
}
