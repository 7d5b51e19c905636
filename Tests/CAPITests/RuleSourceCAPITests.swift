import Testing
import TrackerlessCore

extension CAPITests {
    /// The C runtime host of `c/rule_source_test.c`, built once per run.
    static let ruleSourceProgram = compile("rule_source_test.c")

    @Test("tl_protection_set_rule_source: the engine's blocking rule names its tds tracker and rule, built and loaded from the cache alike")
    func ruleSourceOfARuntimeSet() throws {
        let lines = try Self.runSampleProgram(Self.ruleSourceProgram, expectingOK: 2)
        let sources = try lines.suffix(2).map { line in
            try JSONReader.read(Array(line.utf8)) { (reader) throws(JSONReadError) -> JSONValue in try reader.readValue() }
        }
        #expect(sources.count == 2 && sources.first == sources.last, "\(sources)")
        guard case .object(let source)? = sources.first else {
            Issue.record("not an object: \(lines.suffix(2))")
            return
        }
        // The sample tds: metrics.example blocks nothing by default; its rules[0] is the collect rule.
        #expect(source["tracker"] == .string("metrics.example") && source["part"] == .string("rule"), "\(source)")
        #expect(source["index"] == .number(0) && source["rule"] == .string(#"metrics\.example/collect"#), "\(source)")
    }
}
