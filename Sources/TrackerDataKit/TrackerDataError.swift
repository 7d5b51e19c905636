public import TrackerlessCore

/// Why an input of this module (tds.json, a privacy configuration, a user allowlist) could not
/// be read, with the file and the place inside it.
public enum TrackerDataError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file could not be read.
    case unreadable(FileError)
    /// The bytes are not JSON.
    case syntax(JSONSyntaxError, file: String?)
    /// The JSON is well formed but a known field has the wrong type or a required one is missing.
    case invalidValue(JSONDecodingError, file: String?)

    /// For example `apple-tds.json: trackers["x.com"].rules[3].rule: expected a string, found a number`.
    public var description: String {
        switch self {
        case .unreadable(let error):
            return error.description
        case .syntax(let error, let file):
            return file.map { "\($0): \(error)" } ?? error.description
        case .invalidValue(let error, let file):
            return file.map { "\($0): \(error)" } ?? error.description
        }
    }
}

extension TrackerDataError {
    /// Reads `bytes` with `body` through a ``JSONReader``, wrapping its failure with `file`.
    static func reading<T>(
        _ bytes: [UInt8], file: String?, _ body: (inout JSONReader) throws(JSONReadError) -> T
    ) throws(TrackerDataError) -> T {
        do throws(JSONReadError) {
            return try JSONReader.read(bytes, body)
        } catch {
            switch error {
            case .syntax(let error): throw .syntax(error, file: file)
            case .invalidValue(let error): throw .invalidValue(error, file: file)
            case .rejected(let error as TrackerDataError): throw error
            case .rejected(let error): preconditionFailure("a tds decoder threw \(error), not a TrackerDataError")
            }
        }
    }
}
