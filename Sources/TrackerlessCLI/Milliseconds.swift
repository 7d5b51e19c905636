import Dispatch

/// A duration in milliseconds with three decimals, for messages and JSON.
struct Milliseconds: CustomStringConvertible {
    let value: Double

    /// A duration of `nanoseconds`, as ``MonotonicClock`` measures them.
    init(_ nanoseconds: UInt64) {
        value = Double(nanoseconds) / 1e6
    }

    /// Rounded to microseconds, so that the figures read well.
    var rounded: Double { (value * 1000).rounded() / 1000 }

    var description: String { "\(rounded) ms" }
}

/// The monotonic clock the CLI times with, in nanoseconds: `ContinuousClock` and `Duration` need
/// macOS 13 / iOS 16, and the package supports macOS 12 / iOS 15.
struct MonotonicClock {
    /// Nanoseconds since an arbitrary moment; differences are durations.
    var now: UInt64 { DispatchTime.now().uptimeNanoseconds }
}
