/// Why a compiled engine file cannot be loaded; the caller can compile the rule lists again.
public struct CompiledEngineError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong with the file.
    public enum Kind: Sendable, Hashable {
        /// The data does not start with the compiled-engine signature.
        case notACompiledEngine
        /// The file was written by another format version.
        case unsupportedVersion(found: UInt32, supported: UInt32)
        /// The data ends before its declared length.
        case truncated
        /// The contents do not match the stored checksum.
        case checksumMismatch
        /// The contents are inconsistent (an offset or count out of range).
        case corrupt
    }

    /// What is wrong.
    public var kind: Kind
    /// Where, when known (a table name, an offset).
    public var detail: String?

    /// Creates an error.
    public init(_ kind: Kind, detail: String? = nil) {
        self.kind = kind
        self.detail = detail
    }

    /// A message naming the problem, then the detail.
    public var description: String {
        let message: String
        switch kind {
        case .notACompiledEngine: message = "not a compiled Trackerless rule engine"
        case .unsupportedVersion(let found, let supported):
            message = "compiled with format version \(found); this version reads \(supported): compile the rule lists again"
        case .truncated: message = "the compiled engine is truncated"
        case .checksumMismatch: message = "the compiled engine is corrupt (checksum mismatch)"
        case .corrupt: message = "the compiled engine is corrupt"
        }
        guard let detail else { return message }
        return "\(message) (\(detail))"
    }
}
