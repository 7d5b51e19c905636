import ContentRuleList
import Foundation
import PrivacyStatsKit
import RuleEngineKit
import Testing
import TrackerlessCore
import TrackerlessRuntime

@Suite("Rule sources on the runtime path: a set, built or from the cache, names what each engine rule was built from")
struct RuleSourceRuntimeTests {
    /// The rule of `set`'s engine that blocks `url` as a `type` load of `page`: the first list's
    /// rule whose action is block.
    static func blockingRule(_ set: ProtectionSet, url: String, page: String, type: ResourceType) -> (list: Int, rule: Int)? {
        for (list, actions) in set.engine.actions(for: Request(url: url, topURL: page, resourceType: type)).lists.enumerated() {
            if let rule = zip(actions.actions, actions.ruleIndices).first(where: { $0.0 == .block })?.1 { return (list, rule) }
        }
        return nil
    }

    /// Every source of `set`, list by list, up to the first rule without one.
    static func sources(of set: ProtectionSet) -> [[JSONValue]] {
        (0..<set.engine.ruleListCount).map { list in
            var sources: [JSONValue] = []
            while let source = set.ruleSource(list: list, rule: sources.count) { sources.append(source) }
            return sources
        }
    }

    @Test("the rule that blocks a request names the tds tracker and rule it came from, built and loaded from the cache alike")
    func blockingRuleSources() throws {
        let directory = try RuntimeFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let built = try ProtectionSet.load(RuntimeFixture.inputs, cacheDirectory: directory)
        let cached = try ProtectionSet.load(RuntimeFixture.inputs, cacheDirectory: directory)
        #expect(built.origin == .built && cached.origin == .cache)
        let page = "https://news.example/"
        // metrics.example blocks nothing by default; its rules[0] blocks /collect images.
        let collect = try #require(Self.blockingRule(built, url: "https://metrics.example/collect?id=1", page: page, type: .image))
        for set in [built, cached] {
            guard case .object(let source)? = set.ruleSource(list: collect.list, rule: collect.rule) else {
                Issue.record("no source for \(collect) (\(set.origin))")
                continue
            }
            #expect(source["tracker"] == .string("metrics.example"), "\(source)")
            #expect(source["part"] == .string("rule") && source["index"] == .number(0), "\(source)")
            #expect(source["rule"] == .string(#"metrics\.example/collect"#), "\(source)")
        }
        // ads.example blocks by default: its default, not one of its rules.
        let banner = try #require(Self.blockingRule(cached, url: "https://ads.example/banner.png", page: page, type: .image))
        guard case .object(let source)? = cached.ruleSource(list: banner.list, rule: banner.rule) else {
            Issue.record("no source for \(banner)")
            return
        }
        #expect(source["tracker"] == .string("ads.example") && source["part"] == .string("default"), "\(source)")
        // One source per engine rule, the same in both sets; none past the end.
        let all = Self.sources(of: built)
        #expect(all.reduce(0) { $0 + $1.count } == built.engine.ruleCount)
        #expect(Self.sources(of: cached) == all)
        #expect(built.ruleSource(list: built.engine.ruleListCount, rule: 0) == nil)
        #expect(built.ruleSource(list: 0, rule: -1) == nil && cached.ruleSource(list: -1, rule: 0) == nil)
    }

    @Test("a launch from the cache does not read the sources file: damaged before launch, the set loads, gives no source, and the next launch rebuilds")
    func sourcesReadLazily() throws {
        let directory = try RuntimeFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let built = try ProtectionSet.load(RuntimeFixture.inputs, cacheDirectory: directory)
        let path = FileSet.generation(of: directory + "/set") + "/engine.sources.json"
        // Valid JSON of the same length, other sources: only the manifest's XXH64 tells.
        var bytes = try FileIO.read(path: path)
        let index = try #require(bytes.firstIndex(of: UInt8(ascii: "x")))
        bytes[index] = UInt8(ascii: "y")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let launched = try ProtectionSet.load(RuntimeFixture.inputs, cacheDirectory: directory)
        #expect(launched.origin == .cache)
        #expect(Self.sources(of: launched).allSatisfy { $0.isEmpty })
        #expect(!FileManager.default.fileExists(atPath: path))
        let repaired = try ProtectionSet.load(RuntimeFixture.inputs, cacheDirectory: directory)
        #expect(repaired.origin == .built)
        #expect(Self.sources(of: repaired) == Self.sources(of: built))
        #expect(try ProtectionSet.load(RuntimeFixture.inputs, cacheDirectory: directory).origin == .cache)
    }

    @Test("the runtime fills in the source of an engine rule a host observes, and keeps one the host gave")
    func runtimeRecordsSource() throws {
        let directory = try RuntimeFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        _ = try ProtectionSet.load(RuntimeFixture.inputs, cacheDirectory: directory)
        let runtime = try ProtectionRuntime(inputs: RuntimeFixture.inputs, cacheDirectory: directory)
        #expect(runtime.currentSet.origin == .cache)
        let page = "https://news.example/"
        let url = "https://metrics.example/collect?id=2"
        let rule = try #require(Self.blockingRule(runtime.currentSet, url: url, page: page, type: .image))
        runtime.didCommitNavigation(tab: "1", url: page)
        #expect(runtime.didObserve(
            NativeObservation(url: url, type: .image, outcome: .blocked, engineRule: EngineRule(list: rule.list, rule: rule.rule)), tab: "1"))
        let given = JSONValue.object(JSONObject([("kind", .string("host's own"))]))
        #expect(runtime.didObserve(
            NativeObservation(url: "https://ads.example/banner.png", type: .image, outcome: .blocked,
                              engineRule: EngineRule(list: 0, rule: 0, source: given)), tab: "1"))
        let hosts = runtime.stats.snapshot(tab: "1").companies.flatMap(\.hosts)
        let metrics = try #require(hosts.first { $0.host == "metrics.example" })
        #expect(metrics.engineRules == [
            EngineRule(list: rule.list, rule: rule.rule, source: runtime.currentSet.ruleSource(list: rule.list, rule: rule.rule)),
        ])
        #expect(metrics.engineRules.first?.source != nil)
        #expect(hosts.first { $0.host == "ads.example" }?.engineRules.first?.source == given)
    }
}
