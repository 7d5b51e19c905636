/// The lookup loop both Bloom filter formats share: whether every probe's bit is set.
///
/// Probes are tested in groups of ``size`` without branching, so that their cache misses overlap;
/// the only branches are one per group. A non-member of a filter filled to its design point (half
/// its bits set) fails its first group with probability 1 − 1/2^size, so those branches are well
/// predicted, where a branch after every probe would go either way for half of all non-members,
/// and each misprediction stops the processor from overlapping one lookup with the next.
enum ProbeGroups {
    /// How many probes are tested between two branches.
    static let size = 4

    /// Whether the bits `bitIndex(0) ..< bitIndex(count)` of `bits` (least significant bit of
    /// each byte first) are all set.
    @inline(__always)
    static func allSet(count: Int, in bits: UnsafeBufferPointer<UInt8>, bitIndex: (Int) -> UInt32) -> Bool {
        var probe = 0
        while probe < count {
            var allSet: UInt8 = 1
            for index in probe..<min(probe &+ size, count) {
                let bit = bitIndex(index)
                allSet &= bits[Int(bit >> 3)] >> UInt8(bit & 7)
            }
            guard allSet & 1 == 1 else { return false }
            probe &+= size
        }
        return true
    }
}
