import Foundation
import TrackerlessCore

/// Where a command writes what it is told to write to `--output FILE` (or to standard output,
/// without one): every command's file output goes through here.
///
/// A regular file, or a path where nothing is yet, is replaced whole or not at all
/// (``AtomicFileWriter``: a temporary file beside it, renamed into place by ``commit()``; an
/// output never committed leaves the file as it was). It is written as it goes, so that
/// `stats --stream --output` holds nothing in memory.
///
/// What cannot be replaced is written directly: a character device or a FIFO (`/dev/null`, a
/// terminal, a named pipe that a host reads), where a renamed file would take the device's
/// place, and the file that standard output or standard error already writes to
/// (`--output /dev/stdout` with standard output redirected to a file), where a renamed file would
/// take the place of the link `/dev/stdout`. A FIFO that no process reads is an error, not a
/// wait. Anything else that is not a file (a block device, a socket) is refused.
final class OutputFile {
    private enum Destination {
        case standardOutput
        case direct(Int32)
        case replacement(AtomicFileWriter)
        case closed
    }

    /// The path, nil for standard output.
    let path: String?
    private var destination: Destination

    /// Standard output when `path` is nil.
    ///
    /// - Throws: ``FileError`` naming `path` when it cannot be written: a directory, a block
    ///   device or socket, a FIFO no process reads, a directory where no file can be created.
    init(path: String?) throws(FileError) {
        self.path = path
        guard let path else {
            destination = .standardOutput
            return
        }
        switch Self.kind(of: path) {
        case .standardStream(let descriptor):
            let copy = fcntl(descriptor, F_DUPFD_CLOEXEC, 0)
            guard copy >= 0 else { throw Self.failure(path, "opening failed") }
            destination = .direct(copy)
        case .device(let isFIFO):
            destination = .direct(try Self.openDevice(path, isFIFO: isFIFO))
        case .file:
            destination = .replacement(try AtomicFileWriter(path: path))
        }
    }

    deinit {
        abandon()
    }

    /// Whether `path` is written in place rather than replaced: a device, a FIFO, or the file of
    /// standard output or standard error. A file that belongs beside the output (a Click-to-Load
    /// list beside `rules --output FILE`) has no place beside such a path.
    static func isWrittenDirectly(_ path: String) -> Bool {
        if case .file = kind(of: path) { return false }
        return true
    }

    /// Writes `bytes` whole to `path` (``init(path:)``, ``write(_:)``, ``commit()``).
    static func write(_ bytes: [UInt8], to path: String) throws(FileError) {
        let output = try OutputFile(path: path)
        try output.write(bytes)
        try output.commit()
    }

    /// Writes `bytes`; to standard output, a device or a FIFO at once (a host reads them as
    /// they come).
    func write(_ bytes: [UInt8]) throws(FileError) {
        switch destination {
        case .standardOutput:
            Output.write(bytes)
        case .direct(let descriptor):
            if let reason = Output.writeAll(bytes, to: descriptor) {
                throw FileError(path: path ?? "standard output", reason: "writing failed: \(reason)")
            }
        case .replacement(let writer):
            try writer.write(bytes)
        case .closed:
            throw FileError(path: path ?? "standard output", reason: "writing failed: the output is already closed")
        }
    }

    /// Ends the output: puts a replaced file in place, whole; closes a device or FIFO.
    func commit() throws(FileError) {
        let committed = destination
        destination = .closed
        switch committed {
        case .standardOutput, .closed:
            break
        case .direct(let descriptor):
            guard close(descriptor) == 0 else { throw Self.failure(path ?? "standard output", "closing failed") }
        case .replacement(let writer):
            try writer.commit()
        }
    }

    /// Leaves a replaced file as it was; what a device or FIFO was sent stays sent.
    private func abandon() {
        switch destination {
        case .standardOutput, .closed: break
        case .direct(let descriptor): close(descriptor)
        case .replacement(let writer): writer.abandon()
        }
        destination = .closed
    }

    private enum Kind {
        /// The file that this standard stream (standard output or error) writes to.
        case standardStream(Int32)
        /// A character device or a FIFO.
        case device(isFIFO: Bool)
        /// A regular file, nothing yet, or what ``AtomicFileWriter`` refuses.
        case file
    }

    private static func kind(of path: String) -> Kind {
        var status = stat()
        guard stat(path, &status) == 0 else { return .file }
        for descriptor in [STDOUT_FILENO, STDERR_FILENO] {
            var stream = stat()
            if fstat(descriptor, &stream) == 0 && stream.st_dev == status.st_dev && stream.st_ino == status.st_ino {
                return .standardStream(descriptor)
            }
        }
        switch status.st_mode & S_IFMT {
        case S_IFCHR: return .device(isFIFO: false)
        case S_IFIFO: return .device(isFIFO: true)
        default: return .file
        }
    }

    /// Opens a character device or FIFO for writing, in blocking mode once open.
    private static func openDevice(_ path: String, isFIFO: Bool) throws(FileError) -> Int32 {
        // Opening a FIFO for writing waits for a reader; without blocking, no reader is ENXIO.
        let descriptor = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY | (isFIFO ? O_NONBLOCK : 0))
        guard descriptor >= 0 else {
            if isFIFO && errno == ENXIO {
                throw FileError(path: path, reason: "is a FIFO that no process reads; nothing written")
            }
            throw failure(path, "opening failed")
        }
        var status = stat()
        let type = fstat(descriptor, &status) == 0 ? status.st_mode & S_IFMT : 0
        // The path was a device or FIFO a moment ago; what was opened must be one still, as
        // writing in place into a file would not be whole or nothing.
        guard type == (isFIFO ? S_IFIFO : S_IFCHR) else {
            close(descriptor)
            throw FileError(path: path, reason: "was replaced while it was being opened; nothing written")
        }
        let flags = fcntl(descriptor, F_GETFL)
        guard flags >= 0, fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK) == 0 else {
            let error = failure(path, "opening failed")
            close(descriptor)
            throw error
        }
        return descriptor
    }

    private static func failure(_ path: String, _ action: String) -> FileError {
        FileError(path: path, reason: "\(action): \(String(cString: strerror(errno)))")
    }
}
