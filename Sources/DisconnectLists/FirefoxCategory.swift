/// A tracker category as Firefox blocks and counts it: one shavar list, one pair of WebKit rule
/// lists, one counter of the privacy stats.
public enum FirefoxCategory: String, Sendable, Hashable, CaseIterable, Comparable {
    /// Advertising (shavar `ads-track-digest256`).
    case advertising
    /// Analytics (shavar `analytics-track-digest256`).
    case analytics
    /// Social media trackers (shavar `social-track-digest256`).
    case social
    /// Tracking embedded content (shavar `content-track-digest256`); Firefox for iOS generates
    /// its lists but compiles them at neither protection level.
    case content
    /// Cryptominers (shavar `base-cryptomining-track-digest256`).
    case cryptomining
    /// Invasive fingerprinters that also track (shavar `base-fingerprinting-track-digest256`).
    case fingerprinting

    /// The name of the normalized shavar list Firefox's generator reads, without `.json`.
    public var normalizedListName: String {
        switch self {
        case .advertising: "ads-track-digest256"
        case .analytics: "analytics-track-digest256"
        case .social: "social-track-digest256"
        case .content: "content-track-digest256"
        case .cryptomining: "base-cryptomining-track-digest256"
        case .fingerprinting: "base-fingerprinting-track-digest256"
        }
    }

    /// The order in which Firefox's stats checker tries the categories (its load order), then
    /// content: a URL in several lists counts for the first.
    public static let classificationOrder: [FirefoxCategory] = [
        .advertising, .analytics, .social, .cryptomining, .fingerprinting, .content,
    ]

    /// Orders categories as declared.
    public static func < (lhs: FirefoxCategory, rhs: FirefoxCategory) -> Bool {
        allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
    }
}
