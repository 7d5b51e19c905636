#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads lines from a file descriptor as they arrive (a pipe, standard input, a file), so that a
/// command can answer each line before the next one is written, holding one line at most.
///
/// A line is the bytes before a `\n` (a final line without one counts too). A line longer than
/// ``maxLineBytes`` is not kept: the reader skips to its end and reports it as
/// ``Line/tooLong(lineBytes:)``, so memory stays bounded by the limit whatever the input is.
///
/// ```swift
/// var reader = LineReader(descriptor: STDIN_FILENO, path: "<stdin>", maxLineBytes: 1 << 20)
/// while let line = try reader.next() { … }
/// ```
public struct LineReader {
    /// One line of the input.
    public enum Line: Sendable, Equatable {
        /// The line's bytes, without the `\n`.
        case text([UInt8])
        /// A line over the limit, with its length in bytes.
        case tooLong(lineBytes: Int)
    }

    /// The descriptor read from; the reader does not close it.
    public let descriptor: Int32
    /// The name errors give for the input.
    public let path: String
    /// The longest line kept, in bytes.
    public let maxLineBytes: Int

    private var chunk: [UInt8]
    private var chunkStart = 0
    private var chunkEnd = 0
    private var isAtEnd = false

    /// A reader of `descriptor`, named `path` in errors.
    public init(descriptor: Int32, path: String, maxLineBytes: Int, chunkBytes: Int = 1 << 16) {
        self.descriptor = descriptor
        self.path = path
        self.maxLineBytes = max(1, maxLineBytes)
        chunk = [UInt8](repeating: 0, count: max(1, chunkBytes))
    }

    /// The next line, or nil at the end of the input. Blocks until a whole line has arrived.
    ///
    /// - Throws: ``FileError`` when reading fails.
    public mutating func next() throws(FileError) -> Line? {
        var line: [UInt8] = []
        var length = 0
        var sawAnything = false
        while true {
            if chunkStart == chunkEnd {
                if isAtEnd { break }
                try fill()
                continue
            }
            sawAnything = true
            let newline = chunk[chunkStart..<chunkEnd].firstIndex(of: 0x0A)
            let end = newline ?? chunkEnd
            let piece = end - chunkStart
            if length + piece <= maxLineBytes { line.append(contentsOf: chunk[chunkStart..<end]) }
            else { line = [] }
            length += piece
            chunkStart = newline.map { $0 + 1 } ?? chunkEnd
            if newline != nil { return length > maxLineBytes ? .tooLong(lineBytes: length) : .text(line) }
        }
        guard sawAnything else { return nil }
        return length > maxLineBytes ? .tooLong(lineBytes: length) : .text(line)
    }

    private mutating func fill() throws(FileError) {
        while true {
            let count = chunk.withUnsafeMutableBytes { buffer in
                Glue.read(descriptor, buffer.baseAddress, buffer.count)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw FileIO.systemError(path, while: "reading")
            }
            chunkStart = 0
            chunkEnd = count
            if count == 0 { isAtEnd = true }
            return
        }
    }
}
