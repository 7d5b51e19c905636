import ContentRuleList
import Testing
import TrackerlessCore

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

    /// The header's checksum is TrackerlessCore's one integrity checksum, so a file is checked as
    /// every other file the SDK writes (it was FNV-1a before format 4).
    @Test func headerChecksumIsXXH64OfThePayload() throws {
        let bytes = try RuleEngine(ruleList: list).compiled()
        let stored = bytes[20..<28].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        #expect(stored == XXH64.digest(Array(bytes[CompiledFormat.headerSize...])))
        #expect(bytes[8..<12].elementsEqual([5, 0, 0, 0]), "format 5")
    }
}
