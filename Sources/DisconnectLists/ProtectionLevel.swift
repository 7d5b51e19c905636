/// Firefox for iOS's Enhanced Tracking Protection levels, each a set of the generated lists that
/// every tab compiles into its content controller.
public enum ProtectionLevel: String, Sendable, Hashable, CaseIterable {
    /// Standard (the default, preference value `basic`): cookies withheld from advertising,
    /// analytics and social trackers; cryptominers and fingerprinters blocked.
    case standard
    /// Strict: advertising, analytics, social trackers, cryptominers and fingerprinters blocked.
    case strict

    /// The level's lists in the order Firefox adds them. Neither level uses the content lists.
    public var blocklists: [FirefoxBlocklist] {
        switch self {
        case .standard:
            [
                FirefoxBlocklist(.blockCookies, .advertising), FirefoxBlocklist(.blockCookies, .analytics),
                FirefoxBlocklist(.blockCookies, .social), FirefoxBlocklist(.block, .cryptomining),
                FirefoxBlocklist(.block, .fingerprinting),
            ]
        case .strict:
            [
                FirefoxBlocklist(.block, .advertising), FirefoxBlocklist(.block, .analytics),
                FirefoxBlocklist(.block, .social), FirefoxBlocklist(.block, .cryptomining),
                FirefoxBlocklist(.block, .fingerprinting),
            ]
        }
    }
}
