import Dispatch

/// The monotonic clock the CLI times with, in nanoseconds: `ContinuousClock` and `Duration` need
/// macOS 13 / iOS 16, and the package supports macOS 12 / iOS 15.
struct MonotonicClock {
    /// Nanoseconds since an arbitrary moment; differences are durations.
    var now: UInt64 { DispatchTime.now().uptimeNanoseconds }
}
