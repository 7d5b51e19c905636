import RuleBuilder
import TrackerDataKit

/// One shape of our rule list (builder settings), with its size and build time.
struct RuleListVariant: Sendable {
    /// A short name for tables and file names: `default`, `exact-path-matches`, `if-domain`.
    let name: String
    /// The builder settings.
    let settings: RuleListBuilder.Settings
    /// Rules in all lists.
    let ruleCount: Int
    /// The encoded lists (usually one).
    let encodedLists: [[UInt8]]
    /// Time to build (builder set-up and `build()`), not encode.
    let build: Samples

    /// Bytes of all encoded lists.
    var byteCount: Int { encodedLists.reduce(0) { $0 + $1.count } }

    /// The shapes compared: the default, exact path matches, and WebKit's `if-domain` conditions.
    static let compared: [(name: String, settings: RuleListBuilder.Settings)] = [
        ("default", RuleListBuilder.Settings()),
        ("exact-path-matches", RuleListBuilder.Settings(matchesRuleTextAfterHost: true)),
        ("if-domain", RuleListBuilder.Settings(siteConditionStyle: .ifDomain)),
    ]

    /// Builds the list `runs` times after a warm-up and encodes the last one.
    static func measure(name: String, settings: RuleListBuilder.Settings, trackerData: TrackerData, runs: Int) -> RuleListVariant {
        let (samples, build) = Samples.measure(runs: runs) {
            RuleListBuilder(trackerData: trackerData, settings: settings).build()
        }
        return RuleListVariant(
            name: name, settings: settings, ruleCount: build.ruleCount,
            encodedLists: build.ruleLists.map { $0.encoded() }, build: samples)
    }
}
