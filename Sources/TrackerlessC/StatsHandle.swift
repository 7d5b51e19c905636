import PrivacyStatsKit

/// What a `tl_stats *` points to.
final class StatsHandle {
    let stats: PrivacyStats
    init(_ stats: PrivacyStats) { self.stats = stats }

    static func borrow(_ pointer: OpaquePointer) -> PrivacyStats {
        Unmanaged<StatsHandle>.fromOpaque(UnsafeRawPointer(pointer)).takeUnretainedValue().stats
    }
}
