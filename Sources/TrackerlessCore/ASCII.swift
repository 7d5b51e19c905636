/// Byte-level ASCII case, for the parsers and matchers that work on UTF-8 bytes.
public enum ASCII {
    /// `byte` with `A`…`Z` lowercased; every other byte, non-ASCII ones included, unchanged.
    @inlinable @inline(__always)
    public static func lowercased(_ byte: UInt8) -> UInt8 {
        byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte
    }
}
