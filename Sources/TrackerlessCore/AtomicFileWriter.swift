#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A file written a piece at a time that replaces its path whole or not at all: what
/// ``FileIO/writeAtomically(_:to:)`` writes with, and what a writer uses that cannot hold the
/// whole file in memory.
///
/// The pieces go to a temporary file beside the path (`.<name>.tmp-<pid>-<n>`, the name
/// ``FileIO/removeStaleTemporaries(of:)`` recognises); ``commit()`` syncs it and renames it over
/// the path. ``abandon()``, or a writer dropped before it commits, removes the temporary and
/// leaves the path as it was. Readers of the path see the old content or the new, never a part.
///
/// ```swift
/// let writer = try AtomicFileWriter(path: "pages.jsonl")
/// for page in pages { try writer.write(page.line) }
/// try writer.commit()
/// ```
package final class AtomicFileWriter {
    /// The file that ``commit()`` replaces.
    package let path: String
    private let directory: String
    private let temporaryPath: String
    /// -1 once closed.
    private var descriptor: Int32
    /// Committed or abandoned: nothing more to do.
    private var isFinished = false

    /// Creates the temporary file beside `path`, with the permissions of the file it will
    /// replace, or the default for new files.
    ///
    /// A symbolic link at `path` will be replaced by the file, not written through.
    ///
    /// - Throws: ``FileError`` naming `path` when it is a directory, a device, a FIFO or a socket
    ///   (which a renamed file would replace), or when the temporary file cannot be created.
    package init(path: String) throws(FileError) {
        let baseName = path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
        guard !baseName.isEmpty else {
            throw FileError(path: path, reason: "is a directory path, not a file path")
        }
        let mode = try Self.replacedMode(path)
        self.path = path
        directory = FileIO.directoryName(of: path)
        temporaryPath = directory + "/." + baseName + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode ?? 0o666)
        guard descriptor >= 0 else {
            throw FileError(path: path, reason: "cannot create a temporary file in \(directory): \(FileIO.lastErrorMessage())")
        }
        // open() applies the umask; the replaced file's exact permissions are restored.
        if let mode { _ = fchmod(descriptor, mode) }
    }

    deinit {
        abandon()
    }

    /// Appends `bytes` to the temporary file.
    ///
    /// - Throws: ``FileError`` naming ``path`` when writing fails, or after ``commit()`` or
    ///   ``abandon()``; the writer is then of no more use than to abandon.
    package func write(_ bytes: [UInt8]) throws(FileError) {
        guard !isFinished else { throw FileError(path: path, reason: "writing failed: the file is already closed") }
        try FileIO.writeAll(bytes, to: descriptor, path: path)
    }

    /// Puts the file in place of ``path``: syncs it, closes it, renames it over the path and
    /// syncs the directory, so that the new content survives a crash.
    ///
    /// - Throws: ``FileError`` naming ``path`` when a step fails; the temporary is then removed
    ///   and the path unchanged.
    package func commit() throws(FileError) {
        try commit(renamingWith: { rename($0, $1) })
    }

    /// ``commit()`` with the rename replaceable, so that tests can make it fail.
    func commit(renamingWith renameFile: (String, String) -> Int32) throws(FileError) {
        guard !isFinished else { throw FileError(path: path, reason: "the file is already closed") }
        do throws(FileError) {
            guard fsync(descriptor) == 0 else { throw FileIO.systemError(path, while: "syncing") }
            let closed = close(descriptor)
            descriptor = -1
            guard closed == 0 else { throw FileIO.systemError(path, while: "closing") }
            guard renameFile(temporaryPath, path) == 0 else { throw FileIO.systemError(path, while: "renaming into place") }
        } catch {
            abandon()
            throw error
        }
        isFinished = true
        FileIO.syncDirectory(directory)
    }

    /// Removes the temporary file and leaves ``path`` as it was; nothing to do after
    /// ``commit()``.
    package func abandon() {
        guard !isFinished else { return }
        isFinished = true
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
        unlink(temporaryPath)
    }

    /// The permissions of the regular file at `path` (through a symbolic link), nil when there
    /// is none.
    ///
    /// - Throws: ``FileError`` when `path` is a directory, or a device, FIFO or socket: the
    ///   rename would put a regular file in its place (`/dev/null` replaced, for a writer run
    ///   as root).
    private static func replacedMode(_ path: String) throws(FileError) -> mode_t? {
        var status = stat()
        // lstat: a link is replaced, never what it points to, so only what is at the path counts.
        if lstat(path, &status) == 0 {
            switch status.st_mode & S_IFMT {
            case S_IFREG, S_IFLNK, S_IFDIR: break
            default: throw FileError(path: path, reason: "is not a regular file (a device, FIFO or socket); nothing written")
            }
        }
        guard stat(path, &status) == 0 else { return nil }
        switch status.st_mode & S_IFMT {
        case S_IFDIR: throw FileError(path: path, reason: "is a directory, not a file")
        case S_IFREG: return status.st_mode & 0o7777
        default: return nil
        }
    }
}
