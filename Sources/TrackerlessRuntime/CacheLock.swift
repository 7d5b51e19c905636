#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import TrackerlessCore

/// One runtime per cache directory: an exclusive `flock` on `<cache>/lock`, taken before the
/// runtime reads or writes anything there and held until it is freed.
///
/// A second runtime on the same directory, in this process or another, is refused at once,
/// before it builds a set or replaces the cached one. The lock is the kernel's, so a runtime
/// that crashed holds nothing. A cache the process cannot write (a read-only disk) without the
/// file is used unlocked: nothing can write there anyway.
final class CacheLock: Sendable {
    /// The descriptor holding the lock; -1 when the cache is used unlocked.
    private let descriptor: Int32

    /// The lock file of `directory`.
    static func path(in directory: String) -> String { directory + "/lock" }

    /// Takes the lock of `directory`, which exists.
    ///
    /// - Throws: ``ProtectionError/unwritable(_:)`` when another runtime holds it, or the lock
    ///   file is not a regular file the runtime made (a link, a directory).
    init(directory: String) throws(ProtectionError) {
        let path = Self.path(in: directory)
        // Read-only is enough for flock, and works on a read-only disk where the file exists.
        let opened = open(path, O_RDONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o644)
        guard opened >= 0 else {
            let code = errno
            if code == EROFS || code == EACCES {
                descriptor = -1
                return
            }
            let reason = code == ELOOP ? "is a symbolic link; the cache directory's lock is a file the runtime makes" : Self.message(code)
            throw .unwritable(FileError(path: path, reason: "cannot open the cache's lock: \(reason)"))
        }
        var status = stat()
        guard fstat(opened, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            close(opened)
            throw .unwritable(FileError(path: path, reason: "cannot open the cache's lock: not a regular file"))
        }
        guard flock(opened, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            close(opened)
            let reason =
                code == EWOULDBLOCK
                ? "the cache directory is in use by another runtime (of this or another process); one runtime per cache directory at a time"
                : "cannot lock the cache: \(Self.message(code))"
            throw .unwritable(FileError(path: path, reason: reason))
        }
        descriptor = opened
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    private static func message(_ code: Int32) -> String {
        strerror(code).map { String(cString: $0) } ?? "error \(code)"
    }
}
