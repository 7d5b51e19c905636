import Dispatch

/// The monotonic clock the benchmarks time with, in nanoseconds: `ContinuousClock` and `Duration`
/// need macOS 13 / iOS 16, and the package supports macOS 12 / iOS 15 (as the CLI's
/// `MonotonicClock`, Sources/TrackerlessCLI/MonotonicClock.swift).
enum MonotonicClock {
    /// Nanoseconds since an arbitrary moment; differences are durations.
    static var now: UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// The milliseconds from `start` to `end` (two readings of ``now``); negative when `end` is
    /// the earlier one.
    static func milliseconds(from start: UInt64, to end: UInt64) -> Double {
        Double(Int64(bitPattern: end &- start)) / 1e6
    }

    /// The milliseconds from `start` (a reading of ``now``) to now.
    static func milliseconds(since start: UInt64) -> Double {
        milliseconds(from: start, to: now)
    }
}
