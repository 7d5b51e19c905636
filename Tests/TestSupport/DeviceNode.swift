public import Foundation
public import Testing

/// Character devices equal to `/dev/null`, made in a test's own directory: a test points a
/// writer at one of those, never at the real `/dev/null`, which a wrong writer would replace.
public enum DeviceNode {
    /// Whether this process may make device nodes: `mknod` needs root (and a container that
    /// allows it); where it fails with EPERM, the tests that need a node are skipped.
    public static let canMake: Bool = {
        let path = NSTemporaryDirectory() + "trackerless-mknod-\(UUID().uuidString)"
        defer { unlink(path) }
        return makeNull(at: path) || errno != EPERM
    }()

    /// The trait of a test or suite that needs device nodes: skipped, saying why, without them.
    public static let mknodAllowed = ConditionTrait.enabled(
        if: canMake, "mknod failed with EPERM: making a device node needs root")

    /// Makes at `path` a character device with the device number of `/dev/null`; false (errno
    /// set) when it cannot.
    public static func makeNull(at path: String) -> Bool {
        // The real /dev/null is only looked at, for its device number.
        var null = stat()
        guard stat("/dev/null", &null) == 0 else { return false }
        return mknod(path, S_IFCHR | 0o666, null.st_rdev) == 0
    }

    /// The type of what is at `path` (`S_IFCHR`, `S_IFIFO`, `S_IFREG`, ...), not following a
    /// symbolic link; nil when there is nothing.
    public static func fileType(_ path: String) -> mode_t? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        return status.st_mode & S_IFMT
    }
}
