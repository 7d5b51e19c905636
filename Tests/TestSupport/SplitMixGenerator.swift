/// SplitMix64: a tiny seeded random number generator, so that generated test inputs are the same
/// on every run and platform (Foundation's and the standard library's default generators are
/// neither seedable nor stable).
///
/// ```swift
/// var random = SplitMixGenerator(seed: 42)
/// let coin = random.chance(0.5)
/// ```
public struct SplitMixGenerator: RandomNumberGenerator, Sendable {
    /// The generator's whole state; the next value depends only on it.
    public var state: UInt64

    /// A generator whose sequence is fixed by `seed`.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// True with probability `probability`.
    public mutating func chance(_ probability: Double) -> Bool {
        Double(next() >> 11) / Double(1 << 53) < probability
    }

    /// A uniformly chosen integer in `range`.
    public mutating func int(in range: ClosedRange<Int>) -> Int {
        Int.random(in: range, using: &self)
    }

    /// A uniformly chosen element (`elements` must not be empty; the generator's own vocabularies
    /// never are).
    public mutating func pick<T>(_ elements: [T]) -> T {
        elements[Int.random(in: 0..<elements.count, using: &self)]
    }

    /// A seed derived from `seed` and `index`, so that case `index` of a run can be replayed alone.
    public static func seed(_ seed: UInt64, index: UInt64) -> UInt64 {
        var generator = SplitMixGenerator(seed: seed ^ (index &* 0xD1B5_4A32_D192_ED03))
        return generator.next()
    }
}
