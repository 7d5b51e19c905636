/// When ``PrivacyStats`` writes its totals to its store by itself: soon after a page ends (a
/// navigation replaces it, its tab closes), and at most a while after any other count. The host
/// calls ``PrivacyStats/flush()`` itself only when it goes to the background or quits.
///
/// The writes run off the caller's thread, on one serial queue, one at a time; a count that
/// arrives while a write is waiting joins it.
public struct SavingSchedule: Sendable, Hashable {
    /// Seconds from a page's end to the write of its counts; nil: not at page ends.
    public var afterPageEnd: Double?
    /// Seconds from a count to its write at the latest; nil: not for counts.
    public var afterCount: Double?

    /// Writes half a second after a page ends, and within 30 seconds of any count.
    public static let `default` = SavingSchedule(afterPageEnd: 0.5, afterCount: 30)
    /// Never by itself: only ``PrivacyStats/flush()`` writes.
    public static let manual = SavingSchedule(afterPageEnd: nil, afterCount: nil)

    /// A schedule; see the properties.
    public init(afterPageEnd: Double?, afterCount: Double?) {
        self.afterPageEnd = afterPageEnd
        self.afterCount = afterCount
    }
}
