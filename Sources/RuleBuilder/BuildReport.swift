public import TrackerDataKit

/// What the builder could not translate exactly.
public struct BuildReport: Sendable, Hashable {
    /// One remark about one input value.
    public struct Note: Sendable, Hashable, CustomStringConvertible {
        /// JSON path of the input, e.g. `trackers["x.com"].rules[3].rule`.
        public var path: String
        /// What happened to it.
        public var reason: String
        /// "path: reason"
        public var description: String { "\(path): \(reason)" }
    }

    /// Inputs left out of the rules (unsupported actions, regexes WebKit cannot express).
    public var skippedRules: [Note] = []
    /// Inputs whose rules match a little more or less than the resolver.
    public var approximations: [Note] = []
    /// Trackers in the input.
    public var trackerCount = 0
    /// What reading the inputs skipped (`TrackerData.warnings`, `PrivacyConfiguration.warnings`):
    /// values of the wrong type and unsupported values, which are not in the rules; and what the
    /// configuration leaves out that blocking depends on (`PrivacyConfiguration.protectionWarnings(file:)`).
    public var inputWarnings: [InputWarning] = []

    /// Each list's rules and JSON against its limits, in the order of ``RuleListBuild/ruleLists``.
    public var listSizes: [RuleListSize] = []

    /// An empty report.
    public init() {}
}
