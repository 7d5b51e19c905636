import Foundation
import Testing
@testable import TrackerlessCore

@Suite("FileIO")
struct FileIOTests {
    /// A fresh directory under the system's temporary directory, removed by the caller.
    static func makeDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "trackerless-fileio-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// The names in `directory`, sorted.
    static func contents(of directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
    }

    @Test("writes, replaces and reads back whole files")
    func writeAndRead() throws {
        let directory = try Self.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/out.json"
        try FileIO.writeAtomically(Array("first".utf8), to: path)
        #expect(try FileIO.read(path: path) == Array("first".utf8))
        let big = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try FileIO.writeAtomically(big, to: path)
        #expect(try FileIO.read(path: path) == big)
        try FileIO.writeAtomically([], to: path)
        #expect(try FileIO.read(path: path) == [])
        #expect(Self.contents(of: directory) == ["out.json"])
    }

    @Test("a replaced file keeps its permissions")
    func keepsPermissions() throws {
        let directory = try Self.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/script.sh"
        try FileIO.writeAtomically(Array("a".utf8), to: path)
        try FileManager.default.setAttributes([.posixPermissions: 0o750], ofItemAtPath: path)
        try FileIO.writeAtomically(Array("b".utf8), to: path)
        let permissions = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(permissions == 0o750)
    }

    @Test("reading a missing file names the file")
    func missingFile() {
        let error = #expect(throws: FileError.self) {
            try FileIO.read(path: "/nonexistent/trackerless/tds.json")
        }
        #expect(error?.path == "/nonexistent/trackerless/tds.json")
        #expect(error?.description == "/nonexistent/trackerless/tds.json: No such file or directory")
    }

    @Test("reading a directory is refused")
    func readingDirectory() throws {
        let directory = try Self.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(throws: FileError(path: directory, reason: "is a directory, not a file")) {
            try FileIO.read(path: directory)
        }
    }

    /// A FIFO with no writer would block an open for reading forever; a device never ends.
    @Test("reading a FIFO or a device is refused at once, naming it")
    func readingFIFO() throws {
        let directory = try Self.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let fifo = directory + "/tds.json"
        try #require(mkfifo(fifo, 0o600) == 0)
        let reason = "is not a regular file (a FIFO, socket or device); give a file"
        #expect(throws: FileError(path: fifo, reason: reason)) { try FileIO.read(path: fifo) }
        #expect(throws: FileError(path: "/dev/zero", reason: reason)) { try FileIO.read(path: "/dev/zero") }
    }

    @Test("files over the limit are refused with both sizes in the message")
    func sizeLimit() throws {
        let directory = try Self.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/big"
        try FileIO.writeAtomically([UInt8](repeating: 1, count: 1000), to: path)
        #expect(throws: FileError(path: path, reason: "file is too large (1000 bytes; the limit is 999 bytes)")) {
            try FileIO.read(path: path, maxBytes: 999)
        }
        #expect(try FileIO.read(path: path, maxBytes: 1000).count == 1000)
    }

    @Test("the default limit is 512 MiB: a sparse file one byte over it is refused before a byte is read")
    func defaultSizeLimit() throws {
        let directory = try Self.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/tds.json"
        try FileIO.writeAtomically([], to: path)
        try #require(truncate(path, off_t(512 << 20) + 1) == 0, "cannot make a sparse file")
        let reason = "file is too large (\((512 << 20) + 1) bytes; the limit is \(512 << 20) bytes)"
        #expect(throws: FileError(path: path, reason: reason)) { try FileIO.read(path: path) }
    }

    @Test("an unwritable directory leaves no file and no temporary file behind",
          .enabled(if: getuid() != 0, "root can write into read-only directories"))
    func unwritableDirectory() throws {
        let directory = try Self.makeDirectory()
        defer {
            try? FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: directory)
            try? FileManager.default.removeItem(atPath: directory)
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o500], ofItemAtPath: directory)
        let error = #expect(throws: FileError.self) {
            try FileIO.writeAtomically(Array("x".utf8), to: directory + "/out.json")
        }
        #expect(error?.path == directory + "/out.json")
        #expect(Self.contents(of: directory) == [])
    }

    @Test("a directory in the way is refused before anything is written")
    func directoryInTheWay() throws {
        let directory = try Self.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // The target is a non-empty directory, so nothing can replace it.
        let target = directory + "/target"
        try FileManager.default.createDirectory(atPath: target + "/inside", withIntermediateDirectories: true)
        #expect(throws: FileError(path: target, reason: "is a directory, not a file")) {
            try FileIO.writeAtomically(Array("x".utf8), to: target)
        }
        #expect(Self.contents(of: directory) == ["target"])
    }

    @Test("writing into a missing directory fails, naming the file")
    func missingDirectory() {
        let error = #expect(throws: FileError.self) {
            try FileIO.writeAtomically(Array("x".utf8), to: "/nonexistent/trackerless/out.json")
        }
        #expect(error?.path == "/nonexistent/trackerless/out.json")
        #expect(error?.reason.contains("No such file or directory") == true)
    }

    @Test("a failed rename keeps the old file and removes the temporary file")
    func failedRenameKeepsOldFile() throws {
        let directory = try Self.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/out.json"
        try FileIO.writeAtomically(Array("old".utf8), to: path)
        let error = #expect(throws: FileError.self) {
            try FileIO.writeAtomically(Array("new".utf8), to: path, renamingWith: { _, _ in
                errno = EXDEV
                return -1
            })
        }
        #expect(error?.path == path)
        #expect(error?.reason.hasPrefix("renaming into place failed: ") == true)
        #expect(try FileIO.read(path: path) == Array("old".utf8))
        #expect(Self.contents(of: directory) == ["out.json"])
    }
}
