import Testing
import TrackerlessCore

extension CAPITests {
    /// The engine-mode C host of `c/engine_rule_test.c`, built once per run.
    static let engineRuleProgram = compile("engine_rule_test.c")

    @Test("the engine's deciding rule through the C API: tl_engine_decide_rule names it, tl_stats_observe_rule puts it in the snapshot")
    func engineRuleOnTheDashboard() throws {
        let lines = try Self.runSampleProgram(Self.engineRuleProgram, expectingOK: 3)
        let last = try #require(lines.last)
        let snapshot = try JSONReader.read(Array(last.utf8)) { (reader) throws(JSONReadError) -> JSONValue in try reader.readValue() }
        guard case .object(let members) = snapshot, case .array(let companies)? = members["companies"] else {
            Issue.record("not a snapshot: \(last)")
            return
        }
        let hosts = companies.flatMap { company -> [JSONValue] in
            guard case .object(let object) = company, case .array(let hosts)? = object["hosts"] else { return [] }
            return hosts
        }
        let pixel = hosts.first { host in
            guard case .object(let object) = host, case .string("ads.example")? = object["host"] else { return false }
            return true
        }
        guard case .object(let host)? = pixel, case .array(let rules)? = host["engineRules"] else {
            Issue.record("no engineRules for ads.example: \(last)")
            return
        }
        #expect(rules.count == 1, "\(rules)")
        guard case .object(let rule)? = rules.first else { return }
        #expect(rule["list"] == .number(1) && rule["rule"] == .number(2), "\(rule)")
        guard case .object(let source)? = rule["source"] else {
            Issue.record("no source: \(rule)")
            return
        }
        #expect(source["path"] == .string(#"trackers["ads.example"].rules[0]"#), "\(source)")
    }
}
