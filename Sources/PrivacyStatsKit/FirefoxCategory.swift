import TrackerDataKit

/// The tracker categories Firefox's protection dashboard counts, derived from a tracker's
/// Tracker Radar `categories` and `fingerprinting` score.
///
/// Each tracker falls in exactly one bucket, the first that applies in this order:
///
/// | Bucket | When |
/// |---|---|
/// | ``cryptominers`` | a `Cryptomining` or `Malware` category |
/// | ``fingerprinters`` | `fingerprinting` ≥ ``fingerprintingThreshold`` (3: "excessive use of browser APIs, almost certainly for tracking purposes", tds FORMAT.md) |
/// | ``social`` | `Social Network`, `Social - Share`, `Social - Comment`, `Federated Login` |
/// | ``advertising`` | `Advertising`, `Ad Motivated Tracking`, `Ad Fraud`, `Action Pixels` |
/// | ``analytics`` | `Analytics`, `Audience Measurement`, `Third-Party Analytics Marketing`, `Session Replay`, `Tag Manager` |
/// | ``content`` | `Embedded Content`, `Content Delivery`, `CDN`, `Online Payment`, `SSO`, `Support Chat Widget`, `Badge`, `Consent Management Platform` |
/// | ``other`` | anything else, or no category |
///
/// Score 2 ("possibly for tracking purposes") is not enough: in apple-tds.json 562 of 2,899
/// trackers score 2 or more, which would file most advertising under fingerprinters.
public enum FirefoxCategory: String, Sendable, Hashable, CaseIterable, Comparable {
    /// Cryptocurrency miners.
    case cryptominers
    /// Trackers that fingerprint browsers.
    case fingerprinters
    /// Social-network trackers (share buttons, embedded login, comment widgets).
    case social
    /// Advertising and ad-motivated tracking.
    case advertising
    /// Analytics and audience measurement.
    case analytics
    /// Embedded content and delivery networks that track.
    case content
    /// Trackers in none of the above.
    case other

    /// The `fingerprinting` score from which a tracker counts as a fingerprinter.
    public static let fingerprintingThreshold = 3

    /// The bucket of a tracker.
    public init(tracker: Tracker) {
        self.init(categories: tracker.categories, fingerprinting: tracker.fingerprinting)
    }

    /// The bucket of a tracker's categories and fingerprinting score.
    public init(categories: [String], fingerprinting: Int?) {
        // The first bucket in ``allCases`` order that a category names; cryptominers come first.
        var first: FirefoxCategory?
        for category in categories {
            if let bucket = Self.bucketByCategory[category], first.map({ bucket.order < $0.order }) ?? true { first = bucket }
        }
        if first == .cryptominers {
            self = .cryptominers
        } else if let fingerprinting, fingerprinting >= Self.fingerprintingThreshold {
            self = .fingerprinters
        } else {
            self = first ?? .other
        }
    }

    /// The position in ``allCases``.
    private var order: Int {
        switch self {
        case .cryptominers: 0
        case .fingerprinters: 1
        case .social: 2
        case .advertising: 3
        case .analytics: 4
        case .content: 5
        case .other: 6
        }
    }

    private static let bucketByCategory: [String: FirefoxCategory] = [
        "Cryptomining": .cryptominers, "Malware": .cryptominers,
        "Social Network": .social, "Social - Share": .social, "Social - Comment": .social, "Federated Login": .social,
        "Advertising": .advertising, "Ad Motivated Tracking": .advertising, "Ad Fraud": .advertising,
        "Action Pixels": .advertising,
        "Analytics": .analytics, "Audience Measurement": .analytics, "Third-Party Analytics Marketing": .analytics,
        "Session Replay": .analytics, "Tag Manager": .analytics,
        "Embedded Content": .content, "Content Delivery": .content, "CDN": .content, "Online Payment": .content,
        "SSO": .content, "Support Chat Widget": .content, "Badge": .content, "Consent Management Platform": .content,
    ]

    /// Orders as ``allCases`` does.
    public static func < (lhs: FirefoxCategory, rhs: FirefoxCategory) -> Bool {
        lhs.order < rhs.order
    }
}
