import RuleBuilder
import Testing
import TrackerDataKit
import TrackerlessCore
import TrackerlessTestSupport

/// The real blocklists DuckDuckGo ships, built into rules, against the resolver on adblock-rust's
/// 8,276 real request URLs, each on several pages (see ``DifferentialPairs``): the reference
/// evaluator must block exactly what the resolver blocks, for every pair.
///
/// With the default settings every pair is checked (about 43,400 per blocklist). The two other
/// settings check a fixed-seed half sample (about 21,700 pairs each): in debug builds most of the
/// time goes into preparing the evaluator (about 10 s per blocklist) and evaluating the pairs.
@Suite(
    "Real blocklists: built rules against the resolver",
    .enabled(
        if: SharedData.shouldRun(SharedData.matchingTestRequests) && SharedData.realBlocklists.allSatisfy(SharedData.shouldRun),
        SharedData.skipMessage))
struct RealDataDifferentialTests {
    /// One blocklist with one way of building it.
    struct Configuration: Sendable, CustomTestStringConvertible {
        var file: String
        var settingsName: String
        var settings: RuleListBuilder.Settings
        /// The share of request/site pairs checked.
        var sampleFraction: Double

        var testDescription: String {
            sampleFraction < 1 ? "\(file), \(settingsName), \(Int(sampleFraction * 100))% sample" : "\(file), \(settingsName)"
        }
    }

    static let configurations: [Configuration] = SharedData.realBlocklists.flatMap { file in
        [
            Configuration(file: file, settingsName: "default settings", settings: .init(), sampleFraction: 1),
            Configuration(
                file: file, settingsName: "if-domain site conditions", settings: .init(siteConditionStyle: .ifDomain),
                sampleFraction: 0.5),
            Configuration(
                file: file, settingsName: "rule text after the host", settings: .init(matchesRuleTextAfterHost: true),
                sampleFraction: 0.5),
        ]
    }

    /// Each blocklist, loaded once for its three configurations.
    static let trackerData: [String: Result<TrackerData, TrackerDataError>] = Dictionary(
        uniqueKeysWithValues: SharedData.realBlocklists.map { file in
            (file, Result { () throws(TrackerDataError) -> TrackerData in
                try TrackerData(contentsOfFile: SharedData.path(file))
            })
        })

    @Test("all 8,276 requests are loaded")
    func requestCount() {
        #expect(MatchingTestRequest.all.count == 8_276)
    }

    @Test("the reference evaluator blocks exactly what the resolver blocks", arguments: configurations)
    func differential(_ configuration: Configuration) throws {
        let trackerData = try #require(Self.trackerData[configuration.file]).get()
        let rules = try BuiltRules(trackerData: trackerData, settings: configuration.settings)
        let allPairs = DifferentialPairs(requests: MatchingTestRequest.all, trackerData: trackerData)
        let pairs = configuration.sampleFraction < 1 ? allPairs.sampled(fraction: configuration.sampleFraction) : allPairs
        #expect(pairs.count >= 20_000, "too few request/site pairs: \(pairs.count)")

        var mismatches: [String] = []
        var mismatchCount = 0
        var blocked = 0
        var unparsable = 0
        for pair in pairs.pairs {
            let outcome = rules.outcome(requestURL: pair.request.url, topURL: pair.topURL, type: pair.request.type)
            guard let decision = outcome.decision else {
                unparsable += 1
                continue
            }
            if decision.isBlocked { blocked += 1 }
            if !outcome.agrees {
                mismatchCount += 1
                if mismatches.count < 25 {
                    mismatches.append("\(pair.request.rawType) \(pair.request.url) on \(pair.topURL): \(outcome)")
                }
            }
        }
        #expect(
            mismatchCount == 0,
            "\(mismatchCount) of \(pairs.count) pairs differ; first ones:\n\(mismatches.joined(separator: "\n"))")
        // Guards against a vacuous pass: real trackers are blocked on unrelated sites.
        #expect(blocked > Int(1_500 * configuration.sampleFraction), "only \(blocked) of \(pairs.count) pairs blocked")
        #expect(unparsable < pairs.count / 100, "\(unparsable) pairs with unparsable URLs")
    }
}
