import ContentRuleList
import Testing

@testable import RuleEngineKit

@Suite struct CompiledFileTests {
    let list = try! RuleList(parsing: #"[{"trigger":{"url-filter":"^[^:]+://+([^:/]+\\.)?tracker\\.example[:/]"},"action":{"type":"block"}}]"#)

    @Test func roundTripKeepsDecisions() throws {
        let engine = try RuleEngine(ruleList: list)
        let loaded = try RuleEngine(compiled: engine.compiled())
        let request = Request(url: "https://cdn.tracker.example/p.gif", topURL: "https://news.example/", resourceType: .image)
        #expect(loaded.decision(for: request).isBlocked)
        #expect(loaded.actions(for: request) == engine.actions(for: request))
    }

    @Test func refusesOtherData() throws {
        let bytes = try RuleEngine(ruleList: list).compiled()
        #expect(throws: CompiledEngineError(.notACompiledEngine)) { try RuleEngine(compiled: Array("[]".utf8)) }
        #expect(throws: CompiledEngineError.self) { try RuleEngine(compiled: Array(bytes.dropLast())) }
        var flipped = bytes
        flipped[flipped.count - 3] ^= 1
        #expect(throws: CompiledEngineError(.checksumMismatch)) { try RuleEngine(compiled: flipped) }
        var older = bytes
        older[8] = 0
        #expect(throws: CompiledEngineError(.unsupportedVersion(found: 0, supported: CompiledFormat.version))) {
            try RuleEngine(compiled: older)
        }
    }
}
