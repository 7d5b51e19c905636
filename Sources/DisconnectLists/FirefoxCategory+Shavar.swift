public import TrackerlessCore

extension FirefoxCategory {
    /// The name of the normalized shavar list Firefox's generator reads, without `.json`; nil
    /// for ``FirefoxCategory/other``, which is no list.
    public var normalizedListName: String? {
        switch self {
        case .advertising: "ads-track-digest256"
        case .analytics: "analytics-track-digest256"
        case .social: "social-track-digest256"
        case .content: "content-track-digest256"
        case .cryptomining: "base-cryptomining-track-digest256"
        case .fingerprinting: "base-fingerprinting-track-digest256"
        case .other: nil
        }
    }

    /// The order in which Firefox's stats checker tries the categories (its load order), then
    /// content: a URL in several lists counts for the first.
    public static let classificationOrder: [FirefoxCategory] = [
        .advertising, .analytics, .social, .cryptomining, .fingerprinting, .content,
    ]
}
