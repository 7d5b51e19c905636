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
