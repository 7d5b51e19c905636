/// An object key as ``JSONReader`` meets it: compared with a literal without making a String.
///
/// ```swift
/// switch key {
/// case "domain": ...
/// default: ...
/// }
/// ```
///
/// It points into the document (or, for a key with escapes, into the reader's copy of its text),
/// so it is valid until the reader reads the next key.
public struct JSONKey {
    /// The key's UTF-8 text, escapes resolved.
    @usableFromInline let utf8: UnsafeBufferPointer<UInt8>

    init(_ utf8: UnsafeBufferPointer<UInt8>) {
        self.utf8 = utf8
    }

    /// The key as a String.
    public var string: String {
        String(decoding: utf8, as: UTF8.self)
    }

    /// Whether `key` is `pattern`, so keys can be switched over.
    ///
    /// Inlinable: with the pattern a literal, most keys are told apart by their length alone.
    @inlinable
    public static func ~= (pattern: StaticString, key: JSONKey) -> Bool {
        guard pattern.utf8CodeUnitCount == key.utf8.count else { return false }
        return pattern.withUTF8Buffer { expected in
            for index in 0..<expected.count where expected[index] != key.utf8[index] {
                return false
            }
            return true
        }
    }
}
