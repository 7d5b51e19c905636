import ContentRuleList
import Foundation
import Testing
import TrackerlessRuntime

/// The runtime builds its lists for the WebKit the host runs.
@Suite("Runtime: lists for the running WebKit")
struct WebKitTargetRuntimeTests {
    @Test("the target is part of the set's identity and of its cache; each set's lists use only what its WebKit knows")
    func targetIdentity() throws {
        let directory = try RuntimeFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let oldest = try ProtectionSet.load(RuntimeFixture.inputs, cacheDirectory: directory)
        #expect(RuntimeFixture.inputs.webKit == .oldest)
        var inputs = RuntimeFixture.inputs
        inputs.webKit = .webKitGTK2_50
        let newer = try ProtectionSet.load(inputs, cacheDirectory: directory)
        #expect(newer.origin == .built)
        #expect(newer.identity != oldest.identity)
        #expect(try ProtectionSet.load(inputs, cacheDirectory: directory).origin == .cache)
        for (set, target) in [(oldest, WebKitTarget.oldest), (newer, .webKitGTK2_50)] {
            for list in set.ruleLists {
                let parsed = try RuleList(parsing: list.json)
                try parsed.validateTriggers(for: target)
            }
        }
        let oldestText = oldest.ruleLists.map { String(decoding: $0.json, as: UTF8.self) }.joined()
        let newerText = newer.ruleLists.map { String(decoding: $0.json, as: UTF8.self) }.joined()
        #expect(!oldestText.contains("top-document") && oldestText.contains("top-frame"))
        #expect(newerText.contains("top-document"))
    }
}
