/// A tracker category as Firefox names it: one of its tracking-protection lists (shavar
/// `ads-track-digest256`, ...), or ``other`` for a tracker in none of them.
///
/// One type for the modules that speak of Firefox's categories: DisconnectLists compiles the
/// lists of ``listCategories`` into rule lists and names the category of a blocked URL;
/// PrivacyStatsKit files each tracker in one category, ``other`` included, for the dashboard.
public enum FirefoxCategory: String, Sendable, Hashable, CaseIterable, Comparable {
    /// Advertising (shavar `ads-track-digest256`).
    case advertising
    /// Analytics and audience measurement (shavar `analytics-track-digest256`).
    case analytics
    /// Social media trackers: share buttons, embedded login, comment widgets (shavar
    /// `social-track-digest256`).
    case social
    /// Tracking embedded content and delivery networks (shavar `content-track-digest256`).
    case content
    /// Cryptominers (shavar `base-cryptomining-track-digest256`).
    case cryptomining
    /// Invasive fingerprinters (shavar `base-fingerprinting-track-digest256`).
    case fingerprinting
    /// Trackers in none of Firefox's lists' categories; no list of its own.
    case other

    /// The categories that are one of Firefox's lists: every case but ``other``, in declared order.
    public static let listCategories: [FirefoxCategory] = allCases.filter { $0 != .other }

    /// Orders categories as declared.
    public static func < (lhs: FirefoxCategory, rhs: FirefoxCategory) -> Bool {
        allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
    }
}
