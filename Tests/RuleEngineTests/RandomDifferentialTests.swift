import ContentRuleList
import Foundation
import RuleEngineKit
import Testing
import TrackerlessTestSupport

/// The engine against the reference evaluator on random rule lists in WebKit's regex subset and
/// random loads (``RandomRuleLists``, ``RandomRequests``): `actions(for:)`, `decision(for:cache:)`
/// with one page cache reused across the loads of several pages, `decision(for:)`, and the same
/// three on the engine loaded back from ``RuleEngine/compiled()``.
///
/// A case is one load checked against one list (or pair of lists); every 48 cases get new lists.
/// CI runs a fixed seed; to run more, locally:
///
///     TRACKERLESS_RANDOM_CASES=2000000 TRACKERLESS_RANDOM_SEED=123 swift test -c release \
///         --filter RandomDifferentialTests
///
/// A mismatch is reported with the seed of its lists, the lists shrunk to the rules that still
/// disagree, the load, and both answers; `TRACKERLESS_RANDOM_SEED` with that list seed and
/// `TRACKERLESS_RANDOM_CASES=48` replays it alone (with the same `TRACKERLESS_RANDOM_RULES`).
@Suite("RuleEngine == ReferenceEvaluator on random lists and loads")
struct RandomDifferentialTests {
    /// One share of the run, generated from its own seed.
    struct Chunk: Sendable, CustomTestStringConvertible {
        var index: Int
        var seed: UInt64
        var cases: Int

        var testDescription: String { "chunk \(index): seed \(RandomDifferentialTests.hex(seed)), \(cases) cases" }
    }

    /// Loads checked per generated list (or pair of lists).
    static let loadsPerList = 48
    /// Pages per list: loads pick among them, so the page cache sees repeated and new pages, and
    /// more pages than it remembers.
    static let pagesPerList = 12

    static let environment = ProcessInfo.processInfo.environment

    /// `TRACKERLESS_RANDOM_SEED` (decimal or 0x-hex), or CI's fixed seed.
    static let baseSeed: UInt64 = environment["TRACKERLESS_RANDOM_SEED"].flatMap(parseSeed) ?? 0x5452_4b4c_5345_4544

    /// `TRACKERLESS_RANDOM_RULES`: the most rules a generated list gets (default 16); longer
    /// lists exercise more interactions between rules (deduplication, ignore rules).
    static let maximumRuleCount: Int = environment["TRACKERLESS_RANDOM_RULES"].flatMap { Int($0) } ?? 16

    /// `TRACKERLESS_RANDOM_CASES`, or CI's count (about 30 s in a debug build on two cores).
    static let totalCases: Int = environment["TRACKERLESS_RANDOM_CASES"].flatMap { Int($0) }.map { max(1, $0) } ?? 24_000

    /// With an explicit seed and few cases, one chunk replays exactly that seed's first lists.
    static let chunks: [Chunk] = {
        let count = totalCases <= 4 * loadsPerList ? 1 : min(64, max(8, totalCases / 50_000))
        return (0..<count).map { index in
            let cases = totalCases / count + (index < totalCases % count ? 1 : 0)
            let seed = count == 1 ? baseSeed : SplitMixGenerator.seed(baseSeed, index: UInt64(index))
            return Chunk(index: index, seed: seed, cases: cases)
        }
    }()

    @Test("engine == reference evaluator", arguments: chunks)
    func engineMatchesReference(_ chunk: Chunk) throws {
        var listSeeds = SplitMixGenerator(seed: chunk.seed)
        var checked = 0
        var mismatches = 0
        var reported = 0
        var first = true
        // One cache for every engine of the chunk, alternating between each list's engine and its
        // compiled copy: a cache must notice that it is given to another engine.
        var sharedCache = RuleEngine.PageCache()
        while checked < chunk.cases {
            // The first list uses the chunk's seed itself, so that a reported list seed replays
            // as a one-chunk run.
            let listSeed = first ? chunk.seed : listSeeds.next()
            first = false
            let loads = min(Self.loadsPerList, chunk.cases - checked)
            let started = ContinuousClock.now
            let result = Self.check(listSeed: listSeed, loads: loads, sharedCache: &sharedCache)
            let elapsed = ContinuousClock.now - started
            if elapsed > .seconds(5) {
                // Not a failure (no timed asserts in unit tests), but worth a look: a matcher
                // that is slow on some inputs is a bug too.
                print("RandomDifferentialTests: list seed \(Self.hex(listSeed)) took \(elapsed) for \(loads) loads")
            }
            checked += loads
            if let report = result.report {
                mismatches += 1
                if reported < 3 {
                    reported += 1
                    Issue.record(Comment(rawValue: report))
                }
            }
            if let failure = result.generatorFailure {
                Issue.record(Comment(rawValue: "generator bug (list seed \(Self.hex(listSeed))): \(failure)"))
            }
        }
        #expect(mismatches == 0, "\(mismatches) lists of chunk \(chunk.index) disagree (first \(reported) reported)")
    }

    /// Guards against a vacuous pass: the generated lists parse, and their loads get every kind of
    /// answer.
    @Test("generated lists parse and decide all kinds of loads")
    func generatorCoverage() throws {
        var lists = RandomRuleLists(seed: Self.baseSeed)
        var requests = RandomRequests(seed: Self.baseSeed)
        var parsed = 0
        var blocked = 0, loaded = 0, unchecked = 0, ignoredPrevious = 0, upgraded = 0, cookies = 0, css = 0
        for _ in 0..<300 {
            let list = lists.next()
            guard let ruleList = try? RuleList(parsing: list.json) else {
                Issue.record("does not parse:\n\(list)")
                continue
            }
            parsed += 1
            let evaluator = try ReferenceEvaluator(ruleList: ruleList)
            let page = requests.page()
            for _ in 0..<20 {
                let actions = evaluator.actions(for: Request(requests.load(on: page)))
                if !actions.isChecked { unchecked += 1 } else if actions.isBlocked { blocked += 1 } else { loaded += 1 }
                if actions.lists.contains(where: \.sawIgnorePreviousRules) { ignoredPrevious += 1 }
                if actions.upgradesToHTTPS { upgraded += 1 }
                if actions.blocksCookies { cookies += 1 }
                if !actions.hiddenSelectors.isEmpty { css += 1 }
            }
        }
        #expect(parsed == 300)
        let total = 300 * 20
        #expect(blocked > total / 20, "\(blocked) of \(total) blocked")
        #expect(loaded > total / 5, "\(loaded) of \(total) loaded")
        #expect(unchecked > total / 100, "\(unchecked) of \(total) unchecked")
        #expect(ignoredPrevious > total / 100, "\(ignoredPrevious) of \(total) saw ignore-previous-rules")
        #expect(upgraded > 0 && cookies > 0 && css > 0, "upgraded \(upgraded), cookies \(cookies), css \(css)")
    }

    /// The mismatch report must name the lists, the load and both answers, shrunk.
    @Test("a disagreement is shrunk to the rules that cause it")
    func shrinking() {
        let list = RandomRuleLists.List(rules: [
            #"{"trigger":{"url-filter":"ad"},"action":{"type":"block"}}"#,
            #"{"trigger":{"url-filter":"track"},"action":{"type":"block"}}"#,
            #"{"trigger":{"url-filter":".*"},"action":{"type":"css-display-none","selector":".a"}}"#,
        ])
        // A stand-in "engine bug": any list blocking the load disagrees.
        let shrunk = Self.shrink([list]) { lists in
            guard let evaluator = try? ReferenceEvaluator(ruleLists: lists.map { try RuleList(parsing: $0.json) })
            else { return false }
            return evaluator.actions(for: Request(url: "https://c.test/track", topURL: "https://a.example/", resourceType: .image))
                .isBlocked
        }
        #expect(shrunk == [RandomRuleLists.List(rules: [list.rules[1]])])
    }

    // MARK: - One list

    struct ListResult {
        var report: String?
        var generatorFailure: String?
    }

    /// Generates the lists and loads of `listSeed` and compares every answer.
    static func check(listSeed: UInt64, loads: Int, sharedCache: inout RuleEngine.PageCache) -> ListResult {
        var generator = RandomRuleLists(seed: listSeed, maximumRuleCount: maximumRuleCount)
        var lists = [generator.next()]
        if generator.random.chance(0.2) { lists.append(generator.next()) }
        let ruleLists: [RuleList]
        do {
            ruleLists = try lists.map { list throws(RuleListError) in try RuleList(parsing: list.json) }
        } catch {
            return ListResult(generatorFailure: "\(error)\n\(lists.map(\.description).joined(separator: "\n"))")
        }
        let engines: Engines
        do {
            engines = try Engines(ruleLists)
        } catch {
            return ListResult(report: report(listSeed: listSeed, lists: lists, problem: "\(error)"))
        }

        var requests = RandomRequests(seed: listSeed ^ 0x6c6f_6164)
        let pages = (0..<pagesPerList).map { _ in requests.page() }
        var cache = RuleEngine.PageCache()
        var compiledCache = RuleEngine.PageCache()
        var previous: Request?
        for _ in 0..<loads {
            let request = Request(requests.load(on: requests.random.pick(pages)))
            if let difference = engines.difference(
                for: request, cache: &cache, compiledCache: &compiledCache, sharedCache: &sharedCache)
            {
                // Shrink with fresh caches warmed by the load before, as the run had them.
                let shrunk = shrink(lists) { candidate in
                    guard let parsed = try? candidate.map({ try RuleList(parsing: $0.json) }),
                        let engines = try? Engines(parsed)
                    else { return false }
                    return engines.differenceAfter(previous, request: request) != nil
                }
                var detail = difference
                if let parsed = try? shrunk.map({ try RuleList(parsing: $0.json) }), let small = try? Engines(parsed),
                    let smallDifference = small.differenceAfter(previous, request: request)
                {
                    detail = smallDifference
                } else {
                    detail += "\n(only with the whole run's page-cache history; lists not shrunk)"
                }
                return ListResult(
                    report: report(
                        listSeed: listSeed, lists: shrunk, problem: detail, request: request, previous: previous))
            }
            previous = request
        }
        return ListResult()
    }

    static func report(
        listSeed: UInt64, lists: [RandomRuleLists.List], problem: String, request: Request? = nil,
        previous: Request? = nil
    ) -> String {
        var text = "engine disagrees with the reference evaluator; list seed \(hex(listSeed)) "
            + "(replay: TRACKERLESS_RANDOM_SEED=\(hex(listSeed)) TRACKERLESS_RANDOM_CASES=\(loadsPerList) "
            + "TRACKERLESS_RANDOM_RULES=\(maximumRuleCount))\n"
        for (index, list) in lists.enumerated() {
            text += "rule list \(index) (\(list.rules.count) rules):\n\(list.description)\n"
        }
        if let request { text += "load: \(describe(request))\n" }
        if let previous { text += "after the load (same page cache): \(describe(previous))\n" }
        return text + problem
    }

    /// Drops rules, then whole lists, while `stillFails` holds.
    static func shrink(_ lists: [RandomRuleLists.List], stillFails: ([RandomRuleLists.List]) -> Bool)
        -> [RandomRuleLists.List]
    {
        var current = lists
        var changed = true
        while changed {
            changed = false
            for listIndex in current.indices.reversed() where current.count > 1 {
                var candidate = current
                candidate.remove(at: listIndex)
                if stillFails(candidate) {
                    current = candidate
                    changed = true
                }
            }
            for listIndex in current.indices {
                var ruleIndex = current[listIndex].rules.count - 1
                while ruleIndex >= 0 {
                    if current[listIndex].rules.count > 1 {
                        var candidate = current
                        candidate[listIndex] = current[listIndex].removingRule(at: ruleIndex)
                        if stillFails(candidate) {
                            current = candidate
                            changed = true
                        }
                    }
                    ruleIndex -= 1
                }
            }
        }
        return current
    }

    static func hex(_ value: UInt64) -> String { "0x" + String(value, radix: 16) }

    static func parseSeed(_ text: String) -> UInt64? {
        text.hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text)
    }
}

/// The reference, the engine and the engine loaded back from its compiled bytes, on the same lists.
struct Engines {
    let reference: ReferenceEvaluator
    let engine: RuleEngine
    let loaded: RuleEngine

    enum Failure: Error, CustomStringConvertible {
        case engine(RuleListError)
        case reference(RuleListError)
        case compiled(CompiledEngineError)

        var description: String {
            switch self {
            case .engine(let error): "the engine refuses lists the reference accepts: \(error)"
            case .reference(let error): "the reference refuses the lists: \(error)"
            case .compiled(let error): "the engine cannot load its own compiled bytes: \(error)"
            }
        }
    }

    init(_ ruleLists: [RuleList]) throws(Failure) {
        do { reference = try ReferenceEvaluator(ruleLists: ruleLists) } catch { throw .reference(error) }
        do { engine = try RuleEngine(ruleLists: ruleLists) } catch { throw .engine(error) }
        do { loaded = try RuleEngine(compiled: engine.compiled()) } catch { throw .compiled(error) }
    }

    /// How the engines' answers differ from the reference's, or nil when they all agree.
    func difference(
        for request: Request, cache: inout RuleEngine.PageCache, compiledCache: inout RuleEngine.PageCache,
        sharedCache: inout RuleEngine.PageCache
    ) -> String? {
        let expected = reference.actions(for: request)
        var problems: [String] = []
        for (name, engine) in [("engine", engine), ("compiled engine", loaded)] {
            let actions = engine.actions(for: request)
            if actions != expected { problems.append("\(name).actions(for:):\n    \(describe(actions))") }
            let decision = name == "engine"
                ? engine.decision(for: request, cache: &cache) : engine.decision(for: request, cache: &compiledCache)
            if let problem = Self.problem(decision, expected) { problems.append("\(name).decision(for:cache:): \(problem)") }
            if let problem = Self.problem(engine.decision(for: request), expected) {
                problems.append("\(name).decision(for:): \(problem)")
            }
            if let problem = Self.problem(engine.decision(for: request, cache: &sharedCache), expected) {
                problems.append("\(name).decision(for:cache:) with a cache shared by both engines: \(problem)")
            }
        }
        guard !problems.isEmpty else { return nil }
        return "reference: \(describe(expected))\n" + problems.joined(separator: "\n")
    }

    /// ``difference(for:cache:compiledCache:)`` with caches that saw `previous` first.
    func differenceAfter(_ previous: Request?, request: Request) -> String? {
        var cache = RuleEngine.PageCache()
        var compiledCache = RuleEngine.PageCache()
        var sharedCache = RuleEngine.PageCache()
        if let previous {
            _ = engine.decision(for: previous, cache: &cache)
            _ = loaded.decision(for: previous, cache: &compiledCache)
            _ = loaded.decision(for: previous, cache: &sharedCache)
        }
        return difference(for: request, cache: &cache, compiledCache: &compiledCache, sharedCache: &sharedCache)
    }

    static func problem(_ decision: RuleEngine.Decision, _ expected: AppliedActions) -> String? {
        var wrong: [String] = []
        // A decision does not ask which rules applied: its actions are compared without them.
        if decision.appliedActions != expected.withoutRuleIndices {
            wrong.append("appliedActions \(describe(decision.appliedActions))")
        }
        if decision.isChecked != expected.isChecked { wrong.append("isChecked \(decision.isChecked)") }
        if decision.isBlocked != expected.isBlocked { wrong.append("isBlocked \(decision.isBlocked)") }
        if decision.blocksCookies != expected.blocksCookies { wrong.append("blocksCookies \(decision.blocksCookies)") }
        if decision.upgradesToHTTPS != expected.upgradesToHTTPS { wrong.append("upgradesToHTTPS \(decision.upgradesToHTTPS)") }
        return wrong.isEmpty ? nil : wrong.joined(separator: ", ")
    }
}

extension AppliedActions {
    /// The same actions without the rules behind them, as a decision reports them.
    var withoutRuleIndices: AppliedActions {
        var copy = self
        for index in copy.lists.indices { copy.lists[index].ruleIndices = [] }
        return copy
    }
}

/// An answer in one line: checked or not, upgraded or not, then each list's actions.
func describe(_ actions: AppliedActions) -> String {
    guard actions.isChecked else { return "not checked" }
    var parts: [String] = []
    for (index, list) in actions.lists.enumerated() {
        var text = "list \(index): [" + list.actions.map(describe).joined(separator: ", ") + "]"
        if !list.ruleIndices.isEmpty { text += " rules \(list.ruleIndices)" }
        if list.sawIgnorePreviousRules { text += " saw ignore-previous-rules" }
        if !list.globalStyleSheetSelectors.isEmpty { text += " global sheet \(list.globalStyleSheetSelectors)" }
        parts.append(text)
    }
    if actions.upgradesToHTTPS { parts.append("upgrades to HTTPS") }
    return parts.joined(separator: "; ")
}

func describe(_ action: Action) -> String {
    switch action {
    case .cssDisplayNone(let selector): "css-display-none \(RandomRuleLists.quoted(selector))"
    case .notify(let notification): "notify \(RandomRuleLists.quoted(notification))"
    case .redirect(let redirect): "redirect \(redirect)"
    case .modifyHeaders(let headers): "modify-headers priority \(headers.priority)"
    default: action.type
    }
}

/// A request as Swift source, with long URLs abbreviated.
func describe(_ request: Request) -> String {
    RandomRequests.Load(
        url: request.url, topURL: request.topURL, frameURL: request.frameURL,
        resourceType: request.resourceType.rawValue, method: request.method?.rawValue
    ).description
}

extension Request {
    /// A generated load as a request (unknown type names become `other`).
    init(_ load: RandomRequests.Load) {
        self.init(
            url: load.url, topURL: load.topURL, frameURL: load.frameURL,
            resourceType: ResourceType(rawValue: load.resourceType) ?? .other,
            method: load.method.flatMap { RequestMethod(rawValue: $0) })
    }
}
