import Foundation
import Testing
import TrackerDataKit
import TrackerlessTestSupport

/// The README's "Trackerless ships no blocklist: `rules` without `--tds` uses a made-up sample on
/// `.example` domains": the sample and every tds.json of the repository name only `.example`
/// domains, and the rules built without `--tds` block on such domains only.
@Suite(.enabled(if: CommandRunner.isAvailable, "the trackerless executable was not built next to the tests"))
struct SampleBlocklistTests {
    /// Every domain a tds document names: trackers, their owners' domains, entities, domains, CNAMEs.
    static func domains(_ document: Data) throws -> Set<String> {
        let object = try #require(try JSONSerialization.jsonObject(with: document) as? [String: Any])
        var found = Set((object["trackers"] as? [String: Any] ?? [:]).keys)
        found.formUnion((object["domains"] as? [String: Any] ?? [:]).keys)
        for case let entity as [String: Any] in (object["entities"] as? [String: Any] ?? [:]).values {
            found.formUnion(entity["domains"] as? [String] ?? [])
        }
        for (alias, target) in object["cnames"] as? [String: String] ?? [:] { found.formUnion([alias, target]) }
        return found
    }

    @Test("the bundled sample and every tds.json in the repository name only .example domains")
    func onlyExampleDomains() throws {
        let sample = try Self.domains(Data(TrackerData.sampleDocument.utf8))
        #expect(sample.count >= 5, "\(sample)")
        #expect(sample.allSatisfy { $0.hasSuffix(".example") }, "\(sample.sorted())")
        for path in ["Examples/HostApp/Sources/HostApp/tds.json", "Fuzz/Corpus/TrackerDataFuzzer/tds.json"] {
            let file = SharedData.packageRoot.appendingPathComponent(path)
            guard let bytes = FileManager.default.contents(atPath: file.path) else { continue }
            let named = try Self.domains(bytes)
            #expect(named.allSatisfy { $0.hasSuffix(".example") }, "\(path): \(named.sorted())")
        }
    }

    @Test("rules without --tds builds the sample's list: every rule on .example domains")
    func rulesWithoutTDS() throws {
        let rules = try CommandRunner.run(["rules"])
        #expect(rules.status == 0, "\(rules.standardError)")
        let list = try #require(try JSONSerialization.jsonObject(with: Data(rules.standardOutput.utf8)) as? [[String: Any]])
        #expect(!list.isEmpty)
        for (index, rule) in list.enumerated() {
            let trigger = try #require(rule["trigger"] as? [String: Any], "rule \(index) has no trigger")
            let filter = try #require(trigger["url-filter"] as? String, "rule \(index) has no url-filter")
            let domains = (trigger["if-domain"] as? [String] ?? []) + (trigger["unless-domain"] as? [String] ?? [])
            #expect(domains.allSatisfy { $0.hasSuffix(".example") }, "rule \(index): \(domains)")
            // A blocking rule names its tracker's host: an escaped `.example` in its filter.
            if (rule["action"] as? [String: Any])?["type"] as? String == "block" {
                #expect(filter.contains("\\.example"), "rule \(index): \(filter)")
            }
        }
    }
}
