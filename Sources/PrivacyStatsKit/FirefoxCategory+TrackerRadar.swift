public import TrackerDataKit
public import TrackerlessCore

/// The dashboard's categories: their order, and the category of a tracker from its Tracker
/// Radar `categories` and `fingerprinting` score.
extension FirefoxCategory {
    /// The dashboard's order of the categories, the order in which a tracker's category is
    /// derived: cryptomining, fingerprinting, social, advertising, analytics, content, other.
    public static let dashboardOrder: [FirefoxCategory] = [
        .cryptomining, .fingerprinting, .social, .advertising, .analytics, .content, .other,
    ]

    /// The `fingerprinting` score from which a tracker counts as a fingerprinter.
    public static let fingerprintingThreshold = 3

    /// The category of a tracker.
    public init(tracker: Tracker) {
        self.init(categories: tracker.categories, fingerprinting: tracker.fingerprinting)
    }

    /// The category of a tracker's Tracker Radar categories and fingerprinting score.
    ///
    /// Each tracker falls in exactly one category, the first that applies in ``dashboardOrder``:
    ///
    /// | Category | When |
    /// |---|---|
    /// | ``FirefoxCategory/cryptomining`` | a `Cryptomining` or `Malware` category |
    /// | ``FirefoxCategory/fingerprinting`` | `fingerprinting` ≥ ``fingerprintingThreshold`` (3: "excessive use of browser APIs, almost certainly for tracking purposes", tds FORMAT.md) |
    /// | ``FirefoxCategory/social`` | `Social Network`, `Social - Share`, `Social - Comment`, `Federated Login` |
    /// | ``FirefoxCategory/advertising`` | `Advertising`, `Ad Motivated Tracking`, `Ad Fraud`, `Action Pixels` |
    /// | ``FirefoxCategory/analytics`` | `Analytics`, `Audience Measurement`, `Third-Party Analytics Marketing`, `Session Replay`, `Tag Manager` |
    /// | ``FirefoxCategory/content`` | `Embedded Content`, `Content Delivery`, `CDN`, `Online Payment`, `SSO`, `Support Chat Widget`, `Badge`, `Consent Management Platform` |
    /// | ``FirefoxCategory/other`` | anything else, or no category |
    ///
    /// Score 2 ("possibly for tracking purposes") is not enough: in apple-tds.json 562 of 2,899
    /// trackers score 2 or more, which would file most advertising under fingerprinting.
    public init(categories: [String], fingerprinting: Int?) {
        // The first category in ``dashboardOrder`` that a Tracker Radar category names;
        // cryptomining comes first.
        var first: FirefoxCategory?
        for category in categories {
            if let bucket = Self.bucketByCategory[category], first.map({ bucket.dashboardRank < $0.dashboardRank }) ?? true {
                first = bucket
            }
        }
        if first == .cryptomining {
            self = .cryptomining
        } else if let fingerprinting, fingerprinting >= Self.fingerprintingThreshold {
            self = .fingerprinting
        } else {
            self = first ?? .other
        }
    }

    /// The position in ``dashboardOrder``.
    private var dashboardRank: Int {
        Self.dashboardOrder.firstIndex(of: self) ?? Self.dashboardOrder.count
    }

    private static let bucketByCategory: [String: FirefoxCategory] = [
        "Cryptomining": .cryptomining, "Malware": .cryptomining,
        "Social Network": .social, "Social - Share": .social, "Social - Comment": .social, "Federated Login": .social,
        "Advertising": .advertising, "Ad Motivated Tracking": .advertising, "Ad Fraud": .advertising,
        "Action Pixels": .advertising,
        "Analytics": .analytics, "Audience Measurement": .analytics, "Third-Party Analytics Marketing": .analytics,
        "Session Replay": .analytics, "Tag Manager": .analytics,
        "Embedded Content": .content, "Content Delivery": .content, "CDN": .content, "Online Payment": .content,
        "SSO": .content, "Support Chat Widget": .content, "Badge": .content, "Consent Management Platform": .content,
    ]
}
