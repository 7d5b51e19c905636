import Foundation
import Testing
@testable import TrackerlessCore
import TrackerlessTestSupport

/// A file written in pieces replaces its path whole or not at all, and never replaces what is
/// not a file.
@Suite("AtomicFileWriter")
struct AtomicFileWriterTests {
    /// A fresh directory holding `out.json` with "old", removed by the caller.
    private func directoryWithOldFile() throws -> (directory: String, path: String) {
        let directory = try FileIOTests.makeDirectory()
        let path = directory + "/out.json"
        try FileIO.writeAtomically(Array("old".utf8), to: path)
        return (directory, path)
    }

    /// A fresh directory holding `null`, a character device equal to /dev/null, removed by the caller.
    private func directoryWithNull() throws -> (directory: String, node: String) {
        let directory = try FileIOTests.makeDirectory()
        let node = directory + "/null"
        try #require(DeviceNode.makeNull(at: node), "mknod: \(String(cString: strerror(errno)))")
        return (directory, node)
    }

    @Test("pieces go to .<name>.tmp-<pid>-<n> beside the file, which keeps its old content until the commit")
    func piecesThenCommit() throws {
        let (directory, path) = try directoryWithOldFile()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let writer = try AtomicFileWriter(path: path)
        try writer.write(Array("one\n".utf8))
        try writer.write(Array("two\n".utf8))
        let temporary = try #require(FileIOTests.contents(of: directory).first { $0 != "out.json" })
        let parts = temporary.split(separator: "-")
        #expect(temporary.hasPrefix(".out.json.tmp-") && parts.count == 3 && parts[1] == "\(getpid())" && UInt32(parts[2]) != nil,
                "\(temporary)")
        #expect(try FileIO.read(path: path) == Array("old".utf8))

        try writer.commit()
        #expect(try FileIO.read(path: path) == Array("one\ntwo\n".utf8))
        #expect(FileIOTests.contents(of: directory) == ["out.json"])
        #expect(throws: FileError.self) { try writer.write(Array("three\n".utf8)) }
    }

    @Test("abandoned, or dropped before its commit: the old file stays and the temporary goes")
    func abandoned() throws {
        let (directory, path) = try directoryWithOldFile()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let writer = try AtomicFileWriter(path: path)
        try writer.write(Array("new".utf8))
        writer.abandon()
        #expect(FileIOTests.contents(of: directory) == ["out.json"])
        #expect(throws: FileError.self) { try writer.commit() }

        do {
            let dropped = try AtomicFileWriter(path: path)
            try dropped.write(Array("new".utf8))
        }
        #expect(FileIOTests.contents(of: directory) == ["out.json"])
        #expect(try FileIO.read(path: path) == Array("old".utf8))
    }

    static let notRegular = "is not a regular file (a device, FIFO or socket); nothing written"

    @Test("writeAtomically to a character device (a node equal to /dev/null) is refused and leaves the device",
          DeviceNode.mknodAllowed)
    func characterDevice() throws {
        let (directory, node) = try directoryWithNull()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(throws: FileError(path: node, reason: Self.notRegular)) {
            try FileIO.writeAtomically(Array("x".utf8), to: node)
        }
        #expect(throws: FileError(path: node, reason: Self.notRegular)) { _ = try AtomicFileWriter(path: node) }
        #expect(DeviceNode.fileType(node) == S_IFCHR)
        // Refused before a temporary was made.
        #expect(FileIOTests.contents(of: directory) == ["null"])
    }

    @Test("writeAtomically to a FIFO is refused at once, and leaves the FIFO")
    func fifo() throws {
        let directory = try FileIOTests.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let fifo = directory + "/out.json"
        try #require(mkfifo(fifo, 0o600) == 0)
        #expect(throws: FileError(path: fifo, reason: Self.notRegular)) {
            try FileIO.writeAtomically(Array("x".utf8), to: fifo)
        }
        #expect(DeviceNode.fileType(fifo) == S_IFIFO)
        #expect(FileIOTests.contents(of: directory) == ["out.json"])
    }

    @Test("a symbolic link to a device is replaced by the file, as any link is; the device is left alone",
          DeviceNode.mknodAllowed)
    func linkToDevice() throws {
        let (directory, node) = try directoryWithNull()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let link = directory + "/out.json"
        try #require(symlink(node, link) == 0)
        try FileIO.writeAtomically(Array("x".utf8), to: link)
        #expect(DeviceNode.fileType(link) == S_IFREG)
        #expect(try FileIO.read(path: link) == Array("x".utf8))
        #expect(DeviceNode.fileType(node) == S_IFCHR)
    }
}
