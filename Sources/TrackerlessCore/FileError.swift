/// A file that could not be read or written, naming the file and the reason.
public struct FileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file's path as given by the caller.
    public var path: String
    /// What went wrong, usually the operating system's message.
    public var reason: String

    /// Creates an error about the file at `path`.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// The path and the reason, for example `tds.json: No such file or directory`.
    public var description: String {
        "\(path): \(reason)"
    }
}
