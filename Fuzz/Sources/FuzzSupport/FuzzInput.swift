/// The bytes libFuzzer hands to `LLVMFuzzerTestOneInput`.
public enum FuzzInput {
    /// Copies libFuzzer's buffer into an array (a null pointer with count 0 is the empty input).
    public static func bytes(_ start: UnsafeRawPointer?, _ count: Int) -> [UInt8] {
        guard let start, count > 0 else { return [] }
        return Array(UnsafeRawBufferPointer(start: start, count: count))
    }

    /// For fuzzers of several formats: the format chosen by the first byte (modulo
    /// `formatCount`) and the file, the bytes after it; nil for the empty input.
    public static func format(
        _ start: UnsafeRawPointer?, _ count: Int, of formatCount: UInt8
    ) -> (format: UInt8, bytes: [UInt8])? {
        let input = bytes(start, count)
        guard let first = input.first else { return nil }
        return (first % formatCount, Array(input.dropFirst()))
    }
}

/// Stops the run with `message` when an invariant of a decoder does not hold: libFuzzer reports
/// the trap as a crash and saves the input.
public func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError("invariant failed: \(message())") }
}
