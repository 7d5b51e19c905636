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
