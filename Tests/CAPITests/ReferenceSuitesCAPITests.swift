import ContentRuleList
import Foundation
import RuleBuilder
import Testing
import TrackerDataKit
import TrackerlessCore
import TrackerlessTestSupport

/// The reference suites through the C API, as a C host runs them: `c/suites_test.c` builds a
/// runtime from the suite's files (tds, privacy configuration, user allowlist, surrogates) with a
/// cache directory, and decides each case with the protection set's engine and classifies it
/// with its resolver. Every case must pass on both.
extension CAPITests {
    /// The suites' C host, built once per run.
    static let suitesProgram = compile("suites_test.c")

    /// `tl_resource_type` of each WebKit resource type.
    static let resourceTypeIndex: [ResourceType: Int] = [
        .topDocument: 0, .childDocument: 1, .image: 2, .styleSheet: 3, .script: 4, .font: 5, .svgDocument: 6, .media: 7,
        .popup: 8, .ping: 9, .fetch: 10, .websocket: 11, .cspReport: 12, .other: 13,
    ]

    /// One case as the C host gets it.
    struct SuiteCase {
        var requestURL: String
        var topURL: String
        var type: String
    }

    /// What the C host answered for one case.
    struct SuiteAnswer {
        /// The engine's TL_DECISION_* bits.
        var flags: UInt32
        /// The resolver's classification.
        var classification: [String: Any]
        var engineBlocks: Bool { flags & 2 != 0 }
        var resolverBlocks: Bool { ["block", "redirect"].contains(classification["action"] as? String) }
        var reason: String? { classification["reason"] as? String }
    }

    /// Runs the C host on `cases` with the runtime made of the given files (nil: absent).
    static func runSuite(
        tds: String, configuration: String? = nil, userAllowlist: String? = nil, surrogates: String? = nil, cases: [SuiteCase]
    ) throws -> [SuiteAnswer] {
        let program = try suitesProgram.get()
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let lines = try cases.map { test -> String in
            let type = RequestType(rawValue: test.type)
            // A main_frame request is the page's own navigation; other types take their first
            // WebKit resource type, as the engine's reference-suite tests do.
            let isNavigation = type == .mainFrame
            let resourceType = try #require(isNavigation ? .topDocument : type.webKitResourceTypes.first, "\(test.type)")
            let top = isNavigation ? test.requestURL : test.topURL
            return [test.requestURL, top, test.topURL, test.type, "\(try #require(resourceTypeIndex[resourceType]))"]
                .joined(separator: "\t")
        }
        let file = directory.appendingPathComponent("cases.tsv")
        try Data(lines.joined(separator: "\n").utf8).write(to: file)
        let run = try ChildProcess.run(program, [
            directory.appendingPathComponent("cache").path, tds, configuration ?? "-", userAllowlist ?? "-", surrogates ?? "-", file.path,
        ], logs: directory)
        #expect(run.status == 0, "\(run.output.suffix(2000))")
        let output = run.output.split(separator: "\n").map(String.init)
        try #require(output.count == cases.count, "\(run.output.suffix(1000))")
        return try output.map { line in
            let tab = try #require(line.firstIndex(of: "\t"), "\(line)")
            let json = try JSONSerialization.jsonObject(with: Data(line[line.index(after: tab)...].utf8))
            return SuiteAnswer(flags: try #require(UInt32(line[..<tab]), "\(line)"), classification: try #require(json as? [String: Any], "\(line)"))
        }
    }

    @Test("TR-domain-matching through a C host's protection set: the engine blocks exactly the 134 cases' block and redirect, the resolver gives each expected action",
          .enabled(if: SharedData.shouldRun(SharedData.domainMatching), SharedData.skipMessage))
    func domainMatchingSuite() throws {
        let cases = DomainMatchingCase.all
        try #require(cases.count == 134)
        let folder = SharedData.domainMatching
        let answers = try Self.runSuite(
            tds: SharedData.path("\(folder)/tracker_radar_reference.json"), surrogates: SharedData.path("\(folder)/surrogates.txt"),
            cases: cases.map { SuiteCase(requestURL: $0.requestURL, topURL: $0.topURL, type: $0.requestType) })
        for (test, answer) in zip(cases, answers) {
            #expect(answer.engineBlocks == test.expectsBlocked, "\(test): engine flags \(answer.flags)")
            #expect(answer.classification["action"] as? String == test.expectAction, "\(test): \(answer.classification)")
        }
    }

    @Test("the tracker allowlist's 25 cases through a C host's protection set: an allowlisted request loads (reason tracker allowlist), any other is blocked exactly when the resolver blocks it",
          .enabled(if: SharedData.shouldRun(SharedData.domainMatching), SharedData.skipMessage))
    func trackerAllowlistSuite() throws {
        let cases = TrackerAllowlistCase.all
        try #require(cases.count == 25)
        let folder = SharedData.domainMatching
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // The suite's allowlist in a configuration that turns tracker blocking and the allowlist on.
        let allowlist = try JSONSerialization.jsonObject(with: Data(try #require(SharedData.bytes("\(folder)/tracker_allowlist_reference.json"))))
        let configuration: [String: Any] = [
            "features": [
                "contentBlocking": ["state": "enabled", "exceptions": []],
                "trackerAllowlist": ["state": "enabled", "exceptions": [], "settings": ["allowlistedTrackers": allowlist]],
            ],
            "unprotectedTemporary": [],
        ]
        let configurationFile = directory.appendingPathComponent("config.json")
        try JSONSerialization.data(withJSONObject: configuration).write(to: configurationFile)
        let answers = try Self.runSuite(
            tds: SharedData.path("\(folder)/tracker_allowlist_tds_reference.json"), configuration: configurationFile.path,
            cases: cases.map { SuiteCase(requestURL: $0.request, topURL: $0.site, type: "script") })
        for (test, answer) in zip(cases, answers) {
            if test.isAllowlisted {
                #expect(!answer.engineBlocks, "\(test.description): allowlisted, but the engine blocks it")
                #expect(answer.reason == BlockingDecision.Reason.trackerAllowlist.rawValue, "\(test.description): \(answer.classification)")
            } else {
                #expect(answer.resolverBlocks, "\(test.description): a default-block tracker not allowlisted: \(answer.classification)")
                #expect(answer.engineBlocks == answer.resolverBlocks, "\(test.description): engine flags \(answer.flags)")
            }
        }
    }

    @Test("the request blocklist's 41 cases through a C host's protection set (configuration, blocklist, user allowlist and surrogates from files): engine and resolver block exactly the expected ones",
          .enabled(if: SharedData.shouldRun(SharedData.requestBlocklist), SharedData.skipMessage))
    func requestBlocklistSuite() throws {
        let cases = RequestBlocklistCase.all
        try #require(cases.count == 41)
        let folder = SharedData.requestBlocklist
        let answers = try Self.runSuite(
            tds: SharedData.path("\(folder)/tds-reference.json"), configuration: SharedData.path("\(folder)/config-reference.json"),
            userAllowlist: SharedData.path("\(folder)/user-allowlist-reference.json"),
            surrogates: SharedData.path("\(folder)/surrogates-reference.txt"),
            cases: cases.map { SuiteCase(requestURL: $0.requestURL, topURL: $0.websiteURL, type: $0.requestType) })
        for (test, answer) in zip(cases, answers) {
            #expect(answer.engineBlocks == test.expectsBlocked, "\(test.testDescription): engine flags \(answer.flags)")
            #expect(answer.resolverBlocks == test.expectsBlocked, "\(test.testDescription): \(answer.classification)")
        }
    }

    @Test("the privacy configuration's blocking cases (contentBlocking 17, trackerAllowlist 2) through a C host's protection set: a default-block tracker is blocked exactly when tracker blocking is on for the site",
          .enabled(if: SharedData.shouldRun(SharedData.privacyConfiguration), SharedData.skipMessage))
    func privacyConfigurationSuite() throws {
        let features = [PrivacyConfiguration.FeatureName.contentBlocking, PrivacyConfiguration.FeatureName.trackerAllowlist]
        let cases = PrivacyConfigurationCase.all.filter { features.contains($0.featureName) }
        try #require(cases.count == 19)
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let tds = directory.appendingPathComponent("one-tracker-tds.json")
        try Data(PrivacyConfigurationCase.oneTrackerBlocklist.utf8).write(to: tds)
        let trackerURL = "https://tracker.example/pixel.gif"
        var passed = 0
        // One runtime a configuration (and, for the allowlist cases, that configuration with the
        // tracker allowlisted everywhere).
        let groups = Dictionary(grouping: cases) { "\($0.referenceConfig)\t\($0.featureName)" }
        for key in groups.keys.sorted() {
            let group = try #require(groups[key])
            let first = try #require(group.first)
            var configurationPath = first.referenceConfigPath
            var configuration = try PrivacyConfiguration(contentsOfFile: configurationPath)
            let isAllowlistCase = first.featureName == PrivacyConfiguration.FeatureName.trackerAllowlist
            if isAllowlistCase {
                var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: configurationPath))) as? [String: Any])
                var features = try #require(json["features"] as? [String: Any])
                var feature = features["trackerAllowlist"] as? [String: Any] ?? ["state": "disabled"]
                var settings = feature["settings"] as? [String: Any] ?? [:]
                settings["allowlistedTrackers"] = ["tracker.example": ["rules": [["rule": "tracker.example/", "domains": ["<all>"]]]]]
                feature["settings"] = settings
                features["trackerAllowlist"] = feature
                json["features"] = features
                let file = directory.appendingPathComponent("allowlisted-\(first.referenceConfig)")
                try JSONSerialization.data(withJSONObject: json).write(to: file)
                configurationPath = file.path
                configuration = try PrivacyConfiguration(contentsOfFile: configurationPath)
            }
            let answers = try Self.runSuite(
                tds: tds.path, configuration: configurationPath,
                cases: group.map { SuiteCase(requestURL: trackerURL, topURL: $0.topURL, type: "image") })
            for (test, answer) in zip(group, answers) {
                let site = try #require(CanonicalURL(test.topURL))
                // The allowlist cases: the tracker loads exactly when the allowlist is on (and
                // tracker blocking would block it otherwise).
                let expectsBlocked = isAllowlistCase
                    ? configuration.isFeatureEnabled(PrivacyConfiguration.FeatureName.contentBlocking, forTopURL: site) && !test.expectFeatureEnabled
                    : test.expectFeatureEnabled
                #expect(answer.engineBlocks == expectsBlocked, "\(test.testDescription): engine flags \(answer.flags)")
                #expect(answer.resolverBlocks == expectsBlocked, "\(test.testDescription): \(answer.classification)")
                if answer.engineBlocks == expectsBlocked && answer.resolverBlocks == expectsBlocked { passed += 1 }
            }
        }
        #expect(passed == 19)
    }
}
