import ContentRuleList
import TrackerlessCore

// The compiled file: a header (signature, format version, payload length, payload checksum),
// then the program's tables one after the other, each array as a count and its raw
// little-endian elements. Loading copies the arrays out and checks every index they hold, so a
// file that passes the checksum but was not written by us still cannot make a lookup go out of
// bounds. The automata of patterns that no table answers (a minority in real lists) are rebuilt
// from their pattern text; the JSON of the rule lists is never read again.

extension RuleEngine {
    /// The engine in Trackerless's compiled format: versioned, checksummed, loadable by
    /// ``init(compiled:publicSuffixList:)`` without parsing the rule lists' JSON.
    public func compiled() -> [UInt8] {
        var writer = CompiledWriter()
        program.write(to: &writer)
        return CompiledFormat.wrap(writer.bytes)
    }

    /// Loads an engine from ``compiled()`` output.
    ///
    /// - Throws: ``CompiledEngineError`` for data that is not a compiled engine, from another
    ///   format version, truncated or corrupt; the caller can compile the rule lists again.
    public init(compiled bytes: [UInt8], publicSuffixList: PublicSuffixList = .bundled) throws(CompiledEngineError) {
        let range = try CompiledFormat.payloadRange(bytes)
        let program = try bytes.withUnsafeBufferPointer { buffer throws(CompiledEngineError) -> Program in
            var reader = CompiledReader(UnsafeBufferPointer(rebasing: buffer[range]))
            return try Program.read(from: &reader)
        }
        self.init(program: program, publicSuffixList: publicSuffixList)
    }
}

/// The container: signature, format version, payload length, payload checksum, payload.
enum CompiledFormat {
    static let signature: [UInt8] = Array("TRKLSRE\0".utf8)
    /// Bumped whenever the layout of the payload changes.
    /// 2: host table values carry the pattern's prefix and final dot (``HostPattern/tableValue(_:)``).
    static let version: UInt32 = 2
    static let headerSize = 8 + 4 + 8 + 8

    static func wrap(_ payload: [UInt8]) -> [UInt8] {
        var header = CompiledWriter()
        header.bytes = signature
        header.write(version)
        header.write(UInt64(payload.count))
        header.write(payload.withUnsafeBufferPointer(checksum))
        return header.bytes + payload
    }

    /// Where the payload is, after checking the header and the checksum.
    static func payloadRange(_ bytes: [UInt8]) throws(CompiledEngineError) -> Range<Int> {
        guard bytes.count >= signature.count, bytes[0..<signature.count].elementsEqual(signature) else {
            throw CompiledEngineError(.notACompiledEngine)
        }
        guard bytes.count >= headerSize else { throw CompiledEngineError(.truncated, detail: "header") }
        return try bytes.withUnsafeBufferPointer { buffer throws(CompiledEngineError) -> Range<Int> in
            var header = CompiledReader(UnsafeBufferPointer(rebasing: buffer[signature.count..<headerSize]))
            let found: UInt32 = try header.read("version")
            guard found == version else { throw CompiledEngineError(.unsupportedVersion(found: found, supported: version)) }
            let length: UInt64 = try header.read("length")
            let stored: UInt64 = try header.read("checksum")
            let available = UInt64(bytes.count - headerSize)
            guard length <= available else {
                throw CompiledEngineError(.truncated, detail: "\(available) of \(length) payload bytes")
            }
            guard length == available else {
                throw CompiledEngineError(.corrupt, detail: "\(available - length) bytes after the payload")
            }
            guard checksum(UnsafeBufferPointer(rebasing: buffer[headerSize...])) == stored else {
                throw CompiledEngineError(.checksumMismatch)
            }
            return headerSize..<bytes.count
        }
    }

    /// FNV-1a over 64-bit words, then over the tail bytes.
    static func checksum(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        let raw = UnsafeRawBufferPointer(bytes)
        var index = 0
        while index + 8 <= raw.count {
            hash = (hash ^ raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) &* 0x100_0000_01b3
            index += 8
        }
        while index < raw.count {
            hash = (hash ^ UInt64(raw[index])) &* 0x100_0000_01b3
            index += 1
        }
        return hash
    }
}

/// Appends little-endian values and arrays.
struct CompiledWriter {
    var bytes: [UInt8] = []

    mutating func write<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func write<T: FixedWidthInteger>(_ values: [T]) {
        write(UInt64(values.count))
        for value in values { write(value) }
    }

    mutating func write(_ string: String) {
        write(Array(string.utf8))
    }

    mutating func write(_ flag: Bool) {
        write(UInt8(flag ? 1 : 0))
    }
}

/// Reads what ``CompiledWriter`` wrote, throwing instead of reading out of bounds.
struct CompiledReader {
    private let bytes: UnsafeBufferPointer<UInt8>
    private(set) var offset = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    var isAtEnd: Bool { offset == bytes.count }

    mutating func read<T: FixedWidthInteger>(_ what: String) throws(CompiledEngineError) -> T {
        let size = MemoryLayout<T>.size
        guard bytes.count - offset >= size else { throw CompiledEngineError(.corrupt, detail: "\(what) at byte \(offset)") }
        let value = UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[offset..<(offset + size)])).loadUnaligned(as: T.self)
        offset += size
        return T(littleEndian: value)
    }

    mutating func readArray<T: FixedWidthInteger>(_ what: String) throws(CompiledEngineError) -> [T] {
        let count: UInt64 = try read(what)
        let size = MemoryLayout<T>.size
        guard count <= UInt64((bytes.count - offset) / size) else {
            throw CompiledEngineError(.corrupt, detail: "\(what): \(count) elements at byte \(offset)")
        }
        let length = Int(count) * size
        let source = UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[offset..<(offset + length)]))
        let values = [T](unsafeUninitializedCapacity: Int(count)) { buffer, initialized in
            UnsafeMutableRawBufferPointer(buffer).copyMemory(from: source)
            initialized = Int(count)
        }
        offset += length
        #if _endian(little)
            return values
        #else
            return values.map { T(littleEndian: $0) }
        #endif
    }

    mutating func readString(_ what: String) throws(CompiledEngineError) -> String {
        let utf8: [UInt8] = try readArray(what)
        return String(decoding: utf8, as: UTF8.self)
    }

    mutating func readBool(_ what: String) throws(CompiledEngineError) -> Bool {
        let value: UInt8 = try read(what)
        guard value <= 1 else { throw CompiledEngineError(.corrupt, detail: "\(what) at byte \(offset - 1)") }
        return value == 1
    }
}
