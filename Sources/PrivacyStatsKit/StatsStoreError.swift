import TrackerlessCore

/// The statistics store could not be read or written.
public struct StatsStoreError: Error, Sendable, CustomStringConvertible {
    /// The file.
    public var path: String
    /// What went wrong.
    public var reason: String

    /// Creates an error.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// `path: reason`.
    public var description: String { "\(path): \(reason)" }
}
