/// The lookup loop both Bloom filter formats share: whether every probe's bit is set.
///
/// There are two branches at most: after the first ``size`` probes, then after all the others.
/// Each group is tested without branching, so that its cache misses overlap. A non-member of a
/// filter filled to its design point (half its bits set) fails the first group with probability
/// 1 − 1/2^size, so that branch is well predicted; a branch after every probe would go either way
/// for half of all non-members, and each misprediction stops the processor from overlapping one
/// lookup with the next. A member passes both branches, and its remaining probes are one sweep.
enum ProbeGroups {
    /// How many probes are tested before the first branch.
    static let size = 4

    /// Whether the bits `bitIndex(0) ..< bitIndex(count)` of `bits` (least significant bit of
    /// each byte first) are all set.
    @inline(__always)
    static func allSet(count: Int, in bits: UnsafeBufferPointer<UInt8>, bitIndex: (Int) -> UInt32) -> Bool {
        let firstGroupEnd = min(size, count)
        guard allSet(in: 0..<firstGroupEnd, bits: bits, bitIndex: bitIndex) else { return false }
        return allSet(in: firstGroupEnd..<count, bits: bits, bitIndex: bitIndex)
    }

    @inline(__always)
    private static func allSet(in probes: Range<Int>, bits: UnsafeBufferPointer<UInt8>, bitIndex: (Int) -> UInt32) -> Bool {
        var allSet: UInt8 = 1
        for probe in probes {
            let bit = bitIndex(probe)
            allSet &= bits[Int(bit >> 3)] >> UInt8(bit & 7)
        }
        return allSet & 1 == 1
    }
}
