/// DuckDuckGo's TrackerRadarKit (Swift) turning the same tds.json into the same WebKit list, as
/// quoted for these machines. It needs Apple's platforms, so it is never measured in our run.
struct QuotedPeerFigures: Sendable {
    /// Where the figures come from.
    static let source = "DuckDuckGo TrackerRadarKit, quoted (not measured in this run)"
    /// Read, parse, build and encode, in milliseconds.
    static let totalMilliseconds = 450.0
    /// Parsing tds.json.
    static let parseMilliseconds = 110.0
    /// Building the rules.
    static let buildMilliseconds = 70.0
    /// Encoding the JSON: a range, as quoted.
    static let encodeMilliseconds = 230.0...340.0
    /// Rules in its list.
    static let ruleCount = 10_843
    /// Size of its list, as quoted (4.46 MB).
    static let byteCount = 4_460_000
}
