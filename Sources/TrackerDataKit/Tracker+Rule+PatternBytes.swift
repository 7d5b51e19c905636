extension Tracker.Rule {
    /// The UTF-8 of several rules' patterns, one after the other, in one allocation: the parser
    /// gives a tracker's rules one of these, so that a pattern too long to be kept inline in its
    /// `String` (more than 15 bytes) does not take an allocation of its own. Immutable once made.
    final class PatternBytes: ManagedBuffer<Int, UInt8> {
        /// Storage for `count` bytes, to be filled with ``copy(_:to:)`` before it is shared.
        static func make(count: Int) -> PatternBytes {
            unsafeDowncast(PatternBytes.create(minimumCapacity: count) { _ in count }, to: PatternBytes.self)
        }

        /// Copies `utf8` to `start`, returning its count.
        func copy(_ utf8: UnsafeBufferPointer<UInt8>, to start: Int) -> Int {
            withUnsafeMutablePointerToElements { (bytes) in
                if let base = utf8.baseAddress { (bytes + start).initialize(from: base, count: utf8.count) }
            }
            return utf8.count
        }

        /// The pattern of `count` bytes at `start`.
        func string(at start: UInt32, count: UInt32) -> String {
            withUnsafeMutablePointerToElements { (bytes) in
                String(decoding: UnsafeBufferPointer(start: bytes + Int(start), count: Int(count)), as: UTF8.self)
            }
        }

        /// Whether the pattern of `count` bytes at `start` is `other`'s bytes.
        func pattern(at start: UInt32, count: UInt32, equals other: UnsafeBufferPointer<UInt8>) -> Bool {
            withUnsafeMutablePointerToElements { (bytes) in
                other.count == Int(count) && UnsafeBufferPointer(start: bytes + Int(start), count: Int(count)).elementsEqual(other)
            }
        }
    }
}
