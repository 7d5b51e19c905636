extension UInt32 {
    /// The bits rotated towards the most significant end by `count` (1 ..< 32).
    @inline(__always)
    func rotatedLeft(by count: UInt32) -> UInt32 {
        (self << count) | (self >> (32 - count))
    }
}
