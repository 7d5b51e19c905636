package import TrackerlessCore

/// Why a ``StatsRecording`` could not be read: the file and line, and for a line that is not
/// JSON, the column and byte within the line and what was expected there.
package enum StatsRecordingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The line is not well-formed JSON; the error's line is 1 and its offset counts from the
    /// start of the recording's line.
    case syntax(JSONSyntaxError, file: String, line: Int)
    /// The line is JSON but not a record.
    case invalidRecord(String, file: String, line: Int)

    /// For example `recording.jsonl:2: column 14 (byte 13 of the line): expected ',' or '}'
    /// after an object member, found 'x'`.
    package var description: String {
        switch self {
        case .syntax(let error, let file, let line):
            "\(file):\(line): column \(error.column) (byte \(error.offset) of the line): \(Self.bounded(error.reason))"
        case .invalidRecord(let reason, let file, let line):
            "\(file):\(line): \(reason)"
        }
    }

    /// At most ``maxReasonCharacters`` of a reason: the parser's reasons quote the input (a
    /// number out of range, in full), and a line may be megabytes long.
    package static func bounded(_ reason: String) -> String {
        reason.count <= maxReasonCharacters ? reason : reason.prefix(maxReasonCharacters) + "…"
    }

    package static let maxReasonCharacters = 160
}
