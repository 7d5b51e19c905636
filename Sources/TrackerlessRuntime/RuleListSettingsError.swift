/// A ``RuleListSettings`` value out of its range, naming the setting.
public struct RuleListSettingsError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The setting, as ``RuleListSettings`` names it (`maximumRulesPerList`).
    public let setting: String
    /// Its range, as the message says it (`from 1 to 150000`).
    public let range: String
    /// The value that is out of it.
    public let value: Int

    /// The message: the setting, its range and the value.
    public var description: String { "\(setting) must be \(range), not \(value)" }
}
