#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension FileIO {
    /// Removes the temporaries that killed ``writeAtomically(_:to:)`` calls left beside `path`
    /// (`.<name>.tmp-<pid>-<n>`): regular files only, of processes no longer running (or of this
    /// one, which is not writing `path` now, the caller says). Returns how many it removed.
    ///
    /// Call it only where no other writer of `path` can be at work, such as under a lock of the
    /// directory.
    @discardableResult
    public static func removeStaleTemporaries(of path: String) -> Int {
        let directory = directoryName(of: path)
        guard let baseName = path.split(separator: "/").last, let names = try? FileSet.entries(of: directory) else { return 0 }
        let prefix = "." + baseName + ".tmp-"
        var removed = 0
        for name in names where name.hasPrefix(prefix) {
            let parts = name.dropFirst(prefix.count).split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 2, let pid = Int32(parts[0]), UInt32(parts[1]) != nil else { continue }
            // A live writer's temporary is its own; a pid reused since is merely left for later.
            guard pid == getpid() || (kill(pid, 0) != 0 && errno == ESRCH) else { continue }
            let temporary = directory + "/" + name
            var status = stat()
            guard lstat(temporary, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { continue }
            if unlink(temporary) == 0 { removed += 1 }
        }
        return removed
    }
}
