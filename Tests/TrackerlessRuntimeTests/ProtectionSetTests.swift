import ContentRuleList
import RuleEngineKit
import Foundation
import Testing
import TrackerDataKit
import TrackerlessCore
import TrackerlessRuntime
import UserScripts

@Suite("ProtectionSet: the inputs built into one generation")
struct ProtectionSetTests {
    @Test("the sample builds valid rule lists, both scripts in their worlds with the secret, a resolver and an engine that agree")
    func buildsEverything() throws {
        let secret = try #require(ScriptSecret(hex: "00112233445566778899aabbccddeeff"))
        let set = try ProtectionSet.build(RuntimeFixture.inputs, secret: secret)

        #expect(set.origin == .built)
        #expect(set.identity.count == 64)
        #expect(set.ruleLists.map(\.kind) == [.blocking])
        for list in set.ruleLists {
            // One identifier, one content: the identifier ends with a hash of the JSON.
            #expect(list.identifier == "trackerless-blocking-0-" + XXH64.hexDigest(list.json))
            let parsed = try RuleList(parsing: list.json)   // what WebKit compiles: valid
            #expect(parsed.rules.count == list.ruleCount)
            #expect(list.ruleCount > 0)
        }
        #expect(set.scripts.map(\.name) == ["blocking.js", "inference.js"])
        #expect(set.blockingScript?.world == .page)
        #expect(set.inferenceScript?.world == .isolated(name: "trackerless"))
        #expect(set.messageHandlerWorlds == [.page, .isolated(name: "trackerless")])
        #expect(set.messageHandlerName == "trackerless")
        #expect(set.scripts.allSatisfy { $0.source.contains(secret.value) })

        let tracker = "https://ads.example/banner.png"
        let decision = set.resolver.decision(forRequestURL: tracker, topURL: "https://news.example/", type: .image)
        #expect(decision?.action == .block)
        #expect(set.engine.decision(for: Request(url: tracker, topURL: "https://news.example/", resourceType: .image)).isBlocked)
        let firstParty = "https://news.example/logo.png"
        #expect(!set.engine.decision(for: Request(url: firstParty, topURL: "https://news.example/", resourceType: .image)).isBlocked)
    }

    @Test("cookie lists come with the configuration's cookie protection, in lists of their own")
    func cookieLists() throws {
        // No configuration: every protection on, cookie protection included.
        let withCookies = try ProtectionSet.build(.sample)
        #expect(withCookies.ruleLists.map(\.kind) == [.blocking, .cookies])
        #expect(withCookies.ruleLists.map(\.identifier).allSatisfy { $0.hasPrefix(EncodedRuleList.identifierPrefix) })
        // A configuration without the cookie feature turns it off.
        let withoutCookies = try ProtectionSet.build(RuntimeFixture.inputs)
        #expect(withoutCookies.ruleLists.map(\.kind) == [.blocking])
    }

    @Test("the set identity follows the inputs and settings, not the secret")
    func identity() throws {
        let first = try ProtectionSet.build(RuntimeFixture.inputs)
        let again = try ProtectionSet.build(RuntimeFixture.inputs)
        #expect(first.identity == again.identity)
        #expect(first.secret != again.secret)
        #expect(first.ruleLists == again.ruleLists)

        var updated = RuntimeFixture.inputs
        updated.trackerData = .bytes(RuntimeFixture.updatedTrackerData, name: "tds.json")
        #expect(try ProtectionSet.build(updated).identity != first.identity)

        var otherHandler = RuntimeFixture.inputs
        otherHandler.scriptSettings.handler = "other"
        let renamed = try ProtectionSet.build(otherHandler)
        #expect(renamed.identity != first.identity)
        #expect(renamed.messageHandlerName == "other")

        var otherQueue = RuntimeFixture.inputs
        otherQueue.templates.messageQueue = "// another queue\n" + otherQueue.templates.messageQueue
        #expect(try ProtectionSet.build(otherQueue).identity != first.identity)
    }

    @Test("stale identifiers: the runtime's own that the set does not use")
    func staleIdentifiers() throws {
        let set = try ProtectionSet.build(RuntimeFixture.inputs)
        let current = try #require(set.ruleLists.first?.identifier)
        #expect(!set.isStale(ruleListIdentifier: current))
        #expect(set.isStale(ruleListIdentifier: "trackerless-blocking-0-0000000000000000"))
        #expect(!set.isStale(ruleListIdentifier: "another-apps-list"))
    }

    @Test("a broken input is an error naming the input, the file and the JSON path")
    func brokenInputs() throws {
        var tds = RuntimeFixture.inputs
        tds.trackerData = .bytes(Array(#"{"trackers": {"x.example": "not an object"}, "entities": {}, "domains": {}}"#.utf8), name: "bad-tds.json")
        let tdsError = #expect(throws: ProtectionError.self) { try ProtectionSet.build(tds) }
        #expect(tdsError?.input == .trackerData)
        #expect(tdsError?.description.contains("bad-tds.json") == true)
        #expect(tdsError?.description.contains(#"trackers["x.example"]"#) == true)

        var missing = RuntimeFixture.inputs
        missing.privacyConfiguration = .file("/nonexistent/privacy-config.json")
        let missingError = #expect(throws: ProtectionError.self) { try ProtectionSet.build(missing) }
        #expect(missingError?.input == .privacyConfiguration)
        #expect(missingError?.description.contains("/nonexistent/privacy-config.json") == true)

        var settings = RuntimeFixture.inputs
        settings.scriptSettings.batchInterval = 1
        let settingsError = #expect(throws: ProtectionError.self) { try ProtectionSet.build(settings) }
        #expect(settingsError?.input == .scriptSettings)
        #expect(settingsError?.description.contains("batchInterval") == true)

        // A rule list setting no list can be built with is refused naming it, not clamped.
        for (setting, change) in [
            ("maximumRulesPerList must be from 1 to 150000, not 0", { (inputs: inout ProtectionInputs) in inputs.ruleLists.maximumRulesPerList = 0 }),
            ("maximumRulesPerList must be from 1 to 150000, not 150001", { $0.ruleLists.maximumRulesPerList = 150_001 }),
            ("maximumBytesPerList must be at least 2, not 1", { $0.ruleLists.maximumBytesPerList = 1 }),
        ] {
            var ruleLists = RuntimeFixture.inputs
            change(&ruleLists)
            let error = #expect(throws: ProtectionError.self) { try ProtectionSet.build(ruleLists) }
            #expect(error == .invalidInput(.ruleListSettings, detail: setting))
        }
    }

    @Test("a tracker WebKit would refuse (a domain over its pattern limit): left out with a note, the rest built and valid")
    func refusedInputLeftOut() throws {
        // The build checks the blocking rules beside the engine's compile, and builds them again
        // with the check when it finds a refused rule.
        let host = String(repeating: "a", count: 1_100_000) + ".example"
        let json = #"{"trackers": {"\#(host)": {"domain": "\#(host)", "default": "block"}, "ok.example": {"domain": "ok.example", "default": "block"}}, "entities": {}, "domains": {}}"#
        // Cookie protection on everywhere (no configuration): the cookie rules leave it out too,
        // the note naming the tds's JSON path.
        var inputs = ProtectionInputs(trackerData: .bytes(Array(json.utf8), name: "long.json"))
        let withCookies = try ProtectionSet.build(inputs)
        #expect(withCookies.ruleLists.contains { $0.kind == .cookies })
        let note = try #require(withCookies.notes.first { $0.hasPrefix("cookie rules: tds: trackers[\"aaaa") }, "\(withCookies.notes.map { $0.prefix(120) })")
        #expect(note.contains("WebKit would refuse a cookie rule made from it"))
        inputs.privacyConfiguration = .bytes(Array(RuntimeFixture.configuration.utf8), name: "config.json")
        let set = try ProtectionSet.build(inputs)
        #expect(set.notes.contains { $0.hasPrefix("tds: trackers[\"aaaa") && $0.contains("WebKit would refuse") })
        for list in set.ruleLists where list.kind == .blocking {
            try RuleList(parsing: list.json).validate()
            #expect(list.jsonString.contains("ok\\\\.example"))
            #expect(!list.jsonString.contains("aaaaaaaaaa"))
        }
        var page = RuleEngine.PageCache()
        #expect(set.engine.decision(for: Request(url: "https://ok.example/a.js", topURL: "https://news.example/", resourceType: .script), cache: &page).isBlocked)
    }
}
