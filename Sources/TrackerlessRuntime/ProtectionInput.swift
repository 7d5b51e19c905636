/// Which input of a ``ProtectionSet`` something is about: the name errors start with.
public enum ProtectionInput: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The Tracker Radar blocklist (tds.json).
    case trackerData = "tds"
    /// DuckDuckGo's privacy configuration.
    case privacyConfiguration = "privacy configuration"
    /// The user allowlist (a JSON array of hosts).
    case userAllowlist = "user allowlist"
    /// The surrogates (surrogates.txt).
    case surrogates = "surrogates"
    /// The script settings.
    case scriptSettings = "script settings"
    /// The Smarter Encryption files of ``ProtectionInputs/httpsFilterDirectory``.
    case httpsFilter = "https filter"
    /// The settings of the rule lists, ``ProtectionInputs/ruleLists``.
    case ruleListSettings = "rule list settings"

    /// The input's name, as in `rawValue`.
    public var description: String { rawValue }
}
