/// Damaged copies of a document, for tests that hold a decoder to an oracle on bad input.
public enum DocumentMutations {
    /// Calls `body` with every prefix of `bytes` shorter than the whole, and its description.
    public static func eachTruncation(of bytes: [UInt8], _ body: ([UInt8], String) -> Void) {
        for length in 0..<bytes.count {
            body(Array(bytes[..<length]), "first \(length) bytes")
        }
    }

    /// Calls `body` with `bytes` missing one byte, for each byte, and with each byte replaced by
    /// each of `replacements` that differs from it; with a description of the change.
    public static func eachDeletionAndReplacement(
        of bytes: [UInt8], replacements: [UInt8], _ body: ([UInt8], String) -> Void
    ) {
        for index in bytes.indices {
            var deleted = bytes
            deleted.remove(at: index)
            body(deleted, "byte \(index) deleted")
            for replacement in replacements where replacement != bytes[index] {
                var replaced = bytes
                replaced[index] = replacement
                body(replaced, "byte \(index) replaced by \(UnicodeScalar(replacement))")
            }
        }
    }
}
