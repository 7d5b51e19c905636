#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing
import TrackerlessCore

/// Lines as they arrive, whatever the chunk boundaries, with long lines reported and not kept.
@Suite struct LineReaderTests {
    /// All lines of `text` read with chunks of `chunkBytes`.
    static func lines(_ text: String, chunkBytes: Int, maxLineBytes: Int = 8) throws -> [LineReader.Line] {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lines-\(UUID().uuidString)").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let descriptor = open(path, O_RDONLY)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        var reader = LineReader(descriptor: descriptor, path: path, maxLineBytes: maxLineBytes, chunkBytes: chunkBytes)
        var lines: [LineReader.Line] = []
        while let line = try reader.next() { lines.append(line) }
        return lines
    }

    @Test("every chunk size gives the same lines", arguments: [1, 2, 3, 5, 64])
    func chunkSizes(chunkBytes: Int) throws {
        let lines = try Self.lines("ab\n\ncdefgh\n0123456789\nlast", chunkBytes: chunkBytes)
        #expect(lines == [
            .text(Array("ab".utf8)), .text([]), .text(Array("cdefgh".utf8)), .tooLong(lineBytes: 10), .text(Array("last".utf8)),
        ])
    }

    @Test("an empty input has no lines; a final newline ends the last line")
    func ends() throws {
        #expect(try Self.lines("", chunkBytes: 4).isEmpty)
        #expect(try Self.lines("a\n", chunkBytes: 4) == [.text([0x61])])
        #expect(try Self.lines("12345678\n", chunkBytes: 4) == [.text(Array("12345678".utf8))])
        #expect(try Self.lines("123456789", chunkBytes: 4) == [.tooLong(lineBytes: 9)])
    }
}
