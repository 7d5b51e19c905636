import Foundation
import TrackerlessCore

extension OutputFile {
    /// Removes the file (or the link, never what it points to) at `path` that an earlier run
    /// wrote and this one has nothing to replace with, so that nothing goes on using it. A
    /// device, a FIFO, a directory and the file of standard output or error (`/dev/stdout`) are
    /// left alone. Whether anything was removed.
    ///
    /// - Throws: ``FileError`` naming `path` ("removing `what` failed: …") when it cannot be removed.
    static func removeEarlierFile(at path: String, what: String) throws(FileError) -> Bool {
        var status = stat()
        guard lstat(path, &status) == 0 else { return false }
        let type = status.st_mode & S_IFMT
        guard type == S_IFREG || type == S_IFLNK, !isWrittenDirectly(path) else { return false }
        guard unlink(path) == 0 else {
            throw FileError(path: path, reason: "removing \(what) failed: \(String(cString: strerror(errno)))")
        }
        return true
    }
}
