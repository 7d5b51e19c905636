import Foundation
import Testing
import TrackerlessCore
import TrackerlessRuntime

/// A cache whose `set` link points outside it (restored by a backup tool, a cache moved) is
/// rebuilt without touching what the link points to: only the link goes.
@Suite("Cache directory: a link to elsewhere is removed, never what it points to")
struct CacheLinkOutsideTests {
    /// The special file is a FIFO made for the test: a regression must not delete a real device.
    @Test("set pointing to a directory outside the cache, or to a special file: rebuilt, the target kept", arguments: ["directory", "fifo"])
    func linkOutside(kind: String) throws {
        let directory = try RuntimeFixture.directory()
        let outside = try RuntimeFixture.directory()
        defer {
            try? FileManager.default.removeItem(atPath: directory)
            try? FileManager.default.removeItem(atPath: outside)
        }
        let precious = outside + "/precious.txt"
        try Data("the user's data".utf8).write(to: URL(fileURLWithPath: precious))
        let fifo = outside + "/fifo"
        try #require(mkfifo(fifo, 0o600) == 0)
        let target = kind == "fifo" ? fifo : outside
        try FileManager.default.createSymbolicLink(atPath: directory + "/set", withDestinationPath: target)

        let set = try ProtectionSet.load(RuntimeFixture.inputs, cacheDirectory: directory)
        #expect(set.origin == .built)
        #expect(FileManager.default.fileExists(atPath: precious), "the link's target was deleted")
        #expect(FileManager.default.fileExists(atPath: fifo), "the special file the link pointed to was deleted")
        // The cache's own link now points to a generation inside it, and the next launch loads it.
        let generation = FileSet.generation(of: directory + "/set")
        #expect((generation as NSString).deletingLastPathComponent == FileSet.generation(of: directory))
        #expect(try ProtectionSet.load(RuntimeFixture.inputs, cacheDirectory: directory).origin == .cache)
    }

    /// An empty path would put the cache's files at the root of the file system.
    @Test("an empty cache path is refused, saying so, and nothing is written")
    func emptyPath() throws {
        let rootBefore = try FileManager.default.contentsOfDirectory(atPath: "/").sorted()
        #expect {
            try ProtectionRuntime(inputs: RuntimeFixture.inputs, cacheDirectory: "")
        } throws: { error in
            "\(error)".contains("the cache directory: the path is empty; give a directory")
        }
        #expect(throws: ProtectionError.self) { try ProtectionSet.load(RuntimeFixture.inputs, cacheDirectory: "") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: "/").sorted() == rootBefore)
    }
}
