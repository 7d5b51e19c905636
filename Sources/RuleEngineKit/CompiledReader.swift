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
