/// A duration in milliseconds with three decimals, for messages and JSON.
struct Milliseconds: CustomStringConvertible {
    let value: Double

    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        value = Double(seconds) * 1e3 + Double(attoseconds) / 1e15
    }

    /// Rounded to microseconds, so that the figures read well.
    var rounded: Double { (value * 1000).rounded() / 1000 }

    var description: String { "\(rounded) ms" }
}
