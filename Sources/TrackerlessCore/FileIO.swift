#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Whole-file reads and all-or-nothing writes.
public enum FileIO: Sendable {
    /// Reads a whole file; error names the path; refuses files over maxBytes with a clear message.
    ///
    /// - Throws: ``FileError`` when the file cannot be opened or read, is a directory, or is
    ///   larger than `maxBytes`.
    public static func read(path: String, maxBytes: Int = 512 << 20) throws(FileError) -> [UInt8] {
        // Opened without blocking: opening a FIFO with no writer would wait forever.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw systemError(path) }
        defer { close(descriptor) }

        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw systemError(path) }
        switch status.st_mode & S_IFMT {
        case S_IFREG:
            break
        case S_IFDIR:
            throw FileError(path: path, reason: "is a directory, not a file")
        default:
            // A FIFO, socket or device could block forever or never end: only files are read.
            throw FileError(path: path, reason: "is not a regular file (a FIFO, socket or device); give a file")
        }
        let reportedSize = Int(status.st_size)
        if reportedSize > maxBytes {
            throw tooLarge(path, size: "\(reportedSize) bytes", maxBytes: maxBytes)
        }
        // The reported size is only a hint: /proc files report 0, files can grow.
        return try readAll(descriptor, path: path, sizeHint: reportedSize, maxBytes: maxBytes)
    }

    /// Writes whole or not at all: temp file in the same directory, fsync, rename; removes the temp on failure.
    ///
    /// Readers of `path` see either the old content or the new, never a partial file. The new
    /// file gets the permissions of the file it replaces, or the default for new files. A
    /// symbolic link at `path` is replaced by the file, not written through. A device, FIFO or
    /// socket at `path` is refused before anything is written: a file renamed over it would
    /// replace it (`/dev/null`, for a writer run as root).
    ///
    /// - Throws: ``FileError`` naming `path` when any step fails; `path` is then unchanged.
    public static func writeAtomically(_ bytes: [UInt8], to path: String) throws(FileError) {
        try writeAtomically(bytes, to: path, renamingWith: { rename($0, $1) })
    }

    /// ``writeAtomically(_:to:)`` with the final rename replaceable, so tests can make it fail.
    static func writeAtomically(
        _ bytes: [UInt8], to path: String, renamingWith renameFile: (String, String) -> Int32
    ) throws(FileError) {
        let writer = try AtomicFileWriter(path: path)
        do throws(FileError) {
            try writer.write(bytes)
            try writer.commit(renamingWith: renameFile)
        } catch {
            writer.abandon()
            throw error
        }
    }

    /// Reads standard input until its end; returns what was read if reading fails midway.
    public static func readStandardInput() -> [UInt8] {
        (try? readAll(STDIN_FILENO, path: "<stdin>", sizeHint: 0, maxBytes: Int.max)) ?? []
    }

    // MARK: Helpers

    private static func readAll(
        _ descriptor: Int32, path: String, sizeHint: Int, maxBytes: Int
    ) throws(FileError) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(sizeHint + 1)
        let chunkSize = 1 << 16
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        while true {
            let count = chunk.withUnsafeMutableBytes { buffer in
                Glue.read(descriptor, buffer.baseAddress, chunkSize)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw systemError(path, while: "reading")
            }
            if count == 0 { return bytes }
            if bytes.count + count > maxBytes {
                throw tooLarge(path, size: "more than \(maxBytes) bytes", maxBytes: maxBytes)
            }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }

    static func writeAll(_ bytes: [UInt8], to descriptor: Int32, path: String) throws(FileError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                Glue.write(descriptor, buffer.baseAddress.map { $0 + offset }, bytes.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                throw systemError(path, while: "writing")
            }
            offset += written
        }
    }

    /// Makes the rename durable; failures only cost durability, so they are ignored.
    static func syncDirectory(_ directory: String) {
        let descriptor = open(directory, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }

    static func directoryName(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let directory = path[..<slash]
        return directory.isEmpty ? "/" : String(directory)
    }

    private static func tooLarge(_ path: String, size: String, maxBytes: Int) -> FileError {
        FileError(path: path, reason: "file is too large (\(size); the limit is \(maxBytes) bytes)")
    }

    static func systemError(_ path: String, while action: String? = nil) -> FileError {
        let message = lastErrorMessage()
        return FileError(path: path, reason: action.map { "\($0) failed: \(message)" } ?? message)
    }

    static func lastErrorMessage() -> String {
        guard let message = strerror(errno) else { return "error \(errno)" }
        return String(cString: message)
    }
}
