import Foundation

/// A mount, a remount or a write of ``SmallFileSystem`` that failed, with the system's reason.
public struct MountError: Error, CustomStringConvertible {
    /// What was done, as the command that would do it.
    public let operation: String
    /// The `errno` it failed with.
    public let code: Int32

    /// The command and the system's reason.
    public var description: String { "\(operation): \(String(cString: strerror(code)))" }
}
