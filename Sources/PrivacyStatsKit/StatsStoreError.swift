import TrackerlessCore

/// The statistics store could not be read or written.
public struct StatsStoreError: Error, Sendable, CustomStringConvertible {
    /// The file.
    public var path: String
    /// What went wrong.
    public var reason: String
    /// Whether another store (in this or another process) holds the file: the one error that
    /// says the directory is someone else's, rather than that it cannot be written.
    public var isInUse: Bool
    /// Whether the file was written by a newer Trackerless: left as it is, never overwritten.
    public var isNewerVersion: Bool

    /// Creates an error.
    public init(path: String, reason: String, isInUse: Bool = false, isNewerVersion: Bool = false) {
        self.path = path
        self.reason = reason
        self.isInUse = isInUse
        self.isNewerVersion = isNewerVersion
    }

    /// `path: reason`.
    public var description: String { "\(path): \(reason)" }
}
