/// Why a Bloom filter could not be sized, built or read.
public enum BloomFilterError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The false-positive rate is not a number strictly between 0 and 1.
    case invalidFalsePositiveRate(Double)
    /// The filter would hold no entries, so it cannot be sized.
    case noEntries
    /// The filter would need more bits than its format can count (`limit`, for example 2^32 − 1).
    case tooManyBits(needed: Double, limit: UInt64)
    /// A parameter is out of range, for example a bit count of 0 or a hash count of 0.
    case invalidParameter(name: String, value: String, reason: String)
    /// The bit array does not have the length the bit count needs.
    case dataSizeMismatch(expectedBytes: Int, foundBytes: Int)
    /// The data does not have the SHA-256 its specification states.
    case checksumMismatch(expected: String, found: String)

    /// What is wrong and what is allowed, for example
    /// `false-positive rate 1.0 is out of range: it must be greater than 0 and less than 1`.
    public var description: String {
        switch self {
        case .invalidFalsePositiveRate(let rate):
            return "false-positive rate \(rate) is out of range: it must be greater than 0 and less than 1"
        case .noEntries:
            return "no entries: a Bloom filter needs at least one entry"
        case .tooManyBits(let needed, let limit):
            let bits = needed.isFinite ? fullDigits(needed) : "\(needed)"
            return "the filter would need \(bits) bits, more than the format's limit of \(limit)"
        case .invalidParameter(let name, let value, let reason):
            return "\(name) \(value) is invalid: \(reason)"
        case .dataSizeMismatch(let expected, let found):
            return "the bit array has \(found) bytes, but the bit count needs \(expected)"
        case .checksumMismatch(let expected, let found):
            return "the data's SHA-256 is \(found), but \(expected) was expected"
        }
    }
}

/// A large bit count written in full, without an exponent.
private func fullDigits(_ value: Double) -> String {
    value < 1e18 ? String(UInt64(value.rounded(.up))) : "\(value)"
}
