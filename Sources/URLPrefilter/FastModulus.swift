/// `x % divisor` for 32-bit `x` without a division instruction (Lemire, Kaser and Kurz,
/// "Faster remainder by direct computation", 2019): exact for every 32-bit dividend and divisor.
struct FastModulus: Sendable, Hashable {
    let divisor: UInt32
    /// ceil(2^64 / divisor), wrapped to 0 for a divisor of 1.
    let reciprocal: UInt64

    init(_ divisor: UInt32) {
        precondition(divisor > 0, "FastModulus needs a positive divisor")
        self.divisor = divisor
        reciprocal = (UInt64.max / UInt64(divisor)) &+ 1
    }

    @inline(__always)
    func remainder(of value: UInt32) -> UInt32 {
        let fraction = reciprocal &* UInt64(value)
        return UInt32(truncatingIfNeeded: fraction.multipliedFullWidth(by: UInt64(divisor)).high)
    }
}
